#!/bin/sh
# Frames that stay on the GPU: cudaupload puts them there once, cudatranspose
# transposes them in CUDA memory (no copy through the host), cudadownload
# brings them back once. Needs GStreamer's nvcodec plugin and a CUDA GPU.
#
#   pipelines/cuda-memory.sh [OUTFILE] [FRAMES]
set -eu
. "$(dirname "$0")/need-nvcodec.sh"
need_nvcodec cudaupload cudadownload
file=${1:-out/transposed-cuda.nv12}
frames=${2:-30}
mkdir -p "$(dirname "$file")"
gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=ball \
  ! video/x-raw,format=NV12,width=1920,height=1080 \
  ! cudaupload ! cudatranspose ! cudadownload \
  ! video/x-raw,width=1080,height=1920 \
  ! filesink location="$file"
echo "wrote $frames transposed 1080x1920 NV12 frames to $file, via CUDA memory"
