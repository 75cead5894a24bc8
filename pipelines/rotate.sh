#!/bin/sh
# Rotation, as a phone or a sideways camera needs it:
# 1. a portrait clip, stored landscape (640x360) with the image-orientation
#    tag a phone writes (rotate-90), turned upright by video-direction=auto,
#    which also takes the tag out so no player turns it a second time (no
#    caps filter after it: the size is known only once the tag arrives);
# 2. a live stream (is-live, 30 frames/s) turned 90 degrees clockwise.
#
#   pipelines/rotate.sh [OUTDIR] [FRAMES]
set -eu
out=${1:-out/rotate}
frames=${2:-30}
mkdir -p "$out"
gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte \
  ! video/x-raw,format=I420,width=640,height=360 \
  ! taginject tags="image-orientation=rotate-90" \
  ! cudatranspose video-direction=auto \
  ! filesink location="$out/upright.i420"
echo "wrote $frames upright 360x640 I420 frames to $out/upright.i420"
gst-launch-1.0 -q videotestsrc is-live=true num-buffers="$frames" \
  pattern=ball ! video/x-raw,format=NV12,width=1280,height=720,framerate=30/1 \
  ! cudatranspose video-direction=90r \
  ! video/x-raw,width=720,height=1280 \
  ! filesink location="$out/live-90r.nv12"
echo "wrote $frames live frames turned 90r, 720x1280 NV12, to $out/live-90r.nv12"
