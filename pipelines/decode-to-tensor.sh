#!/bin/sh
# Decodes H.264 into a network's input: normalized float32 CHW tensors
# (LAYOUT=hwc: HWC), each value (x - 127.5) / 127.5 of the frame's RGB,
# converted from the decoder's YUV as videoconvert would, laid out and
# normalized in one pass.
# With NVDEC (nvh264dec) the frames stay in CUDA memory until the tensors
# come back; without it a software decoder (openh264dec, avdec_h264) feeds
# the element in system memory. The tensors go to OUTFILE; with NNStreamer
# installed, MODEL runs a model on them first (NNStreamer's tensor_filter)
# and OUTFILE gets the model's output tensors.
#
#   pipelines/decode-to-tensor.sh [INPUT.h264 [OUTFILE]]
#   MODEL=FILE [FRAMEWORK=NAME] [SIZE=WxH] [LAYOUT=hwc]
#     pipelines/decode-to-tensor.sh ...
#
# Without INPUT it first encodes one second of a 640x360 test pattern
# into out/input-360p.h264 (openh264enc, from gst-plugins-bad).
# MODEL: the model's file, run by tensor_filter's FRAMEWORK (tensorflow2-
# lite, pytorch, custom, ...; by default NNStreamer picks it by the file's
# name). The model takes one float32 tensor of dimensions W:H:3:1
# (NNStreamer's order, innermost first: planes of red, green and blue),
# or with LAYOUT=hwc 3:W:H:1 (each pixel's red, green and blue side by
# side, as NHWC models such as most TensorFlow Lite ones take), the
# frame's size; SIZE=WxH scales the frames to it first (videoscale, on
# the CPU, before the element).
set -eu
command -v gst-inspect-1.0 >/dev/null || {
  echo "$0: needs GStreamer's tools: install gstreamer1.0-tools" >&2; exit 77; }
layout=${LAYOUT:-chw}
case "$layout" in
  chw | CHW) permutation='' name=CHW ext=chw ;;
  hwc | HWC) permutation=permutation=0:1:2:3 name=HWC ext=hwc ;;
  *) echo "$0: LAYOUT=$layout: give chw (planes, the default) or hwc" \
      "(each pixel's channels side by side)" >&2
    exit 1 ;;
esac
in=${1:-}
file=${2:-out/decoded.f32.$ext}
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
model=${MODEL:-}
if [ -n "$model" ]; then
  if ! gst-inspect-1.0 --exists tensor_filter; then
    echo "$0: MODEL needs NNStreamer's tensor_filter, and GStreamer finds" \
      "none here: install NNStreamer or add its plugins to" \
      "GST_PLUGIN_PATH" >&2
    exit 77
  fi
  if [ ! -r "$model" ]; then
    echo "$0: MODEL=$model: no such file" >&2
    exit 1
  fi
fi
# (the pipeline as separate arguments: gst-launch-1.0 quotes each one, so
# paths may hold spaces)
set -- filesrc location="$in" ! h264parse ! "$decoder" !
if [ -n "${SIZE:-}" ]; then
  w=${SIZE%x*} h=${SIZE#*x}
  case "$SIZE" in *x*) ;; *) w= ;; esac
  case "$w" in '' | *[!0-9]*) w= ;; esac
  case "$h" in '' | *[!0-9]*) w= ;; esac
  if [ -z "$w" ] || [ "$w" -eq 0 ] || [ "$h" -eq 0 ]; then
    echo "$0: SIZE=$SIZE: give the model's input as WIDTHxHEIGHT," \
      "e.g. SIZE=224x224" >&2
    exit 1
  fi
  set -- "$@" videoscale ! "video/x-raw,width=$w,height=$h" !
fi
set -- "$@" cudatranspose arithmetic=typecast:float32,add:-127.5,div:127.5 \
  ${permutation:+"$permutation"} ! other/tensors,format=static !
if [ -n "$model" ]; then
  set -- "$@" tensor_filter "framework=${FRAMEWORK:-auto}" "model=$model" !
fi
gst-launch-1.0 -q "$@" filesink location="$file"
if [ -n "$model" ]; then
  echo "decoded $in with $decoder into normalized float32 $name" \
    "tensors, ran $model on them, its output in $file"
else
  echo "decoded $in with $decoder into normalized float32 $name" \
    "tensors in $file"
fi
