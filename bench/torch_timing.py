"""What the PyTorch benches (bench-tensors.py, bench-preprocess.py) share:
the kernels' library through ctypes, the device, a buffer that flushes
the L2 cache, and timing with CUDA events."""
import ctypes
import statistics

import torch


def open_lib(path):
    """The bench library (BUILD/bench/libcudatranspose-bench.so), with
    ct_result_string typed; each bench types the calls it makes."""
    lib = ctypes.CDLL(path)
    lib.ct_result_string.argtypes = [ctypes.c_int]
    lib.ct_result_string.restype = ctypes.c_char_p
    return lib


class Timer:
    """CUDA events on the default stream, the L2 flushed (a buffer twice
    its size written) before every timed run, 5 rounds of warm-up, then
    @reps timed ones; times in microseconds, medians."""

    def __init__(self, reps):
        self.dev = torch.device("cuda")
        self.props = torch.cuda.get_device_properties(self.dev)
        l2 = getattr(self.props, "L2_cache_size", 64 << 20)
        self.flush = torch.empty(2 * l2, dtype=torch.uint8, device=self.dev)
        self.reps = reps

    def rounds(self, fns):
        """Medians of each of @fns, run in turn in every round so that
        clocks and the other work affect them alike."""
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        ms = [[] for _ in fns]
        for i in range(-5, self.reps):
            for k, fn in enumerate(fns):
                self.flush.fill_(i & 0xff)
                a.record()
                fn()
                b.record()
                b.synchronize()
                if i >= 0:
                    ms[k].append(a.elapsed_time(b))
        return [statistics.median(m) * 1000.0 for m in ms]

    def one(self, fn):
        """The median of @fn alone."""
        return self.rounds([fn])[0]
