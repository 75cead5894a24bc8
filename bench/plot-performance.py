#!/usr/bin/env python3
"""Plots bench-kernels --json output: fraction of copy against plane size,
one panel per element size, one line per variant; or, for the output of
--directions, auto's fraction of copy in each of the eight directions, one
group of bars per job (planes of each element size, I420 frames); or, for
bench-pipelines --json, each system-memory frame's frames/s as a fraction
of the link's bound, and each CUDA-memory frame's element time beside its
kernels' time. With a second bench-kernels file from --latency, auto's
time a call in both modes, and a copy's, for each plane and frame job.
For --odd, auto's fraction of copy per shape (and the peers'), packed and
padded rows apart; a second --odd file (an older build's) adds its auto.
With --vs-videoflip, bench-pipelines' system-memory rows against
videoflip's in frames/s. For bench-tensors.py --json, ct_permute's and
PyTorch's fraction of a copy per job; for bench-preprocess.py --json, the
fused pass's and PyTorch's. For bench-cuda-steps --json, each frame's
steps in CUDA memory (GStreamer's calls, the launch, the wait) beside the
GPU's time and the element's; for bench-decode --json, frames/s in total
by streams for each route and clip (one CUDA context shared). For
bench-peer-rotate --json, each format's GPU time a frame turned 90r in
cudatranspose and in cudaconvertscale, one panel per size, hatched where
the output's bytes differ from videoflip's (a second such file adds its
rows, e.g. formats run apart).

    bench/plot-performance.py BENCH.json OUT.png
    bench/plot-performance.py BENCH.json OUT.png LATENCY.json
    bench/plot-performance.py ODD.json OUT.png [ODD_BEFORE.json]
    bench/plot-performance.py PIPELINES.json OUT.png --vs-videoflip[=CARD]
    bench/plot-performance.py TENSORS.json OUT.png
    bench/plot-performance.py PREPROCESS.json OUT.png
    bench/plot-performance.py CUDA_STEPS.json OUT.png
    bench/plot-performance.py DECODE.json OUT.png [--card=CARD]
    bench/plot-performance.py PEER_ROTATE.json OUT.png [MORE_ROWS.json]

Needs matplotlib (the GPU host has it; Debian: python3-matplotlib)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# every variant in the file, in its order, but these (the seeds that
# only repeat tiled's curve more slowly, and the copy every row is a
# fraction of)
LEFT_OUT = {"naive-column", "rect", "rect-padded", "copy"}
STYLES = {"auto": dict(linewidth=2.5, color="black"),
          "cublasSgeam": dict(linestyle="--"),
          "nppiTranspose": dict(linestyle=":")}


DIRECTIONS = ["ul-lr", "ur-ll", "90r", "90l", "180", "horiz", "vert",
              "identity"]


def plot_directions(data, rows, out):
    """The --directions panel: per job, a bar per direction."""
    jobs = list(dict.fromkeys(r["shape"] for r in rows))
    fig, ax = plt.subplots(figsize=(13, 5))
    width = 0.8 / len(DIRECTIONS)
    for i, d in enumerate(DIRECTIONS):
        vals = []
        for j in jobs:
            hit = [r["copy_fraction"] for r in rows
                   if r["shape"] == j and r["direction"] == d and
                   r["variant"] == "auto"]
            vals.append(hit[0] if hit else 0)
        ax.bar([k + (i - len(DIRECTIONS) / 2 + 0.5) * width
                for k in range(len(jobs))], vals, width, label=d)
    ax.set_xticks(range(len(jobs)))
    ax.set_xticklabels(jobs)
    ax.set_ylabel("fraction of D2D copy (same run)")
    ax.axhline(1.0, color="grey", linewidth=0.5)
    ax.axhline(0.93, color="grey", linewidth=0.5, linestyle="--")
    ax.grid(True, axis="y", linewidth=0.3)
    ax.legend(ncol=8, loc="lower center", fontsize="small")
    ax.set_title(f"cudatranspose auto in every video direction on "
                 f"{data['device']}: median of {data['reps']} runs, L2 cold")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_pipelines(rows, out):
    """bench-pipelines: two panels, system memory against the link, CUDA
    memory against the kernels."""
    def frame(r):
        return f"{r['format']}\n{r['width']}x{r['height']}"

    system = [r for r in rows if r["ok"] and r["path"].endswith(
        "(system memory)") and r.get("link_bound_fps", 0) > 0]
    cuda = [r for r in rows if r["ok"] and r["path"].startswith(
        "cudaupload") and r.get("kernel_us", 0) > 0]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    left.bar(range(len(system)),
             [r["fps"] / r["link_bound_fps"] for r in system])
    left.set_xticks(range(len(system)))
    left.set_xticklabels([frame(r) for r in system], fontsize="small")
    left.axhline(1.0, color="grey", linewidth=0.5)
    left.axhline(0.8, color="grey", linewidth=0.5, linestyle="--")
    left.set_ylabel("frames/s over the link's bound (same run)")
    left.set_title("system memory, pinned: cudatranspose alone")
    left.grid(True, axis="y", linewidth=0.3)
    xs = range(len(cuda))
    right.bar([x - 0.2 for x in xs], [r["own_us"] for r in cuda], 0.4,
              label="element's own time")
    right.bar([x + 0.2 for x in xs], [r["kernel_us"] for r in cuda], 0.4,
              label="kernels alone, same frame")
    right.set_xticks(list(xs))
    right.set_xticklabels([frame(r) for r in cuda], fontsize="small")
    right.set_ylabel("us a frame (median)")
    right.set_title("CUDA memory: cudaupload ! cudatranspose ! cudadownload")
    right.grid(True, axis="y", linewidth=0.3)
    right.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_latency(data, lat, out):
    """auto and the copy, throughput (the GPU's time) beside latency (one
    call launched and waited for), per job of both files."""
    def times(d, variant):
        return {(r["mode"], r["shape"]): r["us"] for r in d["rows"]
                if r["variant"] == variant and r["mode"] in ("plane", "frame")}

    tp, lt = times(data, "auto"), times(lat, "auto")
    tpc, ltc = times(data, "copy"), times(lat, "copy")
    jobs = [k for k in tp if k in lt and k in tpc and k in ltc]
    xs = range(len(jobs))
    fig, ax = plt.subplots(figsize=(max(13, len(jobs) * 0.35), 5))
    for off, vals, label in ((-0.3, [tp[k] for k in jobs], "auto, GPU time"),
                             (-0.1, [lt[k] for k in jobs], "auto, a call"),
                             (0.1, [tpc[k] for k in jobs], "copy, GPU time"),
                             (0.3, [ltc[k] for k in jobs], "copy, a call")):
        ax.bar([x + off for x in xs], vals, 0.2, label=label)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([s for _, s in jobs], rotation=90, fontsize="x-small")
    ax.set_yscale("log")
    ax.set_ylabel("us (median)")
    ax.grid(True, axis="y", which="both", linewidth=0.3)
    ax.legend(fontsize="small")
    ax.set_title(f"throughput against latency on {data['device']}: median "
                 f"of {data['reps']} runs, L2 cold")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_vs_videoflip(rows, out, device):
    """bench-pipelines with videoflip rows: frames/s of cudatranspose in
    system memory and of videoflip, per format and size, and the ratio."""
    def key(r):
        return (r["format"], r["width"], r["height"])

    ours = {key(r): r["fps"] for r in rows if r["ok"] and
            r["path"].endswith("(system memory)")}
    theirs = {key(r): r["fps"] for r in rows if r["ok"] and
              r["path"].startswith("videoflip")}
    frames = [k for k in ours if k in theirs]
    xs = range(len(frames))
    fig, ax = plt.subplots(figsize=(max(10, len(frames) * 0.9), 5))
    ax.bar([x - 0.2 for x in xs], [ours[k] for k in frames], 0.4,
           label="cudatranspose (system memory in and out)")
    ax.bar([x + 0.2 for x in xs], [theirs[k] for k in frames], 0.4,
           label="videoflip video-direction=ul-lr")
    for x, k in zip(xs, frames):
        ratio = ours[k] / theirs[k]
        ax.annotate(f"{ratio:.1f}x" if ratio < 10 else f"{ratio:.0f}x",
                    (x - 0.2, ours[k]), ha="center", va="bottom",
                    fontsize="small")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{f}\n{w}x{h}" for f, w, h in frames],
                       fontsize="small")
    ax.set_yscale("log")
    ax.set_ylabel("frames/s (log)")
    ax.grid(True, axis="y", which="both", linewidth=0.3)
    ax.legend(fontsize="small")
    ax.set_title(f"cudatranspose against videoflip, whole pipelines from "
                 f"appsrc,\non {device}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_cuda_steps(data, out):
    """bench-cuda-steps --json: per frame, its steps' medians stacked
    (GStreamer's calls, the launch, the wait), the GPU's time of the
    launch, and the element's whole time a buffer."""
    rows = data["rows"]
    gst = ("acquire", "metadata", "map", "push", "pop", "unmap", "release")
    xs = range(len(rows))
    calls = [sum(r["steps"][k] for k in gst) for r in rows]
    launch = [r["steps"]["launch"] for r in rows]
    wait = [r["steps"]["sync"] for r in rows]
    fig, ax = plt.subplots(figsize=(max(9, len(rows) * 1.4), 5))
    ax.bar([x - 0.2 for x in xs], calls, 0.4, label="GStreamer's calls")
    ax.bar([x - 0.2 for x in xs], launch, 0.4, bottom=calls,
           label="launch (the call)")
    ax.bar([x - 0.2 for x in xs], wait, 0.4,
           bottom=[a + b for a, b in zip(calls, launch)],
           label="wait (sync)")
    ax.bar([x + 0.2 for x in xs], [r["gpu_us"] for r in rows], 0.4,
           label="GPU time of the launch", color="grey")
    ax.scatter(list(xs), [r["element_us"] for r in rows], marker="_", s=900,
               color="black", zorder=3, label="the element, a buffer")
    for x, r in zip(xs, rows):
        ax.annotate(f"{r['element_us'] / r['gpu_us']:.2f}x",
                    (x, r["element_us"]), ha="center", va="bottom",
                    fontsize="small")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{r['format']}\n{r['width']}x{r['height']}"
                        for r in rows], fontsize="small")
    ax.set_ylabel("us a frame (median)")
    ax.set_ylim(0, 1.35 * max(r["element_us"] for r in rows))
    ax.grid(True, axis="y", linewidth=0.3)
    ax.legend(fontsize="small", loc="upper left", ncol=3)
    ax.set_title(f"cudatranspose in CUDA memory: where a frame's time "
                 f"goes\n(the element over the GPU's time above each), on "
                 f"{data['device']}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_decode(rows, out, device):
    """bench-decode --json: total frames/s by number of streams, one group
    of bars per route, one panel per clip; one CUDA context shared."""
    names = {"decode": "decode alone",
             "cuda": "cudatranspose in CUDA memory",
             "cpu": "cudadownload ! videoflip"}
    rows = [r for r in rows if r["ok"] and r.get("context") == "shared"]
    clips = list(dict.fromkeys((r["width"], r["height"]) for r in rows))
    routes = [k for k in names if any(r["route"] == k for r in rows)]
    fig, axes = plt.subplots(1, len(clips), figsize=(6 * len(clips), 5),
                             squeeze=False)
    for ax, (w, h) in zip(axes[0], clips):
        mine = [r for r in rows if (r["width"], r["height"]) == (w, h)]
        counts = sorted({r["streams"] for r in mine})
        step = 0.8 / max(1, len(routes))
        for i, route in enumerate(routes):
            fps = {r["streams"]: r["fps_total"] for r in mine
                   if r["route"] == route}
            ax.bar([c + (i - (len(routes) - 1) / 2) * step
                    for c in range(len(counts))],
                   [fps.get(n, 0) for n in counts], step,
                   label=names[route])
        ax.set_xticks(range(len(counts)))
        ax.set_xticklabels([f"{n} stream{'s' if n > 1 else ''}"
                            for n in counts])
        ax.set_yscale("log")
        ax.set_ylabel("frames/s, all streams (log)")
        ax.grid(True, axis="y", which="both", linewidth=0.3)
        ax.set_title(f"{w}x{h} H.264")
        ax.legend(fontsize="small")
    fig.suptitle(f"nvh264dec, then turned 90 degrees, on {device}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_against_torch(rows, labels, ours, theirs, ylabel, title, out,
                       width_per_row):
    """Ours and PyTorch's fraction of a copy, two bars per row."""
    xs = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(10, len(rows) * width_per_row), 5.5))
    ax.bar([x - 0.2 for x in xs], [r["ours_x_copy"] for r in rows], 0.4,
           label=ours)
    ax.bar([x + 0.2 for x in xs], [r["torch_x_copy"] for r in rows], 0.4,
           label=theirs)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize="x-small")
    ax.axhline(1.0, color="grey", linewidth=0.5)
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", linewidth=0.3)
    ax.legend(fontsize="small")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_tensors(data, out):
    """bench-tensors.py: ct_permute's and PyTorch's fraction of a copy of
    the same bytes, per tensor job, type and direction."""
    rows = data["rows"]
    plot_against_torch(
        rows, [f"{r['job']}\n{r['type']} {r['direction']}" for r in rows],
        "cudatranspose (ct_permute)", "PyTorch x.permute(...).contiguous()",
        "fraction of a device copy (same run)",
        f"tensor layouts against PyTorch {data['torch']} on "
        f"{data['device']}: median of {data['reps']} runs, L2 cold", out, 0.8)


