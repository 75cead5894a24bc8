#!/bin/sh
# Runs pipelines/cuda-ipc.sh on a frame of random NV12 served 30 times (the
# client may connect after the first few) and checks every frame the
# client wrote against videoflip's turn of that frame, converted to I420
# the same way; at least half must arrive. Skips (77) where the example
# does: no CUDA GPU, no nvcodec, or GStreamer before 1.24.
set -eu
script=$1
file=$2
w=328 h=184   # (the turned frame's rows, 184 and 92 bytes, need no padding)
mkdir -p "$(dirname "$file")"
rm -f "$file" "$file".*
head -c $((w * h * 3 / 2)) /dev/urandom > "$file.frame"
i=0
while [ $i -lt 30 ]; do cat "$file.frame"; i=$((i + 1)); done > "$file.in"
rc=0
timeout 120 "$script" "$file" 30 "$file.in" $w $h || rc=$?
[ $rc -eq 0 ] || exit $rc
gst-launch-1.0 -q filesrc location="$file.frame" \
  ! rawvideoparse format=nv12 width=$w height=$h \
  ! videoflip video-direction=90r ! videoconvert ! video/x-raw,format=I420 \
  ! filesink location="$file.ref"
size=$(wc -c < "$file.ref")
total=$(wc -c < "$file")
if [ "$size" -ne $((w * h * 3 / 2)) ] || [ $((total % size)) -ne 0 ]; then
  echo "FAIL: $total bytes out, not whole turned frames of $size bytes" >&2
  exit 1
fi
n=$((total / size))
if [ $n -lt 15 ]; then
  echo "FAIL: $n of 30 frames reached the client" >&2
  exit 1
fi
i=0
while [ $i -lt $n ]; do
  if ! cmp -s -i "$((i * size)):0" -n "$size" "$file" "$file.ref"; then
    echo "FAIL: frame $i differs from videoflip's" >&2
    exit 1
  fi
  i=$((i + 1))
done
echo "$n frames shared in CUDA memory between two processes, each turned as videoflip turns it"
