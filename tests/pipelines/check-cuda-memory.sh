#!/bin/sh
# Runs pipelines/cuda-memory.sh and compares its file with the same frames
# transposed on the CPU (pipelines/raw-frames.sh kernel=cpu). Skips (77)
# without nvcodec's cudaupload, i.e. without a CUDA GPU.
set -eu
script=$1
file=$2
if ! gst-inspect-1.0 --exists cudaupload; then
  echo "SKIP: no cudaupload (GStreamer's nvcodec plugin found no CUDA GPU)"
  exit 77
fi
rm -f "$file" "$file.cpu"
"$script" "$file" 3
"$(dirname "$script")/raw-frames.sh" "$file.cpu" 3 cpu
cmp "$file" "$file.cpu"
echo "CUDA-memory frames match the CPU's"
