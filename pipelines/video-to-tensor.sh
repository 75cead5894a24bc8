#!/bin/sh
# Turns RGB test frames into channel-planar (CHW) uint8 tensors, the layout
# a network's input wants, in one pass on the GPU (or the CPU without one),
# and writes the tensors to a file.
#
#   pipelines/video-to-tensor.sh [OUTFILE] [FRAMES]
set -eu
file=${1:-out/frames.chw}
frames=${2:-30}
mkdir -p "$(dirname "$file")"
gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte \
  ! video/x-raw,format=RGB,width=640,height=480 \
  ! cudatranspose \
  ! other/tensors,format=static \
  ! filesink location="$file"
echo "wrote $frames 640:480:3:1 uint8 tensors (CHW) to $file"
