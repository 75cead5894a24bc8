#!/usr/bin/env python3
"""Tensor layout permutations: ct_permute against PyTorch and a copy.

    bench/bench-tensors.py BUILD/bench/libcudatranspose-bench.so [--json FILE]
        [--reps N]
    bench/bench-tensors.py BUILD/bench/libcudatranspose-bench.so \
        --one DTYPE N C H W DIRECTION

--one runs one ct_permute call once on a random NCHW tensor (DTYPE float32
or uint8, DIRECTION one of DIRECTIONS below), checks it against PyTorch and
prints the path it took, nothing timed: for a profiler (docs/performance.md
has the ncu command line).

For float32 and uint8 tensors in the layouts of JOBS (NCHW to NHWC and
back, and a transpose with two batch dimensions), it times in one process, on the same buffers and the same
(default) CUDA stream:
  - copy: a device-to-device copy of the same bytes (dst.copy_(src));
  - ct_permute, through ctypes;
  - PyTorch: x.permute(...).contiguous().
Each is the median of --reps runs after warm-up, with CUDA events, the L2
cache flushed (a buffer twice its size read) before every run. Our output
is checked against PyTorch's, element for element, on random data. Ratios
are against the copy measured in the same run; "path" is the kernel
ct_permute ran.
"""
import argparse
import ctypes
import sys

import torch

from torch_timing import Timer, finish, open_lib

NCHW = ("NCHW->NHWC", "NHWC->NCHW")
JOBS = [
    # (label, NCHW shape, directions)
    ("8x3x1080x1920", (8, 3, 1080, 1920), NCHW),
    ("1x64x512x512", (1, 64, 512, 512), NCHW),
    # small feature maps: 64 KB, 512 KB, 1 MB a tensor in uint8
    ("1x16x64x64", (1, 16, 64, 64), NCHW),
    ("1x32x128x128", (1, 32, 128, 128), NCHW),
    ("1x64x128x128", (1, 64, 128, 128), NCHW),
    # odd sizes: the planar rows are not whole 16-byte words (the packed
    # channel kernel); an image of the PASCAL VOC data set
    ("4x3x1079x1919", (4, 3, 1079, 1919), NCHW),
    ("1x3x375x500", (1, 3, 375, 500), NCHW),
    # a transpose with two batch dimensions, both over 8
    ("16x16x256x256", (16, 16, 256, 256), ("NCHW->CNWH",)),
]
# direction: the input's layout (as a reordering of n, c, h, w) and
# PyTorch's permutation of it
DIRECTIONS = {
    "NCHW->NHWC": ((0, 1, 2, 3), (0, 2, 3, 1)),
    "NHWC->NCHW": ((0, 2, 3, 1), (0, 3, 1, 2)),
    "NCHW->CNWH": ((0, 1, 2, 3), (1, 0, 3, 2)),
    "NCHW->NCWH": ((0, 1, 2, 3), (0, 1, 3, 2)),
}
DTYPES = [("float32", torch.float32), ("uint8", torch.uint8)]


