#!/usr/bin/env python3
"""Old against new, row by row, from the --json files of the same bench run
on one card: bench-kernels (time a call, lower is better), bench-pipelines
(frames/s, higher is better, and the element's own time) or bench-tensors
(time, lower is better). Each side may hold several rounds (files); a row's
figure is the mean of its rounds, and its spread across rounds is shown so
that noise reads as noise.

    bench/compare-runs.py OLD.json [OLD2.json ...] -- NEW.json [NEW2.json ...]

Prints, per bench, the median and range of new/old (as "slower by": >1 is
slower, whatever the unit) and every row slower than the threshold (3%,
or --limit 0.05), with both sides' rounds. Exit status 0 always: a table
is a place to look, not a verdict."""
import json
import statistics
import sys


def load(path):
    with open(path) as f:
        text = f.read()
    if not text.strip():
        print(f"({path}: empty, left out)")
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        # bench-pipelines writes its rows as they come: a run cut short
        # leaves the list open
        data = json.loads(text.rstrip().rstrip(",") + "\n]")
        print(f"({path}: cut short, {len(data)} rows read)")
    if isinstance(data, list):
        return "pipelines", {
            (r["format"], r["width"], r["height"], r["path"]): r
            for r in data if r.get("ok")}
    rows = data["rows"]
    if rows and "job" in rows[0]:
        return "tensors", {(r["job"], r["type"], r["direction"]): r
                           for r in rows}
    return "kernels", {(r["mode"], r["shape"], r["variant"],
                        r.get("direction", "")): r for r in rows}


# per bench: (field, True if higher is better)
FIGURES = {"kernels": [("us", False)],
           "tensors": [("ours_us", False)],
           "pipelines": [("fps", True), ("own_us", False)]}


def slower(old, new, higher_better):
    return old / new if higher_better else new / old


def main():
    args = sys.argv[1:]
    limit = 0.03
    if "--limit" in args:
        i = args.index("--limit")
        limit = float(args[i + 1])
        del args[i:i + 2]
    if "--" not in args:
        sys.exit(__doc__)
    cut = args.index("--")
    olds, news = args[:cut], args[cut + 1:]
    if not olds or not news:
        sys.exit(__doc__)
    old = [x for x in map(load, olds) if x]
    new = [x for x in map(load, news) if x]
    if not old or not new:
        sys.exit("nothing to compare")
    kind = new[0][0]
    if any(k != kind for k, _ in old + new):
        sys.exit("the files are not all from the same bench")
    for field, higher in FIGURES[kind]:
        table = []
        for key in new[0][1]:
            o = [rows[key][field] for _, rows in old if key in rows]
            n = [rows[key][field] for _, rows in new if key in rows]
            if not o or not n or min(o + n) <= 0:
                continue
            if kind == "kernels" and key[2] == "copy":
                continue
            table.append((slower(statistics.mean(o), statistics.mean(n),
                                 higher), key, o, n))
        if not table:
            print(f"{kind} {field}: no row on both sides")
            continue
        table.sort(key=lambda t: t[0])
        ratios = [t[0] for t in table]
        over = [t for t in table if t[0] > 1 + limit]
        print(f"{kind} {field} ({len(olds)} old, {len(news)} new rounds): "
              f"{len(table)} rows, new slower by x{statistics.median(ratios):.3f}"
              f" (median), x{ratios[0]:.3f} to x{ratios[-1]:.3f}; "
              f"{len(over)} rows slower by more than {limit:.0%}")
        for r, key, o, n in over:
            print(f"  x{r:.3f} {' '.join(str(k) for k in key)}: old "
                  f"{', '.join(f'{v:.2f}' for v in o)}; new "
                  f"{', '.join(f'{v:.2f}' for v in n)}")
    if kind == "kernels":
        wrong = [k for _, rows in new for k, r in rows.items()
                 if not r.get("correct", True)]
        if wrong:
            print(f"  WRONG in the new runs: {wrong}")


if __name__ == "__main__":
    main()
