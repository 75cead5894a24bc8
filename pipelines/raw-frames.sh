#!/bin/sh
# Transposes a stream of NV12 test frames into a raw file, the way a capture
# or decode chain would hand frames to cudatranspose.
#
#   pipelines/raw-frames.sh [OUTFILE] [FRAMES] [KERNEL]
set -eu
file=${1:-out/transposed.nv12}
frames=${2:-30}
kernel=${3:-auto}
mkdir -p "$(dirname "$file")"
gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=ball \
  ! video/x-raw,format=NV12,width=1920,height=1080 \
  ! cudatranspose kernel="$kernel" \
  ! video/x-raw,width=1080,height=1920 \
  ! filesink location="$file"
echo "wrote $frames transposed 1080x1920 NV12 frames to $file"