def checked_run(lib, dev, nchw, dtype, direction):
    """One ct_permute_ex call of @direction on a random tensor of @nchw
    over a poisoned output, checked against PyTorch's permutation: returns
    the input, the output, the call's arguments, the path and whether it
    was right."""
    layout, torch_perm = DIRECTIONS[direction]
    shape = tuple(nchw[k] for k in layout)
    # ours counts dimensions innermost first: dimension i is PyTorch's
    # 3 - i, and output i comes from input perm[i]
    dims = tuple(reversed(shape))
    perm = tuple(3 - torch_perm[3 - i] for i in range(4))
    if dtype.is_floating_point:
        x = torch.randn(shape, dtype=dtype, device=dev)
    else:
        x = torch.randint(0, 256, shape, dtype=dtype, device=dev)
    out = torch.empty_like(x)
    out.fill_(0xa5 if not dtype.is_floating_point else -7.5)
    cd = (ctypes.c_ulonglong * 4)(*dims)
    cp = (ctypes.c_uint * 4)(*perm)
    ran = ctypes.c_int(0)
    r = lib.ct_permute_ex(x.data_ptr(), out.data_ptr(), cd, x.element_size(),
                          cp, None, ctypes.byref(ran))
    if r != 0:
        raise RuntimeError(lib.ct_result_string(r).decode())
    path = lib.ct_path_name(ran.value).decode()
    torch.cuda.synchronize()
    want = x.permute(*torch_perm).contiguous()
    ok = torch.equal(out.view(-1), want.view(-1))
    return x, out, (cd, cp), path, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib")
    ap.add_argument("--json")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--one", nargs=6,
                    metavar=("DTYPE", "N", "C", "H", "W", "DIRECTION"))
    args = ap.parse_args()

    lib = open_lib(args.lib)
    lib.ct_permute.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.POINTER(ctypes.c_ulonglong),
                               ctypes.c_uint, ctypes.POINTER(ctypes.c_uint),
                               ctypes.c_void_p]
    lib.ct_permute.restype = ctypes.c_int
    lib.ct_permute_ex.argtypes = lib.ct_permute.argtypes + [
        ctypes.POINTER(ctypes.c_int)]
    lib.ct_permute_ex.restype = ctypes.c_int
    lib.ct_path_name.argtypes = [ctypes.c_int]
    lib.ct_path_name.restype = ctypes.c_char_p

    if args.one is not None:
        tname, direction = args.one[0], args.one[5]
        types = dict(DTYPES)
        if tname not in types or direction not in DIRECTIONS:
            ap.error(f"--one: DTYPE one of {', '.join(types)}, DIRECTION "
                     f"one of {', '.join(DIRECTIONS)}")
        try:
            nchw = tuple(int(v) for v in args.one[1:5])
        except ValueError:
            ap.error("--one: N C H W are whole numbers")
        if min(nchw) < 1:
            ap.error("--one: N C H W are 1 or more")
        _, _, _, path, ok = checked_run(lib, torch.device("cuda"), nchw,
                                        types[tname], direction)
        print(f"{'x'.join(map(str, nchw))} {tname} {direction} on {path}: "
              + ("correct" if ok else "WRONG"))
        return 0 if ok else 1

    timer = Timer(args.reps)
    dev, props, timed = timer.dev, timer.props, timer.one

    print(f"device: {props.name}; PyTorch {torch.__version__}; median of "
          f"{args.reps} runs, L2 flushed before each")
    print(f"{'job':<16} {'type':<8} {'direction':<14} {'copy us':>9} "
          f"{'ours us':>9} {'torch us':>9} {'ours x copy':>11} "
          f"{'torch x copy':>12} {'ours vs torch':>13}  path")
    rows = []
    failures = 0
    for label, nchw, directions in JOBS:
        for tname, dtype in DTYPES:
            for direction in directions:
                x, out, (cd, cp), path, ok = checked_run(
                    lib, dev, nchw, dtype, direction)
                torch_perm = DIRECTIONS[direction][1]
                es = x.element_size()
                if not ok:
                    failures += 1
                copy_dst = torch.empty_like(x)

                def ours():
                    r = lib.ct_permute(x.data_ptr(), out.data_ptr(), cd, es,
                                       cp, None)
                    if r != 0:
                        raise RuntimeError(lib.ct_result_string(r).decode())

                copy_us = timed(lambda: copy_dst.copy_(x))
                ours_us = timed(ours)
                torch_us = timed(lambda: x.permute(*torch_perm).contiguous())
                row = dict(job=label, type=tname, direction=direction,
                           bytes=x.numel() * es, copy_us=copy_us,
                           ours_us=ours_us, torch_us=torch_us,
                           ours_x_copy=copy_us / ours_us,
                           torch_x_copy=copy_us / torch_us,
                           ours_vs_torch=torch_us / ours_us, path=path,
                           correct=ok)
                rows.append(row)
                print(f"{label:<16} {tname:<8} {direction:<14} "
                      f"{copy_us:9.1f} {ours_us:9.1f} {torch_us:9.1f} "
                      f"{row['ours_x_copy']:11.2f} {row['torch_x_copy']:12.2f} "
                      f"{row['ours_vs_torch']:12.2f}x  {path}"
                      + ("" if ok else "  MISMATCH"))
                del x, out, copy_dst
                torch.cuda.empty_cache()
    return finish(args.json, timer, rows, failures)


if __name__ == "__main__":
    sys.exit(main())
