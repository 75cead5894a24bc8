#!/bin/sh
# Makes the README's picture, docs/readme-demo.png: the demo's test pattern
# and the frame cudatranspose makes of it, side by side at half the demo's
# size (320x180 and 180x320), each outlined in black on a white background.
# Runs on the CPU as well as on a GPU.
#
#   GST_PLUGIN_PATH=$PWD/build/gst tools/readme-picture.sh [OUTFILE]
set -eu
file=${1:-docs/readme-demo.png}
w=320
h=180
b=2      # outline
gap=24
frame="videobox fill=black top=-$b bottom=-$b left=-$b right=-$b"
gst-launch-1.0 -q compositor name=mix background=white \
    sink_0::xpos=0 sink_0::ypos=$(( (w - h) / 2 )) \
    sink_1::xpos=$(( w + 2 * b + gap )) sink_1::ypos=0 \
  ! "video/x-raw,width=$(( w + h + 4 * b + gap )),height=$(( w + 2 * b ))" \
  ! videoconvert ! pngenc ! filesink location="$file" \
  videotestsrc num-buffers=1 pattern=smpte \
  ! "video/x-raw,format=I420,width=$w,height=$h,framerate=1/1" ! tee name=t \
  t. ! queue ! $frame ! mix.sink_0 \
  t. ! queue ! cudatranspose ! $frame ! mix.sink_1
echo "wrote $file"
