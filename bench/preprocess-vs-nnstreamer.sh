#!/bin/sh
# Frames per second of one pre-processing job, RGB frames to normalized
# float32 CHW tensors, done two ways on the same source in one run:
#   nnstreamer    tensor_converter ! tensor_transform mode=arithmetic
#                 option=OPT ! tensor_transform mode=transpose
#                 option=1:2:0:3 (NNStreamer's CPU chain, its default ORC
#                 path);
#   cudatranspose cudatranspose arithmetic=OPT (one pass: on the GPU where
#                 there is one, else the CPU);
# and the source alone, what both are bounded by. OPT is
# typecast:float32,add:-127.5,div:127.5. Each is a whole gst-launch-1.0
# run of N frames, timed from start to end, the median of 3.
#
#   bench/preprocess-vs-nnstreamer.sh BUILD [SIZES]
#
# SIZES: WxH:N ... (default 1920x1080:300 3840x2160:75 640x640:2000
# 224x224:10000). Needs NNStreamer's plugins on GST_PLUGIN_PATH (or its
# rows are left out, saying so) and BUILD/gst for cudatranspose.
set -u
build=${1:?usage: $0 BUILD [WxH:N ...]}
shift
sizes=${*:-1920x1080:300 3840x2160:75 640x640:2000 224x224:10000}
opt=typecast:float32,add:-127.5,div:127.5
export GST_PLUGIN_PATH="$PWD/$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"

have_nns=1
if ! gst-inspect-1.0 tensor_transform > /dev/null 2>&1; then
  have_nns=0
  echo "NNStreamer's tensor_transform not found: its rows are left out"
fi

# seconds of one run of the pipeline after the source
run () {
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  gst-launch-1.0 -q videotestsrc num-buffers="$n" pattern=snow \
    ! "video/x-raw,format=RGB,width=$w,height=$h" $1 \
    > /dev/null 2>&1 || { echo fail; return; }
  end=$(date +%s.%N)
  echo "$start $end" | awk '{ printf "%.3f\n", $2 - $1 }'
}

median3 () {
  a=$(run "$1"); b=$(run "$1"); c=$(run "$1")
  case "$a$b$c" in *fail*) echo fail; return ;; esac
  printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p
}

printf '%-10s %-14s %6s %8s %9s\n' size route frames seconds frames/s
for s in $sizes; do
  w=${s%%x*}; rest=${s#*x}; h=${rest%%:*}; n=${s#*:}
  for route in source nnstreamer cudatranspose; do
    case $route in
      source) chain="! fakesink" ;;
      nnstreamer)
        [ "$have_nns" = 1 ] || continue
        chain="! tensor_converter ! tensor_transform mode=arithmetic option=$opt ! tensor_transform mode=transpose option=1:2:0:3 ! fakesink" ;;
      cudatranspose)
        chain="! cudatranspose arithmetic=$opt ! other/tensors,format=static ! fakesink" ;;
    esac
    t=$(median3 "$chain")
    if [ "$t" = fail ]; then
      printf '%-10s %-14s %6s %8s %9s\n' "${w}x$h" $route "$n" - failed
    else
      printf '%-10s %-14s %6s %8s %9.1f\n' "${w}x$h" $route "$n" "$t" \
        "$(echo "$n $t" | awk '{ print $1 / $2 }')"
    fi
  done
done
