#!/usr/bin/env python3
"""Plots bench-kernels --json output: fraction of copy against plane size,
one panel per element size, one line per variant.

    bench/plot-performance.py BENCH.json OUT.png

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


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
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
