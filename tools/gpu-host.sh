#!/bin/bash
# On the lent GPU host (no GStreamer there). Usage, from the repository root:
#
#   tools/gpu-host.sh BUILD_DIR [tests|suite|meson|sanitize|matrix|racecheck|bench|pipelines|tensors|decode|compare|all|tests,tensors...]
#
# tests: the whole Meson suite from a build made here, under GStreamer's
#        leaks tracer (a test that leaks an object fails), the PNG demo,
#        compute-sanitizer memcheck and racecheck on the kernel API test
#        (the two run side by side), memcheck and synccheck on the
#        element's bands and frames in flight (video-gpu's test_gpu_bands
#        and test_gpu_in_flight*), memcheck and racecheck on the tensor
#        layouts, the refusals and the live test (on the GPU), and the
#        matrix; suite: all that but the kernel test's racecheck and the
#        matrix, in two halves that also run alone (one 10-minute call
#        may not hold both): meson (the Meson suite under the leaks
#        tracer, memcheck on the kernel API test, the demo) and sanitize
#        (the element's bands, frames in flight, tensor layouts,
#        refusals, live test and CUDA-memory chains under
#        compute-sanitizer). The unit tests (suite "unit": the gst modules
#        against stub GPUs, no GPU used) run in CI and are left out here:
#        a build folder without them carries in less room;
# matrix: the GPU matrix tests alone (every format, direction, memory kind
#        and size against the CPU path; about 3 minutes on an H100; then
#        its YUV axis, YUV video into tensors, test-matrix-yuv);
# racecheck: only the kernel test's;
# bench: bench-kernels --json, --latency --json, --odd --json and
#        --directions --json, their plots (throughput against latency in
#        one), bench-cuda-steps (plain and with the caches polluted),
#        bench-launch-args (a small job by its kernel's argument size, in
#        four processes), and
#        the Nsight Compute counters of bench/profile-kernels.sh;
# pipelines: bench-pipelines --json (whole pipelines against videoflip);
# tensors: bench-tensors.py (ct_permute against PyTorch and a copy) and
#        bench-preprocess.py (the arithmetic fused with HWC to CHW, against
#        PyTorch and a copy), with its plot;
# decode: bench-decode on the clips of tools/make-h264.sh (made where
#        openh264enc is, carried in CLIPS), nvh264dec -> rotate, 1, 4 and
#        16 streams; not part of "all";
# compare: the benches of an older build (OLD_BUILD) against this one's, in
#        alternating rounds, row by row (bench/compare-runs.py); not part
#        of "all".
# Logs and results go to $OUT (or /tmp/out); a short table comes last.
# Two modes run side by side in one call only after .gpu/enter.sh has been
# sourced once: it unpacks GStreamer into /tmp/gst, and two unpacking at
# once leave it broken. Tests that use the GPU from several processes at
# once share it by time slices: on one H200, seven Meson groups, the
# matrix and ten more test programs side by side ran some tests five
# times slower than alone and past their limits.
# Carry BUILD_DIR and .gpu (GStreamer's libraries for a host without them,
# with .gpu/enter.sh to set them up; not in this repository) along; with
# .gpu/enter-python.sh (tools/gpu-python.sh .gpu) "suite" also runs the
# tensors-app test with the bundle's python.
#
# BUILD_DIR is configured by hand, with the benchmarks (not in the default
# build), e.g.
#   meson setup build-gpu -Dgpu_archs=90 -Dbench=enabled
# which also keeps the kernels' source lines (-lineinfo) for the
# sanitizers' and Nsight Compute's reports. bench, pipelines, tensors,
# decode and compare say so and skip on a build without them.
set -u
b=${1:-build-gpu}
what=${2:-all}
out=${OUT:-/tmp/out}
mkdir -p "$out"
want () { [ "$what" = all ] || [[ ",$what," == *",$1,"* ]]; }
# whether build folder $2 (default BUILD_DIR) has the benchmarks, for mode
# $1; says why not
has_bench () {
  [ -x "${2:-$b}/bench/bench-kernels" ] && return 0
  echo "== $1: skipped: ${2:-$b} has no benchmarks (meson setup -Dbench=enabled)"
  return 1
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader

# the parts of "tests", which also run alone. "suite" may need more than
# a 10-minute call: run its halves, meson and sanitize, in two calls.
want tests && what="$what,suite,racecheck,matrix"
want suite && what="$what,meson,sanitize"

if want meson; then
  source .gpu/enter.sh
  compute-sanitizer --tool memcheck --error-exitcode 99 \
    "$b/tests/kernels/test-kernels" > "$out/memcheck.log" 2>&1 &
  memcheck=$!
  mkdir -p "$b/meson-logs"
  # The tests' registries, made afresh before the groups start: one
  # carried from the build machine (where nvcodec found no GPU) hides
  # nvcodec's elements, and every test that needs them skips or fails.
  rm -f "$b"/tests/registry*.bin
  for r in registry registry-faults; do
    GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$PWD/$b/tests/$r.bin \
      gst-inspect-1.0 cudaupload > "$out/$r-scan.log" 2>&1 ||
      echo "== $r: nvcodec's cudaupload not found: $(tail -n 1 "$out/$r-scan.log")"
  done
  # Meson runs the GPU tests one at a time (about 9 minutes on an H200
  # under the leaks tracer). Here the suite runs in groups side by side,
  # every test in one group, each group's log named after it (--logbase);
  # they share the GPU by time slices, so the longest group sets the time
  # (the groups alone, without other programs beside them, not yet timed).
  # (video and tensors apart: one after the other they ran past 540 s.
  # Even so the groups take more than one call holds: on an H200, 545 s
  # cut refusals, beside fuzz, and nnstreamer, after arith-gpu; run those
  # in a second call)
  groups=("memory:--suite memory" "stress:--suite stress" "live:--suite live"
    "video:--suite video" "tensors:--suite tensors --no-suite video"
    "kernels:--suite kernels" "pipelines:--suite pipelines"
    "robustness:--suite robustness --no-suite live --no-suite stress")
  for g in "${groups[@]}"; do
    # (the group's options split into words on purpose)
    # shellcheck disable=SC2086
    GST_TRACERS=leaks meson test -C "$b" --no-rebuild --print-errorlogs \
      ${g#*:} --no-suite matrix --no-suite unit --logbase "test-${g%%:*}" \
      > "$out/meson-${g%%:*}.log" 2>&1 &
  done
  suite=0
  for job in $(jobs -p); do
    # (the memcheck above is waited for below)
    [ "$job" = "$memcheck" ] && continue
    wait "$job" || suite=1
  done
  cat "$out"/meson-*.log > "$out/meson-test.log"
  cp "$b"/meson-logs/test-*.txt "$out/" 2>/dev/null
  # the Python example with the bundle's python (tools/gpu-python.sh .gpu
  # adds it; the host's own python3 has no PyGObject, so the suite skips it)
  if [ -f .gpu/enter-python.sh ]; then
    source .gpu/enter-python.sh
    meson test -C "$b" --no-rebuild --print-errorlogs \
      --wrapper "$(command -v python3-bundle)" tensors-app \
      > "$out/tensors-app.log" 2>&1
    echo "== tensors-app (bundled python) rc=$?: $(grep -E '^ *1/1 ' "$out/tensors-app.log")"
    # (a wrapper's log is named after it)
    cp "$b/meson-logs/testlog-python3-bundle.txt" "$out/" 2>/dev/null
  fi
  GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry.bin \
    pipelines/png-demo.sh "$out/demo" > "$out/demo.log" 2>&1
  demo=$?
  wait
  grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):" "$out/meson-test.log"
  [ $suite -eq 0 ] || grep -E "^\.\./|FAIL|error" "$out/meson-test.log" | head -40
  echo "== meson test rc=$suite; png-demo rc=$demo: $(tail -n 1 "$out/demo.log")"
  echo "== memcheck: $(grep -E 'ERROR SUMMARY|passed,' "$out/memcheck.log" | tr '\n' ' ')"
fi

if want sanitize; then
  source .gpu/enter.sh
  # the element's bands and frames in flight, their streams and events,
  # under the sanitizer
  for tool in memcheck synccheck; do
    GST_CHECKS=test_gpu_bands,test_gpu_in_flight,test_gpu_in_flight_events \
      GST_PLUGIN_PATH_1_0=$PWD/$b/gst \
      GST_REGISTRY_1_0=$out/registry-$tool.bin CK_DEFAULT_TIMEOUT=600 \
      compute-sanitizer --tool $tool --error-exitcode 99 \
      "$b/tests/test-video-gpu" > "$out/$tool-bands.log" 2>&1
    echo "== $tool (bands, frames in flight): $(grep -E 'ERROR SUMMARY|Checks' "$out/$tool-bands.log" | tr '\n' ' ')"
  done
  # the element's tensor layouts (flexible past 16, NNStreamer-made
  # buffers), its YUV frames to tensors and its refusals, under the
  # sanitizer (memory's chains of
  # cudaupload and cudadownload take too long under it for one call)
  for tool in memcheck racecheck; do
    for t in tensor-layouts refusals live yuv-tensors-gpu; do
      checks="" args=""
      # (the 100 pipelines of test_refused_caps_once and the 800 under
      # load are CPU-side)
      [ $t = refusals ] && checks=test_link_time_reasons,test_permutation_while_playing,test_interlaced_direction_change
      # (the pipeline that lives, on the GPU: system and CUDA memory)
      [ $t = live ] && args=gpu
      GST_CHECKS=$checks GST_PLUGIN_PATH_1_0=$PWD/$b/gst \
        GST_REGISTRY_1_0=$out/registry-$tool-$t.bin CK_DEFAULT_TIMEOUT=600 \
        CT_LIVE_SECONDS=3 compute-sanitizer --tool $tool --error-exitcode 99 \
        "$b/tests/test-$t" $args > "$out/$tool-$t.log" 2>&1
      echo "== $tool ($t): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Checks|frames checked' "$out/$tool-$t.log" | tr '\n' ' ')"
    done
  done
  # the chains through cudaupload and cudadownload in CUDA memory, and
  # nvh264dec's (all of memory's chains take too long under memcheck for
  # one call: these are the ones where the element meets nvcodec's memory)
  for t in memory nvdec; do
    checks=test_cuda_in_cuda_out,test_cuda_in_system_out,test_system_in_cuda_out,test_cuda_resolution_change,test_cycles_cuda
    args=""
    [ $t = nvdec ] && checks="" args=nvdec
    GST_CHECKS=$checks GST_PLUGIN_PATH_1_0=$PWD/$b/gst \
      GST_REGISTRY_1_0=$out/registry-memcheck-$t.bin CK_DEFAULT_TIMEOUT=600 \
      CT_CHECK_H264=$PWD/$b/tests/sample.h264 \
      timeout 280 compute-sanitizer --tool memcheck --error-exitcode 99 \
      "$b/tests/test-memory" $args > "$out/memcheck-$t.log" 2>&1
    echo "== memcheck ($t) rc=$?: $(grep -E 'ERROR SUMMARY|Checks' "$out/memcheck-$t.log" | tr '\n' ' ')"
  done
fi

if want matrix; then
  source .gpu/enter.sh
  GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry-matrix.bin \
    CK_DEFAULT_TIMEOUT=600 "$b/tests/test-matrix" > "$out/matrix.log" 2>&1
  echo "== matrix rc=$?: $(grep -E '^matrix:' "$out/matrix.log")"
  grep -E '^mismatch|:F:|:E:' "$out/matrix.log" | head -20
  # its YUV axis: YUV video into tensors, GPU against the CPU path
  GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry-matrix.bin \
    CK_DEFAULT_TIMEOUT=600 "$b/tests/test-matrix-yuv" \
    > "$out/matrix-yuv.log" 2>&1
  echo "== matrix-yuv rc=$?: $(grep -E 'frames into tensors|Checks' \
    "$out/matrix-yuv.log" | tr '\n' ' ')"
  grep -E ':F:|:E:' "$out/matrix-yuv.log" | head -20
fi

if want racecheck; then
  # racecheck is the slowest: the groups in parallel processes, six at a
  # time (test-kernels SEED 'GROUP|GROUP...'; seed 0 keeps the default
  # one). The small shapes, the paths, 4:2:2, the permutations and the
  # channels check every kernel; the groups of large, many or batched
  # planes, and of several contexts, check the wide family and the flip
  # kernels only (--kernel-name), the seeds having been checked on the
  # small shapes: unfiltered, those groups did not finish inside a
  # 10-minute device call.
  wide='regex=k_wide|k_thin|k_skinny|k_tile|k_stream|k_flip'
  racecheck_parts=("small shapes" "permutations" "wide tile edges"
    "large shapes, transpose|large shapes, mirrored|large shapes, flips|names|argument"
    "large shapes, thin" "streamed|grid limit|skinny" "multi-plane"
    "batches" "channels" "contexts" "paths|4:2:2")
  racecheck_filters=("" "" "$wide" "$wide" "$wide" "$wide" "$wide"
    'regex=k_wideILb[01]ELb1E|k_skinny|k_thin' "" "$wide" "")
  # with several GPUs the groups go round them, six at a time on each (on
  # one H200 the eleven groups took about 10 minutes, the two slowest
  # about 330 s each)
  gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
  [ "$gpus" -ge 1 ] || gpus=1
  for i in "${!racecheck_parts[@]}"; do
    filter=()
    [ -n "${racecheck_filters[$i]}" ] &&
      filter=(--kernel-name "${racecheck_filters[$i]}")
    while [ "$(jobs -rp | wc -l)" -ge $((6 * gpus)) ]; do wait -n; done
    CUDA_VISIBLE_DEVICES=$((i % gpus)) \
      compute-sanitizer --tool racecheck "${filter[@]}" --error-exitcode 99 \
      "$b/tests/kernels/test-kernels" 0 "${racecheck_parts[$i]}" \
      > "$out/racecheck-$i.log" 2>&1 &
  done
  wait
  for i in "${!racecheck_parts[@]}"; do
    echo "== racecheck (${racecheck_parts[$i]}): $(grep -E 'RACECHECK SUMMARY|passed,' "$out/racecheck-$i.log" | tr '\n' ' ')"
  done
fi

if want pipelines && has_bench pipelines; then
  source .gpu/enter.sh
  GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry.bin \
    "$b/bench/bench-pipelines" --json "$out/pipelines.json" \
    > "$out/pipelines.log" 2>&1
  echo "== pipelines rc=$?"
  python3 bench/plot-performance.py "$out/pipelines.json" \
    "$out/pipelines.png" && echo "== plot: $out/pipelines.png"
  cat "$out/pipelines.log"
fi

if want tensors && has_bench tensors; then
  python3 bench/bench-tensors.py "$b/bench/libcudatranspose-bench.so" \
    --json "$out/tensors.json" > "$out/tensors.log" 2>&1
  echo "== tensors rc=$?"
  cat "$out/tensors.log"
  python3 bench/bench-preprocess.py "$b/bench/libcudatranspose-bench.so" \
    --json "$out/preprocess.json" > "$out/preprocess.log" 2>&1
  echo "== preprocess rc=$?"
  cat "$out/preprocess.log"
  python3 bench/plot-performance.py "$out/preprocess.json" \
    "$out/preprocess.png" && echo "== plot: $out/preprocess.png"
fi

if want bench && has_bench bench; then
  "$b/bench/bench-kernels" --json "$out/bench.json" > "$out/bench.log" 2>&1
  echo "== bench rc=$?"
  python3 bench/plot-performance.py "$out/bench.json" "$out/performance.png" &&
    echo "== plot: $out/performance.png"
  "$b/bench/bench-kernels" --latency --json "$out/latency.json" \
    > "$out/latency.log" 2>&1
  echo "== latency rc=$?"
  python3 bench/plot-performance.py "$out/bench.json" \
    "$out/performance-latency.png" "$out/latency.json" &&
    echo "== plot: $out/performance-latency.png"
  "$b/bench/bench-kernels" --odd --json "$out/odd.json" > "$out/odd.log" 2>&1
  echo "== odd shapes rc=$?"
  source .gpu/enter.sh
  GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry-steps.bin \
    "$b/bench/bench-cuda-steps" > "$out/cuda-steps.log" 2>&1
  echo "== cuda steps rc=$?"
  GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry-steps.bin \
    "$b/bench/bench-cuda-steps" --pollute 8000000 >> "$out/cuda-steps.log" 2>&1
  echo "== cuda steps, caches polluted rc=$?"
  # the cost of a kernel's argument size; a process pays it or not, so four
  for r in 1 2 3 4; do
    "$b/bench/bench-launch-args" >> "$out/launch-args.log" 2>&1
    echo "== launch arguments, process $r rc=$?"
  done
  "$b/bench/bench-kernels" --directions --json "$out/directions.json" \
    > "$out/directions.log" 2>&1
  echo "== directions rc=$?"
  python3 bench/plot-performance.py "$out/directions.json" \
    "$out/performance-directions.png" &&
    echo "== plot: $out/performance-directions.png"
  bench/profile-kernels.sh "$b" "$out/ncu" > "$out/ncu-table.md" 2>&1
  echo "== ncu rc=$?"
  cat "$out/ncu-table.md"
  sed -n '/fraction of copy/,$p' "$out/bench.log"
fi

if [[ ",$what," == *",compare,"* ]] && has_bench compare &&
    has_bench compare "${OLD_BUILD:?OLD_BUILD: the older build folder}"; then
  # old against new on this card, in alternating rounds (old, new, new,
  # old, ...): OLD_BUILD is the older build folder (its gst/ plugin and
  # its bench/ programs); COMPARE picks the benches (kernels, directions,
  # pipelines, tensors; default all), ROUNDS the rounds (default 2),
  # PIPELINES_ARGS narrows bench-pipelines (e.g. "--paths cuda"). Both
  # plugins run under this build's bench-pipelines. Everything lands in
  # $out/compare.tar.gz (a device call brings few files back).
  source .gpu/enter.sh
  old=${OLD_BUILD:?OLD_BUILD: the older build folder}
  benches=${COMPARE:-kernels,directions,pipelines,tensors}
  c=$(mktemp -d)
  for ((r = 1; r <= ${ROUNDS:-2}; r++)); do
    order="old new"; [ $((r % 2)) = 0 ] && order="new old"
    for v in $order; do
      d=$b; [ $v = old ] && d=$old
      d=$(cd "$d" && pwd)
      if [[ ",$benches," == *",kernels,"* ]]; then
        timeout 300 "$d/bench/bench-kernels" --quick --json "$c/kernels-$v-$r.json" > "$c/kernels-$v-$r.log" 2>&1
      fi
      if [[ ",$benches," == *",directions,"* ]]; then
        timeout 300 "$d/bench/bench-kernels" --directions --quick --json "$c/directions-$v-$r.json" > "$c/directions-$v-$r.log" 2>&1
      fi
      if [[ ",$benches," == *",pipelines,"* ]]; then
        GST_PLUGIN_PATH_1_0=$d/gst GST_REGISTRY_1_0=$c/registry-$v.bin \
          timeout 300 "$b/bench/bench-pipelines" ${PIPELINES_ARGS:-} \
          --json "$c/pipelines-$v-$r.json" > "$c/pipelines-$v-$r.log" 2>&1
      fi
      if [[ ",$benches," == *",tensors,"* ]]; then
        timeout 120 python3 bench/bench-tensors.py \
          "$d/bench/libcudatranspose-bench.so" \
          --json "$c/tensors-$v-$r.json" > "$c/tensors-$v-$r.log" 2>&1
      fi
      echo "== compare: $v, round $r done"
    done
  done
  for bench in kernels directions pipelines tensors; do
    ls "$c/$bench-old-"*.json > /dev/null 2>&1 || continue
    python3 bench/compare-runs.py "$c/$bench-old-"*.json -- \
      "$c/$bench-new-"*.json > "$c/compare-$bench.txt" 2>&1
    echo "== $bench"; cat "$c/compare-$bench.txt"
  done
  tar czf "$out/compare.tar.gz" -C "$c" .
fi

if [[ ",$what," == *",decode,"* ]] && has_bench decode; then
  source .gpu/enter.sh
  GST_PLUGIN_PATH_1_0=$PWD/$b/gst GST_REGISTRY_1_0=$out/registry-decode.bin \
    timeout 560 "$b/bench/bench-decode" "${CLIPS:?CLIPS: the folder of tools/make-h264.sh}" \
    --json "$out/decode.json" > "$out/decode.log" 2>&1
  echo "== decode rc=$?"
  cat "$out/decode.log"
fi
