#!/usr/bin/env python3
"""A decoder's YUV frame to a network's input in one pass: ct_yuv_to_tensor
against the two passes it replaces, PyTorch and a copy.

    bench/bench-yuv-tensor.py BUILD/bench/libcudatranspose-bench.so
        [--json FILE] [--reps N] [--turns 90r,horiz,...] [--layout hwc]
        [--type uint8] [--formats NV12,I420,P010,Y444,I422_10]

Each row turns a YUV frame (NV12, I420 or P010 by default; Y444 and
I422_10 (I422_10LE) with --formats; BT.709 limited range,
chroma left-sited as decoders give it) into RGB normalized to float32 CHW
(typecast:float32,add:-127.5,div:127.5), timed in one process on the same
(default) stream (with --layout hwc, into HWC instead, NNStreamer's
3:W:H:1, the element's permutation=0:1:2:3: each pixel's R, G and B side
by side; with --type uint8, into the element's default type instead: RGB
as converted, no arithmetic):
  - copy: a device-to-device copy moving as many bytes as the pass reads
    and writes together ((input + output) / 2 bytes copied);
  - ours: ct_yuv_to_tensor, the one pass, through ctypes;
  - two passes: ct_yuv_to_rgb into packed RGB, then ct_permute_arith (what
    the element ran before the one pass);
  - PyTorch: the same conversion written as tensor operations (chroma
    repeated to every pixel, the BT.709 limited-range matrix in float32,
    clamped, normalized, stacked as CHW): what a user without this element
    writes. Its values follow the textbook formula, not videoconvert's
    integer one, so the row says by how much they differ, not that they
    are equal.
With --turns, each frame also goes through the one pass turned by those
video directions (a phone's portrait clip made upright on the way): its
row times ours turned against the copy and PyTorch's conversion followed
by the same turn (flips and a transpose, made contiguous), and checks it
against the unturned output turned by PyTorch.
Each is the median of --reps rounds after warm-up, with CUDA events, the
L2 cache flushed before every run (torch_timing.Timer). Ours must equal
the two passes byte for byte, but for P010 and I422_10LE, which keep
their 16-bit precision into float32 (within two 8-bit levels of the two
passes, which cut it to 8 bits, through a matrix of their own rounding). Ratios are
against the copy.
"""
import argparse
import ctypes
import sys

import torch

from torch_timing import Arith, Op, Timer, finish, open_lib

CT_YUV = {"I420": 0, "NV12": 2, "P010": 4, "I422_10": 8, "Y444": 9}
# each format's chroma subsampling (as shifts along x and y), bytes a
# sample, and whether its chroma is planar
LAYOUT = {"I420": (1, 1, 1, True), "NV12": (1, 1, 1, False),
          "P010": (1, 1, 2, False), "I422_10": (1, 0, 2, True),
          "Y444": (0, 0, 1, True)}
CT_YUV_BT709 = 1
CT_YUV_CHROMA_H_COSITED = 2
CT_TYPE_UINT8 = 1
CT_TYPE_FLOAT32 = 8
ADD, DIV = 0, 2

SIZES = [(1080, 1920), (2160, 3840)]

# video-direction's values as the kernels' CtMapping: bit 4 keeps the
# axes, bit 1 mirrors the output's columns, bit 2 its rows
MAPPING = {"ul-lr": 0, "90r": 1, "90l": 2, "ur-ll": 3, "identity": 4,
           "horiz": 5, "vert": 6, "180": 7}


class Frame(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("matrix", ctypes.c_int),
                ("flags", ctypes.c_uint), ("width", ctypes.c_uint),
                ("height", ctypes.c_uint), ("planes", ctypes.c_void_p * 3),
                ("strides", ctypes.c_size_t * 3)]



def normalize():
    a = Arith(CT_TYPE_UINT8, CT_TYPE_FLOAT32, 0, 2)
    a.ops[0] = Op(ADD, -1, 1, 0, -127.5)
    a.ops[1] = Op(DIV, -1, 1, 0, 127.5)
    return a


