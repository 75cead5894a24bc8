#!/bin/sh
# Decodes H.264 on the GPU (NVDEC) and transposes the decoded frames where
# they are, in CUDA memory; only the result comes back to system memory.
#
#   pipelines/decode-h264.sh INPUT.h264 [OUTFILE]
set -eu
in=$1
file=${2:-out/decoded-transposed.nv12}
mkdir -p "$(dirname "$file")"
gst-launch-1.0 -q filesrc location="$in" ! h264parse ! nvh264dec \
  ! cudatranspose ! cudadownload ! video/x-raw,format=NV12 \
  ! filesink location="$file"
echo "wrote the transposed frames of $in to $file"
