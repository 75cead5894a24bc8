#!/bin/sh
# Makes the clips bench/bench-decode reads: DIR/1080p.h264 and DIR/4k.h264,
# FRAMES frames (default 300) of a moving test pattern at 30 frames/s,
# byte-stream H.264 from openh264enc (gst-plugins-bad). Run it where
# openh264enc is (a Debian 12 build machine has it) and carry DIR to the
# GPU host, whose GStreamer bundle has no H.264 encoder.
#
#   tools/make-h264.sh DIR [FRAMES]
set -eu
dir=${1:?usage: tools/make-h264.sh DIR [FRAMES]}
frames=${2:-300}
gst-inspect-1.0 openh264enc > /dev/null 2>&1 || {
  echo "no openh264enc here: install gstreamer1.0-plugins-bad" >&2
  exit 1
}
mkdir -p "$dir"
for clip in 1080p:1920:1080 4k:3840:2160; do
  name=${clip%%:*}; size=${clip#*:}; w=${size%%:*}; h=${size#*:}
  gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=ball \
    ! video/x-raw,format=I420,width="$w",height="$h",framerate=30/1 \
    ! openh264enc bitrate=20000000 ! h264parse \
    ! video/x-h264,stream-format=byte-stream ! filesink location="$dir/$name.h264"
  echo "made $dir/$name.h264 ($frames frames, ${w}x$h)"
done