def frame_bytes(fmt, h, w):
    """The bytes of a @w x @h frame of @fmt, rows dense."""
    hs, vs, s, _ = LAYOUT[fmt]
    return (w * h + 2 * (w >> hs) * (h >> vs)) * s


def frame_of(fmt, h, w, buf):
    """The frame's planes in @buf (dense rows), as ct_yuv_* take them."""
    f = Frame(CT_YUV[fmt], CT_YUV_BT709, CT_YUV_CHROMA_H_COSITED, w, h)
    base = buf.data_ptr()
    hs, vs, s, planar = LAYOUT[fmt]
    cw, ch = w >> hs, h >> vs
    f.planes[0], f.strides[0] = base, w * s
    if planar:
        f.planes[1], f.strides[1] = base + w * h * s, cw * s
        f.planes[2], f.strides[2] = base + (w * h + cw * ch) * s, cw * s
    else:
        f.planes[1], f.strides[1] = base + w * h * s, 2 * cw * s
    return f


def torch_pass(fmt, h, w, buf, u8=False):
    """YUV to normalized CHW float32 in PyTorch (with @u8, to uint8 RGB):
    BT.709 limited range, chroma repeated (nearest), the textbook
    formula."""
    hs, vs, s, planar = LAYOUT[fmt]
    cw, ch = w >> hs, h >> vs
    if s == 2:
        # 8 bits of the 16: P010's top ones, I422_10LE's low 10 bits' top
        v16 = buf.view(torch.int16).to(torch.int32) & 0xffff
        v8 = (v16 >> 8) if fmt == "P010" else ((v16 & 0x3ff) >> 2)
    else:
        v8 = buf
    y = v8[:h * w].view(h, w).float()
    if planar:
        q = cw * ch
        u = v8[h * w:h * w + q].view(ch, cw).float()
        v = v8[h * w + q:h * w + 2 * q].view(ch, cw).float()
    else:
        uv = v8[h * w:h * w + 2 * cw * ch].view(ch, cw, 2).float()
        u, v = uv[..., 0], uv[..., 1]
    u = u.repeat_interleave(1 << vs, 0).repeat_interleave(1 << hs, 1) - 128.0
    v = v.repeat_interleave(1 << vs, 0).repeat_interleave(1 << hs, 1) - 128.0
    yy = (y - 16.0) * 1.164383
    r = yy + 1.792741 * v
    g = yy - 0.213249 * u - 0.532909 * v
    b = yy + 2.112402 * u
    rgb = torch.stack((r, g, b)).clamp_(0.0, 255.0).round_()
    return rgb.to(torch.uint8) if u8 else rgb.sub_(127.5).div_(127.5)


def turned(chw, mapping):
    """The CHW tensor @chw as the frame turned by @mapping gives it."""
    t = chw if mapping & 4 else chw.transpose(1, 2)
    if mapping & 1:
        t = t.flip(2)
    if mapping & 2:
        t = t.flip(1)
    return t.contiguous()


def as_chw(t, hwc):
    """A CHW view of tensor @t, HWC where @hwc."""
    return t.permute(2, 0, 1) if hwc else t


