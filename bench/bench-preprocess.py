#!/usr/bin/env python3
"""Inference pre-processing in one pass: ct_permute_arith against PyTorch
and a copy.

    bench/bench-preprocess.py BUILD/bench/libcudatranspose-bench.so
        [--json FILE] [--reps N]

Each row turns uint8 pixels, interleaved (HWC / NHWC), into a normalized
float32 tensor in planes (CHW / NCHW), as a network's input wants it:
  - scalar: typecast:float32,add:-127.5,div:127.5
  - per channel: typecast:float32,per-channel:true@0,add:-123.68@0,
    add:-116.78@1,add:-103.94@2,div:58.4
timed in one process on the same (default) stream:
  - copy: a device-to-device copy moving as many bytes as the pass reads
    and writes together ((input + output) / 2 bytes copied);
  - ours: ct_permute_arith, through ctypes;
  - PyTorch: x.permute(...).float().sub_(m).div_(s), m and s scalars or
    per-channel tensors;
  - write: the output's bytes written alone (a memset), the floor of any
    pass that writes them.
Each is the median of --reps rounds after warm-up, with CUDA events, the
L2 cache flushed (a buffer twice its size read) before every run. The
three run in turn in every round. Our output must equal, element for
element, PyTorch computing NNStreamer's float32 steps with a true division
(x + (-m)) / s; PyTorch's own div_ by a scalar multiplies by its
reciprocal, so the row also says by how much that form is off. Ratios are
against the copy.
"""
import argparse
import ctypes
import sys

import torch

from torch_timing import Arith, Op, Timer, finish, open_lib

# (label, N, H, W): frames are N = 1
JOBS = [
    ("1080p frame", 1, 1080, 1920),
    ("4K frame", 1, 2160, 3840),
    ("224x224 x1", 1, 224, 224),
    ("224x224 x8", 8, 224, 224),
    ("224x224 x32", 32, 224, 224),
    ("640x640 x1", 1, 640, 640),
    ("640x640 x8", 8, 640, 640),
    ("640x640 x32", 32, 640, 640),
]

CT_TYPE_UINT8 = 1
CT_TYPE_FLOAT32 = 8
ADD, MUL, DIV = 0, 1, 2
MEANS = (123.68, 116.78, 103.94)
STD = 58.4



def program(per_channel):
    a = Arith(CT_TYPE_UINT8, CT_TYPE_FLOAT32, 0, 0)
    ops = ([(ADD, c, -m) for c, m in enumerate(MEANS)] + [(DIV, -1, STD)]
           if per_channel else [(ADD, -1, -127.5), (DIV, -1, 127.5)])
    for i, (kind, ch, v) in enumerate(ops):
        a.ops[i] = Op(kind, ch, 1, 0, v)
    a.n_ops = len(ops)
    return a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib")
    ap.add_argument("--json")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--only", help="the rows of this job alone (for ncu)")
    args = ap.parse_args()

    lib = open_lib(args.lib)
    lib.ct_permute_arith.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_ulonglong),
        ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(Arith), ctypes.c_void_p,
        ctypes.c_void_p]
    lib.ct_permute_arith.restype = ctypes.c_int

    timer = Timer(args.reps)
    dev, props, timed_rounds = timer.dev, timer.props, timer.rounds

    print(f"device: {props.name}; PyTorch {torch.__version__}; median of "
          f"{args.reps} runs, L2 flushed before each")
    print(f"{'job':<13} {'norm':<11} {'copy us':>9} {'ours us':>9} "
          f"{'torch us':>9} {'ours x copy':>11} {'torch x copy':>12} "
          f"{'ours vs torch':>13}")
    rows = []
    failures = 0
    for label, n, h, w in JOBS:
        if args.only and label != args.only:
            continue
        x = torch.randint(0, 256, (n, h, w, 3), dtype=torch.uint8, device=dev)
        out = torch.empty((n, 3, h, w), dtype=torch.float32, device=dev)
        out_bytes = out.view(torch.uint8)
        half = (x.numel() + out.numel() * 4) // 2
        csrc = torch.empty(half, dtype=torch.uint8, device=dev)
        cdst = torch.empty_like(csrc)
        # innermost first: C, W, H, N; out W, H, C, N
        cd = (ctypes.c_ulonglong * 4)(3, w, h, n)
        cp = (ctypes.c_uint * 4)(1, 2, 0, 3)
        for per_channel in (False, True):
            prog = program(per_channel)
            if per_channel:
                m = torch.tensor(MEANS, dtype=torch.float32,
                                 device=dev).view(1, 3, 1, 1)
                s = STD
            else:
                m, s = 127.5, 127.5

            def ours():
                r = lib.ct_permute_arith(x.data_ptr(), out.data_ptr(), cd, cp,
                                         ctypes.byref(prog), None, None)
                if r != 0:
                    raise RuntimeError(lib.ct_result_string(r).decode())

            def theirs():
                return x.permute(0, 3, 1, 2).float().sub_(m).div_(s)

            out.fill_(-7.5)
            ours()
            torch.cuda.synchronize()
            # NNStreamer's steps in float32, a true division (a tensor
            # divisor: PyTorch multiplies by the reciprocal of a scalar)
            mt = (m if torch.is_tensor(m) else
                  torch.tensor([m], dtype=torch.float32, device=dev))
            st = torch.tensor([s], dtype=torch.float32, device=dev)
            want = (x.permute(0, 3, 1, 2).float() + (-mt)) / st
            ok = torch.equal(out, want)
            if not ok:
                failures += 1
            torch_diff = (theirs() - want).abs().max().item()
            copy_us, ours_us, torch_us, write_us = timed_rounds(
                [lambda: cdst.copy_(csrc), ours, theirs,
                 lambda: out_bytes.fill_(0)])
            norm = "per channel" if per_channel else "scalar"
            row = dict(job=label, n=n, h=h, w=w, norm=norm,
                       in_bytes=x.numel(), out_bytes=out.numel() * 4,
                       copy_us=copy_us, ours_us=ours_us, torch_us=torch_us,
                       write_us=write_us,
                       ours_x_copy=copy_us / ours_us,
                       torch_x_copy=copy_us / torch_us,
                       ours_vs_torch=torch_us / ours_us, correct=ok,
                       torch_max_diff=torch_diff)
            rows.append(row)
            print(f"{label:<13} {norm:<11} {copy_us:9.1f} {ours_us:9.1f} "
                  f"{torch_us:9.1f} {row['ours_x_copy']:11.2f} "
                  f"{row['torch_x_copy']:12.2f} {row['ours_vs_torch']:12.2f}x"
                  f"  write {write_us:.1f}  torch off by {torch_diff:.1e}"
                  + ("" if ok else "  MISMATCH"))
            del want
        del x, out, out_bytes, csrc, cdst
        torch.cuda.empty_cache()
    return finish(args.json, timer, rows, failures)


if __name__ == "__main__":
    sys.exit(main())
