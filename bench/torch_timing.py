"""What the PyTorch benches (bench-tensors.py, bench-preprocess.py,
bench-yuv-tensor.py) share: the kernels' library through ctypes and its
arithmetic's structures, the device, a buffer that flushes the L2 cache,
and timing with CUDA events."""
import ctypes
import json
import statistics
import time

import torch


class Op(ctypes.Structure):
    """CtArithOp."""
    _fields_ = [("kind", ctypes.c_int), ("channel", ctypes.c_int),
                ("is_float", ctypes.c_int), ("int_value", ctypes.c_longlong),
                ("float_value", ctypes.c_double)]


class Arith(ctypes.Structure):
    """CtArith (CT_ARITH_MAX_OPS operations)."""
    _fields_ = [("in_type", ctypes.c_int), ("out_type", ctypes.c_int),
                ("channel_dim", ctypes.c_uint), ("n_ops", ctypes.c_uint),
                ("ops", Op * 64)]


def open_lib(path):
    """The bench library (BUILD/bench/libcudatranspose-bench.so), with
    ct_result_string typed; each bench types the calls it makes."""
    lib = ctypes.CDLL(path)
    lib.ct_result_string.argtypes = [ctypes.c_int]
    lib.ct_result_string.restype = ctypes.c_char_p
    return lib


class Timer:
    """CUDA events on the default stream, the L2 flushed before every timed
    run, a quarter of a second of warm-up before the first rounds, 5
    rounds of warm-up, then @reps timed ones; times in microseconds,
    medians.

    The flush reads a buffer twice the L2's size, as bench-kernels' does,
    so that the L2 holds clean lines of other data: what is timed finds
    none of its own bytes there and pays no write-back of the flush's.
    (A flush that writes leaves the L2 full of dirty lines, which a timed
    run evicts as it writes. That cost comes and goes from one run to the
    next: one 224x224 frame's fused pass took 4.3 to 5.4 us by it on an
    H100, and it weighs on a pass that writes four bytes for each it reads
    more than on the copy it is compared with.)"""

    def __init__(self, reps):
        self.dev = torch.device("cuda")
        self.props = torch.cuda.get_device_properties(self.dev)
        l2 = getattr(self.props, "L2_cache_size", 64 << 20)
        self.flush = torch.full((2 * l2,), 7, dtype=torch.uint8,
                                device=self.dev)
        self.reps = reps
        self.warm = False

    def warm_up(self):
        """A quarter of a second of flushes before the first timed round,
        so that the GPU's clocks have left idle: the rounds of warm-up take
        a millisecond, and the first row of a bench may otherwise be timed
        while its clocks still rise."""
        start = time.monotonic()
        while time.monotonic() - start < 0.25:
            self.flush_l2()
            torch.cuda.synchronize()
        self.warm = True

    def flush_l2(self):
        self.flush.sum(dtype=torch.int64)

    def rounds(self, fns):
        """Medians of each of @fns, run in turn in every round so that
        clocks and the other work affect them alike; the order turns by
        one each round, so that none always follows the same one."""
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        ms = [[] for _ in fns]
        if not self.warm:
            self.warm_up()
        for i in range(-5, self.reps):
            for j in range(len(fns)):
                k = (i + j) % len(fns)
                self.flush_l2()
                a.record()
                fns[k]()
                b.record()
                b.synchronize()
                if i >= 0:
                    ms[k].append(a.elapsed_time(b))
        return [statistics.median(m) * 1000.0 for m in ms]

    def one(self, fn):
        """The median of @fn alone."""
        return self.rounds([fn])[0]


def finish(path, timer, rows, failures):
    """The bench's end: its @rows as JSON at @path (if any), with the
    device, PyTorch's version and the rounds; the count of @failures said;
    the exit status."""
    if path:
        with open(path, "w") as f:
            json.dump(dict(device=timer.props.name, torch=torch.__version__,
                           reps=timer.reps, rows=rows), f, indent=1)
    if failures:
        print(f"{failures} MISMATCHES")
    return 1 if failures else 0