def laid_out(chw, hwc):
    """CHW tensor @chw laid out as HWC where @hwc, contiguous."""
    return (chw.permute(1, 2, 0) if hwc else chw).contiguous()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib")
    ap.add_argument("--json")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--turns", default="",
                    help="video directions to time besides identity, "
                    "comma-separated (90r, 180, 90l, horiz, vert, ul-lr, "
                    "ur-ll)")
    ap.add_argument("--layout", choices=("chw", "hwc"), default="chw",
                    help="the tensor's layout: CHW (a network's input "
                    "and the element's default, the default) or HWC "
                    "(the element's permutation=0:1:2:3)")
    ap.add_argument("--type", choices=("float32", "uint8"),
                    default="float32",
                    help="the tensor's type: float32 normalized (the "
                    "default) or uint8 as converted (no arithmetic)")
    ap.add_argument("--formats", default="NV12,I420,P010",
                    help="the frames' formats, comma-separated: NV12, "
                    "I420, P010 (the default), Y444, I422_10")
    args = ap.parse_args()
    formats = [f for f in args.formats.split(",") if f]
    for fmt in formats:
        if fmt not in CT_YUV:
            ap.error(f"--formats: {fmt} is not one of "
                     f"{', '.join(CT_YUV)}")
    hwc = args.layout == "hwc"
    u8 = args.type == "uint8"
    turns = [t for t in args.turns.split(",") if t]
    for t in turns:
        if t not in MAPPING:
            ap.error(f"--turns: {t} is not a video direction")

    lib = open_lib(args.lib)
    lib.ct_yuv_to_tensor.argtypes = [
        ctypes.POINTER(Frame), ctypes.c_int, ctypes.c_int,
        ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(Arith),
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.ct_yuv_to_rgb.argtypes = [ctypes.POINTER(Frame), ctypes.c_void_p,
                                  ctypes.c_size_t, ctypes.c_int,
                                  ctypes.c_void_p]
    lib.ct_permute.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_ulonglong),
        ctypes.c_uint, ctypes.POINTER(ctypes.c_uint), ctypes.c_void_p]
    lib.ct_permute_arith.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_ulonglong),
        ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(Arith), ctypes.c_void_p,
        ctypes.c_void_p]

    timer = Timer(args.reps)
    dev, props = timer.dev, timer.props
    print(f"device: {props.name}; PyTorch {torch.__version__}; median of "
          f"{args.reps} runs, L2 flushed before each")
    print(f"{'frame':<17} {'copy us':>8} {'ours us':>8} {'2-pass us':>9} "
          f"{'torch us':>9} {'ours x copy':>11} {'2-pass x copy':>13} "
          f"{'ours vs torch':>13}")
    prog = None if u8 else normalize()
    out_type, value_size = (torch.uint8, 1) if u8 else (torch.float32, 4)
    # (the permutation into the layout; the tensors below are CHW views)
    chw = (ctypes.c_uint * 4)(0, 1, 2, 3) if hwc else \
        (ctypes.c_uint * 4)(1, 2, 0, 3)
    rows, failures = [], 0
    for fmt, (h, w) in ((f, hw) for f in formats for hw in SIZES):
        deep = LAYOUT[fmt][2] == 2
        in_bytes = frame_bytes(fmt, h, w)
        buf = torch.randint(0, 256, (in_bytes,), dtype=torch.uint8,
                            device=dev)
        f = frame_of(fmt, h, w, buf)
        out = as_chw(torch.empty((h, w, 3) if hwc else (3, h, w),
                                 dtype=out_type, device=dev), hwc)
        two = torch.empty_like(out)
        rgb = torch.empty((h, w, 3), dtype=torch.uint8, device=dev)
        dims = (ctypes.c_ulonglong * 4)(3, w, h, 1)
        half = (in_bytes + out.numel() * value_size) // 2
        csrc = torch.empty(half, dtype=torch.uint8, device=dev)
        cdst = torch.empty_like(csrc)

        def check(r):
            if r != 0:
                raise RuntimeError(lib.ct_result_string(r).decode())

        def ours(mapping=MAPPING["identity"], dst=out):
            check(lib.ct_yuv_to_tensor(ctypes.byref(f), 0, mapping, chw,
                                       prog and ctypes.byref(prog),
                                       dst.data_ptr(),
                                       None, None))

        def two_pass():
            check(lib.ct_yuv_to_rgb(ctypes.byref(f), rgb.data_ptr(), w * 3,
                                    0, None))
            if u8:
                check(lib.ct_permute(rgb.data_ptr(), two.data_ptr(), dims, 1,
                                     chw, None))
            else:
                check(lib.ct_permute_arith(rgb.data_ptr(), two.data_ptr(),
                                           dims, chw, ctypes.byref(prog),
                                           None, None))

        def theirs():
            return laid_out(torch_pass(fmt, h, w, buf, u8), hwc)

        out.fill_(77 if u8 else -7.5)
        two.fill_(177 if u8 else 7.5)
        ours()
        two_pass()
        torch.cuda.synchronize()
        # P010 and I422_10LE into float32 keep their 16-bit precision
        # (videoconvert's ARGB64 / 257), where the two passes cut it to 8
        # bits: within two
        # levels of them (the two matrices round apart), not equal
        # (uint8: both cut to 8 bits, equal)
        scale = 1.0 if u8 else 127.5
        two_diff = (out.float() - two.float()).abs().max().item() * scale
        ok = two_diff <= 2.0 if deep and not u8 else \
            torch.equal(out, two)
        failures += 0 if ok else 1
        diff = (as_chw(theirs(), hwc).float() - out.float()).abs().max() \
            .item() * scale
        copy_us, ours_us, two_us, torch_us = timer.rounds(
            [lambda: cdst.copy_(csrc), ours, two_pass, theirs])
        label = f"{fmt} {h}p" + (" HWC" if hwc else "") + \
            (" u8" if u8 else "")
        row = dict(frame=label, format=fmt, h=h, w=w, in_bytes=in_bytes,
                   out_bytes=out.numel() * value_size, copy_us=copy_us,
                   ours_us=ours_us, two_pass_us=two_us, torch_us=torch_us,
                   ours_x_copy=copy_us / ours_us,
                   two_pass_x_copy=copy_us / two_us,
                   ours_vs_torch=torch_us / ours_us, correct=ok,
                   two_pass_max_diff_levels=two_diff,
                   torch_max_diff_levels=diff)
        rows.append(row)
        print(f"{label:<17} {copy_us:8.1f} {ours_us:8.1f} {two_us:9.1f} "
              f"{torch_us:9.1f} {row['ours_x_copy']:11.2f} "
              f"{row['two_pass_x_copy']:13.2f} {row['ours_vs_torch']:12.2f}x"
              f"  torch differs by up to {diff:.1f} levels"
              + (f"  (16-bit: {two_diff:.2f} levels from the 8-bit two "
                 "passes)" if deep and not u8 else "")
              + ("" if ok else "  MISMATCH with the two passes"))
        for name in turns:
            m = MAPPING[name]
            dst = as_chw(laid_out(torch.full_like(
                out if m & 4 else out.transpose(1, 2),
                77 if u8 else -7.5), hwc), hwc)
            ours(m, dst)
            torch.cuda.synchronize()
            ok = torch.equal(dst, turned(out, m))
            failures += 0 if ok else 1
            turn_us, turn_torch_us = timer.rounds(
                [lambda: ours(m, dst),
                 lambda: laid_out(turned(torch_pass(fmt, h, w, buf, u8), m),
                                  hwc)])
            tlabel = f"{label} {name}"
            row = dict(frame=tlabel, format=fmt, h=h, w=w, turn=name,
                       in_bytes=in_bytes, out_bytes=out.numel() * value_size,
                       copy_us=copy_us, ours_us=turn_us,
                       torch_us=turn_torch_us,
                       ours_x_copy=copy_us / turn_us,
                       ours_vs_torch=turn_torch_us / turn_us, correct=ok)
            rows.append(row)
            print(f"{tlabel:<17} {copy_us:8.1f} {turn_us:8.1f} {'-':>9} "
                  f"{turn_torch_us:9.1f} {row['ours_x_copy']:11.2f} "
                  f"{'-':>13} {row['ours_vs_torch']:12.2f}x"
                  + ("" if ok else "  MISMATCH with the unturned output "
                     "turned"))
            del dst
        del buf, out, two, rgb, csrc, cdst
        torch.cuda.empty_cache()
    return finish(args.json, timer, rows, failures)


if __name__ == "__main__":
    sys.exit(main())
