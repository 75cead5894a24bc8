#!/bin/bash
# On the lent GPU host (no GStreamer there): the whole suite from a build
# made here, then compute-sanitizer on the kernel API test, then the kernel
# benchmark. Prints a short table last. Usage, from the repository root:
#
#   tests/gpu-host.sh BUILD_DIR
#
# with .gpu (see ../shared/gpu/README.md) and BUILD_DIR carried along.
set -u
b=${1:-build-gpu}
out=${OUT:-/tmp/out}
mkdir -p "$out"
source .gpu/enter.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader

meson test -C "$b" --no-rebuild --print-errorlogs > "$out/meson-test.log" 2>&1
suite=$?
grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):" "$out/meson-test.log"
[ $suite -eq 0 ] || grep -E "^\.\./|FAIL|error" "$out/meson-test.log" | head -40

GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry.bin \
  pipelines/png-demo.sh "$out/demo" 2>&1 | tail -n 1

for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 99 \
    "$b/tests/kernels/test-kernels" > "$out/$tool.log" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed' "$out/$tool.log" | tr '\n' ' ')"
done

"$b/bench/bench-kernels" 20 > "$out/bench.log" 2>&1
echo "bench rc=$?"
echo "== meson test: rc=$suite"
cat "$out/bench.log"
