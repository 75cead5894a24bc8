#!/bin/sh
# Runs pipelines/rotate.sh; checks that both files hold every frame, and that
# the upright clip is what videoflip video-direction=auto makes of the same
# tagged stream, byte for byte.
set -eu
script=$1
out=$2
rm -rf "$out"
"$script" "$out" 4
check_size() {
  size=$(wc -c < "$1")
  [ "$size" -eq "$2" ] || { echo "$1 is $size bytes, not $2"; exit 1; }
}
check_size "$out/upright.i420" $((4 * 360 * 640 * 3 / 2))
check_size "$out/live-90r.nv12" $((4 * 720 * 1280 * 3 / 2))
gst-launch-1.0 -q videotestsrc num-buffers=4 pattern=smpte \
  ! video/x-raw,format=I420,width=640,height=360 \
  ! taginject tags="image-orientation=rotate-90" \
  ! videoflip video-direction=auto \
  ! filesink location="$out/videoflip.i420"
# (and both turned the frames: the stream as stored is not what came out)
gst-launch-1.0 -q videotestsrc num-buffers=4 pattern=smpte \
  ! video/x-raw,format=I420,width=640,height=360 \
  ! filesink location="$out/stored.i420"
if cmp -s "$out/upright.i420" "$out/stored.i420"; then
  echo "the upright clip is the stored one: nothing was turned"; exit 1
fi
cmp "$out/upright.i420" "$out/videoflip.i420" ||
  { echo "the upright clip differs from videoflip's"; exit 1; }
echo "upright clip: same as videoflip video-direction=auto, 4 frames"
