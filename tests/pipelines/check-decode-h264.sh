#!/bin/sh
# Runs pipelines/decode-h264.sh on the build's sample and compares its file
# with the decoder's frames transposed on the CPU (kernel=cpu, system
# memory). Skips (77) without nvh264dec or without the sample.
set -eu
script=$1
file=$2
sample=${CT_CHECK_H264:-}
if ! gst-inspect-1.0 --exists nvh264dec; then
  echo "SKIP: no nvh264dec (no CUDA GPU with NVDEC, or no nvcodec plugin)"
  exit 77
fi
if [ -z "$sample" ] || [ ! -e "$sample" ]; then
  echo "SKIP: no H.264 sample (the build makes it with openh264enc)"
  exit 77
fi
rm -f "$file" "$file.cpu"
"$script" "$sample" "$file"
gst-launch-1.0 -q filesrc location="$sample" ! h264parse ! nvh264dec \
  ! cudadownload ! video/x-raw,format=NV12 ! cudatranspose kernel=cpu \
  ! filesink location="$file.cpu"
[ -s "$file" ] || { echo "$file is empty"; exit 1; }
cmp "$file" "$file.cpu"
echo "decoded frames transposed in CUDA memory match the CPU's"
