#!/bin/sh
# Frames shared between two processes in CUDA memory (GStreamer 1.24 and
# later): a server puts them on the GPU and serves them with cudaipcsink;
# a client takes them with cudaipcsrc and turns them 90 degrees with
# cudatranspose, with no copy through the host between the two (the client
# maps the server's GPU memory). Needs nvcodec and a CUDA GPU.
#
#   pipelines/cuda-ipc.sh [OUTFILE] [FRAMES] [INFILE WIDTH HEIGHT]
#
# The server sends FRAMES (default 30) NV12 frames, 30 a second: those of
# videotestsrc at 1280x720, or those of INFILE (raw NV12, WIDTH x HEIGHT).
# The client starts first and writes what it gets, turned, to OUTFILE as
# raw I420 (videoconvert lays it out without row padding); frames served
# before it has connected are not sent to it.
set -eu
. "$(dirname "$0")/need-nvcodec.sh"
version=$(gst-launch-1.0 --version | sed -n 's/^GStreamer \([0-9]*\.[0-9]*\).*/\1/p')
case "$version" in
  1.2[0-3]|1.1*)
    echo "$0: cudaipcsink and cudaipcsrc came with GStreamer 1.24; this is" \
      "$version" >&2
    exit 77 ;;
esac
need_nvcodec cudaupload cudadownload cudaipcsink cudaipcsrc
file=${1:-out/turned-ipc.i420}
frames=${2:-30}
if [ $# -ge 5 ]; then
  src="filesrc location=$3 ! rawvideoparse format=nv12 width=$4 height=$5 \
    framerate=30/1 ! identity sync=true"
else
  src="videotestsrc num-buffers=$frames is-live=true pattern=ball \
    ! video/x-raw,format=NV12,width=1280,height=720,framerate=30/1"
fi
mkdir -p "$(dirname "$file")"
sock=${TMPDIR:-/tmp}/cudatranspose-ipc-$$
# the client: CUDA memory in and out of cudatranspose
gst-launch-1.0 -q cudaipcsrc address="$sock" \
  ! "video/x-raw(memory:CUDAMemory)" ! cudatranspose video-direction=90r \
  ! "video/x-raw(memory:CUDAMemory)" ! cudadownload ! videoconvert \
  ! video/x-raw,format=I420 ! filesink location="$file" &
client=$!
# the server (the client tries to connect every 100 ms until it is up)
gst-launch-1.0 -q $src ! cudaupload ! cudaipcsink address="$sock"
wait $client
echo "wrote $(($(wc -c < "$file"))) bytes of turned I420 frames to $file, shared in CUDA memory"
