#!/bin/bash
# The element on GStreamer 1.26 (Debian 13's) on the GPU host, beside 1.22.
#
# Here, after tools/debian13.sh test (which builds in build-debian13/):
#   tools/gpu13.sh prepare
# makes .gpu13 (../shared/gpu/make-bundle-1.26.sh from the Debian 13 root,
# plus the libraries the test programs need), build-g13 (the 1.26 plugin
# and GPU test programs) and build-g12 (the 1.22 plugin from BUILD, default
# build-gpu, its memory and live tests, and bench/libcount-syncs.so from
# BENCH_BUILD, default build, made with -Dbench=enabled).
#
# On the GPU host, carrying .gpu .gpu13 build-g12 build-g13:
#   tools/gpu13.sh run
# counts the host's waits for the GPU (CUPTI, bench/count-syncs.c) over 300
# 1080p frames of cudaupload ! X ! fakesink (and ! cudadownload ! fakesink),
# X the element and identity, on 1.22 and 1.26; then runs the 1.26 memory,
# live (GPU), video-gpu and matrix tests, and live under memcheck, side by
# side, each cut at RUN_SECONDS (default 170). The checks run unforked
# with the registry made first: nvcodec 1.26 starts CUDA in the process
# that scans the plugins, and a forked check child cannot use it. (stress
# re-runs its own program, which the carried loader cannot do: left out.)
# Logs go to $OUT (or /tmp/out) as logs13.tgz; a table comes last.
set -u
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
  set -e
  R=$PWD/build-debian13/root L=usr/lib/x86_64-linux-gnu
  b=build-debian13/build
  bash ../shared/gpu/make-bundle-1.26.sh "$R" .gpu13
  rm -rf build-g13 build-g12
  mkdir -p build-g13/gst build-g13/tests build-g12/gst build-g12/tests
  cp $b/gst/libgstcudatranspose.so build-g13/gst/
  for t in test-memory test-live test-video-gpu test-matrix; do
    cp $b/tests/$t build-g13/tests/
  done
  for f in build-g13/tests/* build-g13/gst/*.so; do
    "$R/usr/lib64/ld-linux-x86-64.so.2" --library-path "$R/$L" --list "$f" |
      awk '$2 == "=>" && $3 ~ /^\// {print $3}'
  done | sort -u | while read -r lib; do
    [ -e ".gpu13/lib/$(basename "$lib")" ] || cp -L "$lib" .gpu13/lib/
  done
  cp "${BUILD:-build-gpu}/gst/libgstcudatranspose.so" build-g12/gst/
  cp "${BUILD:-build-gpu}/tests/test-memory" "${BUILD:-build-gpu}/tests/test-live" \
    build-g12/tests/
  cp "${BENCH_BUILD:-build}/bench/libcount-syncs.so" build-g12/
  du -sh .gpu13 build-g12 build-g13
  ;;
run)
  out=${OUT:-/tmp/out}
  o=$(mktemp -d)
  secs=${RUN_SECONDS:-170}
  t0=$(date +%s)
  export PATH=/usr/local/cuda/bin:$PATH
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$o/gpu.txt"
  cupti=$(dirname "$(find / -xdev -name 'libcupti.so.13*' 2>/dev/null | head -1)")
  pre=$PWD/build-g12/libcount-syncs.so
  src="videotestsrc num-buffers=300 ! video/x-raw,format=NV12,width=1920,height=1080 ! cudaupload !"
  count () { # version X tail launcher...
    local v=$1 x=$2 tail=$3 tag
    shift 3
    tag=$v-$(echo "$x $tail" | tr -c 'a-z0-9\n' '-')
    LD_PRELOAD=$pre timeout 60 "$@" $src $x ! $tail fakesink sync=false \
      > "$o/count-$tag.log" 2>&1
    echo "$v $x ! ${tail:+$tail }fakesink rc=$? $(grep count-syncs "$o/count-$tag.log" | tail -n 1)" >> "$o/table.txt"
  }
  ( source .gpu/enter.sh
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$cupti
    export GST_PLUGIN_PATH_1_0=$PWD/build-g12/gst GST_REGISTRY_1_0=/tmp/reg12.bin
    for tail in "" "cudadownload !"; do
      count 1.22 "cudatranspose video-direction=90r" "$tail" gst-launch-1.0 -q
      count 1.22 identity "$tail" gst-launch-1.0 -q
    done )
  export GST_PLUGIN_PATH_1_0=$PWD/build-g13/gst GST_PLUGIN_PATH=$PWD/build-g13/gst
  export GST_REGISTRY=/tmp/reg13.bin GST_REGISTRY_1_0=/tmp/reg13.bin
  .gpu13/run.sh gst-inspect-1.0 cudatranspose > "$o/inspect13.log" 2>&1
  for tail in "" "cudadownload !"; do
    LD_LIBRARY_PATH=$cupti count 1.26 "cudatranspose video-direction=90r" "$tail" .gpu13/run.sh gst-launch-1.0 -q
    LD_LIBRARY_PATH=$cupti count 1.26 identity "$tail" .gpu13/run.sh gst-launch-1.0 -q
  done
  t13 () { # name wrapper... program args
    local n=$1
    shift
    CK_FORK=no CK_DEFAULT_TIMEOUT=600 CT_LIVE_SECONDS=2 timeout "$secs" "$@" \
      > "$o/t13-$n.log" 2>&1
    echo "1.26 $n rc=$? $(( $(date +%s) - t0 ))s: $(grep -E 'Checks|^matrix:|ERROR SUMMARY|frames checked|:F:|:E:' "$o/t13-$n.log" | tr '\n' ' ' | cut -c1-700)" >> "$o/table.txt"
  }
  t13 memory .gpu13/run.sh build-g13/tests/test-memory &
  t13 live .gpu13/run.sh build-g13/tests/test-live gpu &
  t13 video-gpu .gpu13/run.sh build-g13/tests/test-video-gpu &
  t13 matrix .gpu13/run.sh build-g13/tests/test-matrix &
  t13 live-memcheck compute-sanitizer --tool memcheck --error-exitcode 99 \
    .gpu13/run.sh build-g13/tests/test-live gpu &
  wait
  rm -f "$o"/*.bin
  mkdir -p "$out"
  tar czf "$out/logs13.tgz" -C "$o" .
  echo "== table"
  cat "$o/table.txt"
  ;;
*)
  echo "usage: $0 prepare|run" >&2
  exit 2
  ;;
esac
