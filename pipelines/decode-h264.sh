#!/bin/sh
# Decodes H.264 on the GPU (NVDEC) and transposes the decoded frames where
# they are, in CUDA memory; only the result comes back to system memory.
#
#   pipelines/decode-h264.sh [INPUT.h264 [OUTFILE]]
#
# Without INPUT it first encodes two seconds of a test pattern into
# out/input.h264 (openh264enc, from gst-plugins-bad).
set -eu
. "$(dirname "$0")/need-nvcodec.sh"
need_nvcodec nvh264dec cudadownload
in=${1:-}
file=${2:-out/decoded-transposed.nv12}
mkdir -p "$(dirname "$file")"
if [ -z "$in" ]; then
  in=out/input.h264
  if ! gst-inspect-1.0 --exists openh264enc; then
    echo "$0: needs openh264enc (gstreamer1.0-plugins-bad) to make" \
      "$in: none here; pass an H.264 file instead" >&2
    exit 77
  fi
  mkdir -p out
  gst-launch-1.0 -q videotestsrc num-buffers=60 pattern=ball \
    ! video/x-raw,format=I420,width=1280,height=720 ! openh264enc \
    ! h264parse ! video/x-h264,stream-format=byte-stream \
    ! filesink location="$in"
  echo "made $in (60 frames of a test pattern)"
fi
gst-launch-1.0 -q filesrc location="$in" ! h264parse ! nvh264dec \
  ! cudatranspose ! cudadownload ! video/x-raw,format=NV12 \
  ! filesink location="$file"
echo "wrote the transposed frames of $in to $file"
