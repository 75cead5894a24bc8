#!/bin/bash
# On the lent GPU host: the 4K byte plane's paths, timed, then the kernel
# test. Usage, from the repository root:
#
#   tools/try-4k.sh BUILD_DIR
#
# BUILD_DIR configured with the benchmarks (meson setup BUILD_DIR
# -Dgpu_archs=90 -Dbench=enabled; carry it along). bench-kernels --force
# times the copy, auto and each path forced on 3840x2160 1-byte (the plane
# in question), 1920x1080 and 7680x4320 1-byte and 3840x2160 2-byte (no
# slower elsewhere), every path the planner has on 3840x2160 1-byte, then
# test-kernels' paths group and the whole test. Logs go to $OUT (or
# /tmp/out); a short table comes last: each plane's copy time and each
# path's fraction of it (higher is faster; auto's path in brackets).
set -u
b=${1:-build}
out=${OUT:-/tmp/out}
bench=$b/bench/bench-kernels
test=$b/tests/kernels/test-kernels
paths=tile-128,tile-128-lines,stream,small-tile,wide,wide-swizzle
mkdir -p "$out"
if [ ! -x "$bench" ] || [ ! -x "$test" ]; then
  echo "no $bench or $test: meson setup $b -Dgpu_archs=90 -Dbench=enabled"
  exit 2
fi
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader

rc_bench=0
: > "$out/force.log"
for shape in "3840 2160 1" "1920 1080 1" "7680 4320 1" "3840 2160 2"; do
  # shellcheck disable=SC2086
  "$bench" --reps 100 --force "$paths" $shape >> "$out/force.log" 2>&1 ||
    rc_bench=1
done
"$bench" --reps 100 --force all 3840 2160 1 > "$out/force-all.log" 2>&1 ||
  rc_bench=1
cat "$out/force.log" "$out/force-all.log"

"$test" 0 paths > "$out/test-paths.log" 2>&1
rc_paths=$?
grep -E "FAIL|^paths:" "$out/test-paths.log" | head -20
"$test" > "$out/test-kernels.log" 2>&1
rc_all=$?
grep -E "FAIL|passed" "$out/test-kernels.log" | tail -20

echo
echo "== fraction of copy (copy in us; higher is faster; - refused)"
awk '$1 == "force" && $4 != "" {
    plane = $2 " " $3
    if (!(plane in seen)) { seen[plane] = 1; planes[++np] = plane }
    if ($4 == "copy") { if (!(plane in copy)) copy[plane] = $5; next }
    if (!($4 in col)) { col[$4] = 1; cols[++nc] = $4 }
    v = ($5 == "-") ? "-" : $6
    if ($4 == "auto") v = v "(" $7 ")"
    if (!((plane, $4) in cell)) cell[plane, $4] = v
  }
  END {
    for (c = 1; c <= nc; c++)
      w[c] = cols[c] == "auto" ? 20 : length (cols[c]) < 6 ? 6 : length (cols[c])
    printf "%-14s %7s", "plane", "copy"
    for (c = 1; c <= nc; c++) printf " %*s", w[c], cols[c]
    printf "\n"
    for (p = 1; p <= np; p++) {
      printf "%-14s %7s", planes[p], copy[planes[p]]
      for (c = 1; c <= nc; c++) {
        k = (planes[p] SUBSEP cols[c])
        printf " %*s", w[c], (k in cell) ? cell[k] : ""
      }
      printf "\n"
    }
  }' "$out/force.log" "$out/force-all.log"
echo "== bench rc=$rc_bench (1: a wrong output or error, see $out/force*.log);" \
  "test-kernels 0 paths rc=$rc_paths; test-kernels rc=$rc_all (77: no GPU)"
