#!/bin/sh
# Decodes H.264 into a network's input: normalized float32 CHW tensors,
# each value (x - 127.5) / 127.5 of the frame's RGB, converted from the
# decoder's YUV as videoconvert would, laid out and normalized in one pass.
# With NVDEC (nvh264dec) the frames stay in CUDA memory until the tensors
# come back; without it a software decoder (openh264dec, avdec_h264) feeds
# the element in system memory. Put NNStreamer's tensor_filter where the
# filesink is to run a model on them.
#
#   pipelines/decode-to-tensor.sh [INPUT.h264 [OUTFILE]]
#
# Without INPUT it first encodes one second of a 640x360 test pattern
# into out/input-360p.h264 (openh264enc, from gst-plugins-bad).
set -eu
command -v gst-inspect-1.0 >/dev/null || {
  echo "$0: needs GStreamer's tools: install gstreamer1.0-tools" >&2; exit 77; }
in=${1:-}
file=${2:-out/decoded.f32.chw}
mkdir -p "$(dirname "$file")"
decoder=
for d in nvh264dec openh264dec avdec_h264; do
  if gst-inspect-1.0 --exists $d; then decoder=$d; break; fi
done
if [ -z "$decoder" ]; then
  echo "$0: needs an H.264 decoder (nvh264dec, openh264dec from" \
    "gstreamer1.0-plugins-bad, or avdec_h264 from gstreamer1.0-libav)" >&2
  exit 77
fi
if [ -z "$in" ]; then
  in=out/input-360p.h264
  if ! gst-inspect-1.0 --exists openh264enc; then
    echo "$0: needs openh264enc (gstreamer1.0-plugins-bad) to make" \
      "$in: none here; pass an H.264 file instead" >&2
    exit 77
  fi
  mkdir -p out
  gst-launch-1.0 -q videotestsrc num-buffers=30 pattern=ball \
    ! video/x-raw,format=I420,width=640,height=360 ! openh264enc \
    ! h264parse ! video/x-h264,stream-format=byte-stream \
    ! filesink location="$in"
  echo "made $in (30 frames of a test pattern)"
fi
gst-launch-1.0 -q filesrc location="$in" ! h264parse ! $decoder \
  ! cudatranspose arithmetic=typecast:float32,add:-127.5,div:127.5 \
  ! other/tensors,format=static ! filesink location="$file"
echo "decoded $in with $decoder into normalized float32 CHW tensors in $file"
