#!/bin/bash
# The element on GStreamer 1.26 (Debian 13's) on the GPU host, beside 1.22.
#
# Here, after tools/debian13.sh test (which builds in build-debian13/):
#   tools/gpu13.sh prepare
# makes .gpu13 (../shared/gpu/make-bundle-1.26.sh from the Debian 13 root,
# plus the libraries the test programs need), build-g13 (the 1.26 plugin,
# its GPU test programs, the fault library and the H.264 sample) and
# build-g12 (the 1.22 plugin from BUILD, default build-gpu, its memory and
# live tests, and bench/libcount-syncs.so from BENCH_BUILD, default build,
# made with -Dbench=enabled), and packs the three into
# build-carry13/carry.txz (xz: the three take more room than a device call
# carries).
#
# On the GPU host, carrying .gpu and build-carry13:
#   tools/gpu13.sh run [counts,tests,sanitize,pipelines]   (default: all)
# counts: the host's waits for the GPU (CUPTI, bench/count-syncs.c) over
#   300 1080p frames of cudaupload ! X ! fakesink (and ! cudadownload !
#   fakesink), X the element and identity, on 1.22 and 1.26;
# tests: the 1.26 GPU tests side by side (memory, its nvh264dec chain,
#   live on the GPU, video-gpu, tensors-gpu, arith-gpu, faults, refusals,
#   tensor layouts, YUV to RGB and the matrix), each cut at RUN_SECONDS (default 400;
#   ONLY=NAME,... runs the named ones alone, in either mode);
# sanitize: on 1.26, compute-sanitizer memcheck and synccheck on the
#   element's bands and frames in flight, memcheck and racecheck on the
#   tensor layouts, refusals and live (on the GPU), memcheck on the
#   CUDA-memory chains (memory's, and nvh264dec's), side by side, each cut
#   at RUN_SECONDS;
# pipelines: pipelines/cuda-memory.sh, decode-h264.sh and cuda-ipc.sh as
#   their tests run them, with 1.26's gst-launch-1.0.
# The checks run unforked with the registry made first: nvcodec 1.26
# starts CUDA in the process that scans the plugins, and a forked check
# child cannot use it. (stress re-runs its own program, which the carried
# loader cannot do: left out.) Logs go to $OUT (or /tmp/out) as
# logs13.tgz; a table comes last.
set -u
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
  set -e
  R=$PWD/build-debian13/root L=usr/lib/x86_64-linux-gnu
  b=build-debian13/build
  bash ../shared/gpu/make-bundle-1.26.sh "$R" .gpu13
  rm -rf build-g13 build-g12 build-carry13
  mkdir -p build-g13/gst build-g13/tests build-g12/gst build-g12/tests \
    build-carry13
  cp $b/gst/libgstcudatranspose.so build-g13/gst/
  for t in test-memory test-live test-video-gpu test-matrix test-tensors-gpu \
      test-arith-gpu test-faults test-refusals test-tensor-layouts \
      test-yuv-rgb-gpu test-yuv-tensors-gpu; do
    cp $b/tests/$t build-g13/tests/
  done
  cp $b/tests/libct-fault.so build-g13/
  [ -f $b/tests/sample.h264 ] && cp $b/tests/sample.h264 build-g13/
  for f in build-g13/tests/* build-g13/*.so build-g13/gst/*.so; do
    "$R/usr/lib64/ld-linux-x86-64.so.2" --library-path "$R/$L" --list "$f" |
      awk '$2 == "=>" && $3 ~ /^\// {print $3}'
  done | sort -u | while read -r lib; do
    [ -e ".gpu13/lib/$(basename "$lib")" ] || cp -L "$lib" .gpu13/lib/
  done
  cp "${BUILD:-build-gpu}/gst/libgstcudatranspose.so" build-g12/gst/
  cp "${BUILD:-build-gpu}/tests/test-memory" "${BUILD:-build-gpu}/tests/test-live" \
    build-g12/tests/
  cp "${BENCH_BUILD:-build}/bench/libcount-syncs.so" build-g12/
  tar cJf build-carry13/carry.txz .gpu13 build-g12 build-g13
  du -sh .gpu13 build-g12 build-g13 build-carry13/carry.txz
  ;;
run)
  out=${OUT:-/tmp/out}
  what=${2:-counts,tests,sanitize,pipelines}
  want () { [[ ",$what," == *",$1,"* ]]; }
  o=$(mktemp -d)
  secs=${RUN_SECONDS:-400}
  t0=$(date +%s)
  export PATH=/usr/local/cuda/bin:$PATH
  if [ -f build-carry13/carry.txz ] &&
      { [ ! -x .gpu13/run.sh ] || [ ! -d build-g13 ]; }; then
    tar xJf build-carry13/carry.txz
  fi
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$o/gpu.txt"
  finish () {
    rm -f "$o"/*.bin
    mkdir -p "$out"
    tar czf "$out/logs13.tgz" -C "$o" .
    echo "== table"
    cat "$o/table.txt"
  }
  trap finish EXIT
  touch "$o/table.txt"
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
  if want counts; then
    ( source .gpu/enter.sh
      export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$cupti
      export GST_PLUGIN_PATH_1_0=$PWD/build-g12/gst GST_REGISTRY_1_0=/tmp/reg12.bin
      for tail in "" "cudadownload !"; do
        count 1.22 "cudatranspose video-direction=90r" "$tail" gst-launch-1.0 -q
        count 1.22 identity "$tail" gst-launch-1.0 -q
      done )
  fi
  export GST_PLUGIN_PATH_1_0=$PWD/build-g13/gst GST_PLUGIN_PATH=$PWD/build-g13/gst
  export GST_REGISTRY=/tmp/reg13.bin GST_REGISTRY_1_0=/tmp/reg13.bin
  .gpu13/run.sh gst-inspect-1.0 cudatranspose > "$o/inspect13.log" 2>&1
  if want counts; then
    for tail in "" "cudadownload !"; do
      LD_LIBRARY_PATH=$cupti count 1.26 "cudatranspose video-direction=90r" "$tail" .gpu13/run.sh gst-launch-1.0 -q
      LD_LIBRARY_PATH=$cupti count 1.26 identity "$tail" .gpu13/run.sh gst-launch-1.0 -q
    done
  fi
  t13 () { # name wrapper... program args
    local n=$1
    shift
    # (ONLY=name,name... runs those alone)
    [ -z "${ONLY:-}" ] || [[ ",$ONLY," == *",$n,"* ]] || return 0
    CK_FORK=no CK_DEFAULT_TIMEOUT=600 CT_LIVE_SECONDS=2 timeout "$secs" "$@" \
      > "$o/t13-$n.log" 2>&1
    echo "1.26 $n rc=$? $(( $(date +%s) - t0 ))s: $(grep -E 'Checks|^matrix:|ERROR SUMMARY|RACECHECK SUMMARY|frames checked|:F:|:E:' "$o/t13-$n.log" | tr '\n' ' ' | cut -c1-700)" >> "$o/table.txt"
  }
  t=build-g13/tests
  h264=$PWD/build-g13/sample.h264
  if want tests; then
    t13 memory .gpu13/run.sh $t/test-memory &
    CT_CHECK_H264=$h264 t13 nvdec .gpu13/run.sh $t/test-memory nvdec &
    t13 live .gpu13/run.sh $t/test-live gpu &
    t13 video-gpu .gpu13/run.sh $t/test-video-gpu &
    t13 tensors-gpu .gpu13/run.sh $t/test-tensors-gpu &
    t13 arith-gpu .gpu13/run.sh $t/test-arith-gpu &
    LD_PRELOAD=$PWD/build-g13/libct-fault.so t13 faults .gpu13/run.sh $t/test-faults &
    t13 refusals .gpu13/run.sh $t/test-refusals &
    t13 tensor-layouts .gpu13/run.sh $t/test-tensor-layouts &
    t13 matrix .gpu13/run.sh $t/test-matrix &
    t13 yuv-rgb-gpu .gpu13/run.sh $t/test-yuv-rgb-gpu &
    t13 yuv-tensors-gpu .gpu13/run.sh $t/test-yuv-tensors-gpu &
    wait
  fi
  if want sanitize; then
    cs () { # tool name checks program args
      local tool=$1 n=$2 checks=$3
      shift 3
      GST_CHECKS=$checks t13 "$tool-$n" compute-sanitizer --tool "$tool" \
        --error-exitcode 99 .gpu13/run.sh "$@"
    }
    for tool in memcheck synccheck; do
      cs $tool bands test_gpu_bands,test_gpu_in_flight,test_gpu_in_flight_events \
        $t/test-video-gpu &
    done
    for tool in memcheck racecheck; do
      cs $tool tensor-layouts "" $t/test-tensor-layouts &
      cs $tool refusals test_link_time_reasons,test_permutation_while_playing,test_interlaced_direction_change \
        $t/test-refusals &
      cs $tool live "" $t/test-live gpu &
      cs $tool yuv-tensors "" \
        $t/test-yuv-tensors-gpu &
    done
    cs memcheck memory test_cuda_in_cuda_out,test_cuda_in_system_out,test_system_in_cuda_out,test_cuda_resolution_change,test_cycles_cuda \
      $t/test-memory &
    CT_CHECK_H264=$h264 cs memcheck nvdec "" $t/test-memory nvdec &
    wait
  fi
  if want pipelines; then
    # gst-launch-1.0 and gst-inspect-1.0 of 1.26 first on PATH, for the
    # examples and their checks
    shim=$(mktemp -d)
    for p in gst-launch-1.0 gst-inspect-1.0; do
      printf '#!/bin/sh\nexec %s/.gpu13/run.sh %s "$@"\n' "$PWD" $p > "$shim/$p"
      chmod +x "$shim/$p"
    done
    for p in cuda-memory decode-h264 cuda-ipc; do
      PATH=$shim:$PATH CT_CHECK_H264=$h264 timeout 300 \
        sh tests/pipelines/check-$p.sh pipelines/$p.sh "$o/pipeline-$p/out" \
        > "$o/pipeline-$p.log" 2>&1
      echo "1.26 pipelines/$p.sh rc=$?: $(tail -n 1 "$o/pipeline-$p.log" | cut -c1-200)" >> "$o/table.txt"
    done
  fi
  ;;
*)
  echo "usage: $0 prepare | run [counts,tests,sanitize,pipelines]" >&2
  exit 2
  ;;
esac
