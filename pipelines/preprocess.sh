#!/bin/sh
# Turns RGB test frames into normalized float32 CHW tensors, a network's
# input, in one pass on the GPU (or the CPU without one): each byte x
# becomes (x - 127.5) / 127.5, as NNStreamer's tensor_transform
# mode=arithmetic option says, while the layout goes from HWC to CHW.
#
#   pipelines/preprocess.sh [OUTFILE] [FRAMES]
set -eu
file=${1:-out/frames.f32.chw}
frames=${2:-30}
mkdir -p "$(dirname "$file")"
gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte \
  ! video/x-raw,format=RGB,width=224,height=224 \
  ! cudatranspose arithmetic=typecast:float32,add:-127.5,div:127.5 \
  ! other/tensors,format=static \
  ! filesink location="$file"
echo "wrote $frames 224:224:3:1 float32 tensors (CHW, normalized) to $file"
