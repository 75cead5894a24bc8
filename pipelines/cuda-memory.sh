#!/bin/sh
# Frames that stay on the GPU: cudaupload puts them there once, cudatranspose
# transposes them in CUDA memory (no copy through the host), cudadownload
# brings them back once. Needs GStreamer's nvcodec plugin and a CUDA GPU.
#
#   pipelines/cuda-memory.sh [OUTFILE] [FRAMES]
set -eu
# Says what is missing, in one line, and exits 77 (a skip, to the tests)
# where gst-launch-1.0 would dump an error: nvcodec registers its elements
# only where the NVIDIA driver finds a CUDA GPU.
need_nvcodec() {
  all= missing= n=0
  for e in "$@"; do
    all="$all${all:+, }$e"
    gst-inspect-1.0 --exists "$e" && continue
    missing="$missing${missing:+, }$e" n=$((n + 1))
  done
  [ -z "$missing" ] && return 0
  [ $n -eq $# ] && missing="none" || missing="no $missing"
  if gst-inspect-1.0 nvcodec >/dev/null 2>&1; then
    why="nvcodec is installed but found no CUDA GPU or driver"
  else
    why="no nvcodec plugin: install gstreamer1.0-plugins-bad"
  fi
  echo "$0: needs an NVIDIA GPU and gst-plugins-bad's nvcodec elements" \
    "($all): $missing here ($why)" >&2
  exit 77
}
command -v gst-inspect-1.0 >/dev/null || {
  echo "$0: needs GStreamer's tools: install gstreamer1.0-tools" >&2; exit 77; }
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