def plot_preprocess(data, out):
    """bench-preprocess.py: the fused pass's and PyTorch's fraction of a
    copy moving the same bytes, per job, scalar and per-channel
    normalization."""
    rows = data["rows"]
    plot_against_torch(
        rows, [f"{r['job']}\n{r['norm']}" for r in rows],
        "cudatranspose arithmetic= (one pass)",
        "PyTorch x.permute(0,3,1,2).float().sub_(m).div_(s)",
        "fraction of a device copy of the same bytes (same run)",
        f"uint8 HWC to normalized float32 CHW against PyTorch "
        f"{data['torch']}\non {data['device']}: median of "
        f"{data['reps']} rounds, L2 cold", out, 0.7)


def plot_odd(data, rows, out, before=None):
    """--odd: auto's fraction of copy per shape, rows packed ("tight") and
    padded ("odd") side by side, with the peers', and with BEFORE (a
    second --odd file: an older build's) auto's beside it."""
    def auto(d):
        return {(r["mode"], r["shape"]): r["copy_fraction"] for r in d
                if r["variant"] == "auto"}

    now = auto(rows)
    old = auto(before["rows"]) if before else {}
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), sharey=True)
    for ax, mode, title in ((axes[0], "tight", "rows packed (a tensor's)"),
                            (axes[1], "odd", "rows padded to 16 bytes")):
        series = []
        if old:
            series.append(("auto, before", [old.get((mode, s), 0)
                                             for s in shapes]))
        series.append(("auto", [now.get((mode, s), 0) for s in shapes]))
        for peer in ("cublasSgeam", "nppiTranspose"):
            vals = {r["shape"]: r["copy_fraction"] for r in rows
                    if r["mode"] == mode and r["variant"] == peer}
            if vals:
                series.append((peer, [vals.get(s, 0) for s in shapes]))
        width = 0.8 / len(series)
        for i, (label, vals) in enumerate(series):
            ax.bar([x + (i - (len(series) - 1) / 2) * width
                    for x in range(len(shapes))], vals, width, label=label)
        ax.set_xticks(list(range(len(shapes))))
        ax.set_xticklabels(shapes, rotation=60, fontsize="small", ha="right")
        ax.axhline(1.0, color="grey", linewidth=0.5)
        ax.grid(True, axis="y", linewidth=0.3)
        ax.set_title(title)
    axes[0].set_ylabel("fraction of D2D copy (same run)")
    axes[0].legend(fontsize="small")
    fig.suptitle(f"odd and misaligned shapes on {data['device']}: median of "
                 f"{data['reps']} runs, L2 cold")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_peer_rotate(data, out, more=()):
    rows = [r for r in list(data["rows"]) + list(more)
            if r["direction"] == "90r"]
    sizes = list(dict.fromkeys((r["width"], r["height"]) for r in rows))
    elements = ["cudatranspose", "cudaconvertscale"]
    fig, axes = plt.subplots(len(sizes), 1, figsize=(13, 3.6 * len(sizes)),
                             squeeze=False)
    for ax, (w, h) in zip(axes[:, 0], sizes):
        at = [r for r in rows if (r["width"], r["height"]) == (w, h)]
        formats = list(dict.fromkeys(r["format"] for r in at))
        for k, name in enumerate(elements):
            for i, fmt in enumerate(formats):
                r = next((r for r in at if r["format"] == fmt and
                          r["element"] == name), None)
                if r is None:
                    continue
                diff = r["differing_bytes"]
                ax.bar(i + (k - 0.5) * 0.4, r["gpu_us"], 0.4,
                       color=f"C{k}", label=name if i == 0 else None,
                       hatch="//" if diff > 0 else ".." if diff < 0 else None,
                       edgecolor="black" if diff != 0 else None)
        ax.set_xticks(range(len(formats)))
        ax.set_xticklabels(formats, rotation=45, ha="right", fontsize=8)
        ax.set_ylabel("GPU us a frame")
        ax.set_title(f"{w}x{h}, 90r: kernels' GPU time a frame (//: bytes "
                     "differ from videoflip's; ..: videoflip lacks the "
                     "format)", fontsize=10)
        ax.legend(fontsize=8)
    fig.suptitle(f"Rotation in CUDA memory, {data['device']}, GStreamer "
                 f"{data['gstreamer']}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    if isinstance(data, list) and data and "route" in data[0]:
        card = (sys.argv[3].partition("=")[2] if len(sys.argv) == 4 and
                sys.argv[3].startswith("--card") else "") or "this machine"
        plot_decode(data, sys.argv[2], card)
        return
    if isinstance(data, dict) and data.get("rows") and \
            "differing_bytes" in data["rows"][0]:
        more = []
        if len(sys.argv) == 4:
            with open(sys.argv[3]) as f:
                more = json.load(f)["rows"]
        plot_peer_rotate(data, sys.argv[2], more)
        return
    if isinstance(data, dict) and data.get("rows") and \
            "steps" in data["rows"][0]:
        plot_cuda_steps(data, sys.argv[2])
        return
    if isinstance(data, list):
        if len(sys.argv) == 4 and sys.argv[3].startswith("--vs-videoflip"):
            device = sys.argv[3].partition("=")[2] or "this machine"
            plot_vs_videoflip(data, sys.argv[2], device)
        else:
            plot_pipelines(data, sys.argv[2])
        return
    if "torch" in data and data["rows"] and "norm" in data["rows"][0]:
        plot_preprocess(data, sys.argv[2])
        return
    if "torch" in data:
        plot_tensors(data, sys.argv[2])
        return
    odd = ([r for r in data["rows"] if r["mode"] in ("odd", "tight")]
           if isinstance(data, dict) else [])
    if odd:
        before = None
        if len(sys.argv) == 4:
            with open(sys.argv[3]) as f:
                before = json.load(f)
        plot_odd(data, odd, sys.argv[2], before)
        return
    if len(sys.argv) == 4:
        with open(sys.argv[3]) as f:
            plot_latency(data, json.load(f), sys.argv[2])
        return
    dirs = [r for r in data["rows"] if r["mode"] == "dir"]
    if dirs:
        plot_directions(data, dirs, sys.argv[2])
        return
    rows = [r for r in data["rows"] if r["mode"] == "plane"]
    sizes = sorted({r["elem_size"] for r in rows})
    variants = [v for v in dict.fromkeys(r["variant"] for r in rows)
                if v not in LEFT_OUT]
    fig, grid = plt.subplots(2, 3, figsize=(13, 8), sharey=True)
    axes = grid.flat
    for ax, es in zip(axes, sizes):
        for v in variants:
            pts = sorted((r["payload_bytes"], r["copy_fraction"], r["shape"])
                         for r in rows
                         if r["elem_size"] == es and r["variant"] == v)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                        markersize=3, label=v, **STYLES.get(v, {}))
        ax.set_xscale("log")
        ax.set_title(f"{es}-byte elements")
        ax.set_xlabel("plane payload (bytes)")
        ax.axhline(1.0, color="grey", linewidth=0.5)
        ax.grid(True, which="both", linewidth=0.3)
    handles = {}
    for ax in grid.flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
        ax.set_ylabel("fraction of D2D copy (same run)")
    legend_ax = grid.flat[len(sizes)]
    legend_ax.axis("off")
    legend_ax.legend(handles.values(), handles.keys(), loc="center")
    fig.suptitle(f"cudatranspose on {data['device']}: median of "
                 f"{data['reps']} runs, L2 cold")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
