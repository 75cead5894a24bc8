#!/bin/sh
# Transposes one frame of a test pattern with cudatranspose and writes the
# input and the output as PNG, then says whether the GPU or the CPU did it.
#
#   pipelines/png-demo.sh [OUTDIR] [WIDTH] [HEIGHT]
#
# The same pipeline as the first example launch line in gst/gstcudatranspose.c.
set -eu
out=${1:-out}
w=${2:-640}
h=${3:-360}
mkdir -p "$out"

# -v prints property changes: the element's active-kernel says where it ran
if ! log=$(gst-launch-1.0 -v \
    videotestsrc num-buffers=1 pattern=smpte \
    ! "video/x-raw,format=I420,width=$w,height=$h" ! tee name=t \
    t. ! queue ! videoconvert ! pngenc ! filesink location="$out/input.png" \
    t. ! queue ! cudatranspose ! videoconvert ! pngenc \
    ! filesink location="$out/output.png" 2>&1); then
  printf '%s\n' "$log" >&2
  echo "png-demo: the pipeline failed (its log is above)" >&2
  exit 1
fi

active=$(printf '%s\n' "$log" | sed -n 's/.*active-kernel = \(.*\)$/\1/p' |
  tail -n 1)
case "$active" in
  cpu)
    why=$(printf '%s\n' "$log" | sed -n 's/.*Transposing on the CPU because \(.*\)\.$/\1/p')
    where="on the CPU (${why:-no usable GPU})" ;;
  "")
    echo "png-demo: cudatranspose reported no kernel; did it run?" >&2
    exit 1 ;;
  *)
    where="on the GPU, path $active" ;;
esac
echo "input:  $out/input.png (${w}x${h})"
echo "output: $out/output.png (${h}x${w})"
echo "transposed $where"
