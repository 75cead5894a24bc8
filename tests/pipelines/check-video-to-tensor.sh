#!/bin/sh
# Runs pipelines/video-to-tensor.sh and checks each tensor against the same
# frames as packed RGB: channel c of pixel (x, y) at c*H*W + y*W + x.
set -eu
script=$1
file=$2
rm -f "$file" "$file.rgb"
"$script" "$file" 2
gst-launch-1.0 -q videotestsrc num-buffers=2 pattern=smpte \
  ! video/x-raw,format=RGB,width=640,height=480 \
  ! filesink location="$file.rgb"
python3 - "$file" "$file.rgb" <<'PY'
import sys
chw = open(sys.argv[1], "rb").read()
rgb = open(sys.argv[2], "rb").read()
w, h, c = 640, 480, 3
frame = w * h * c
assert len(chw) == 2 * frame == len(rgb), (len(chw), len(rgb))
for f in range(2):
    a, b = chw[f * frame:(f + 1) * frame], rgb[f * frame:(f + 1) * frame]
    for ch in range(c):
        plane = a[ch * w * h:(ch + 1) * w * h]
        if plane != b[ch::c]:
            sys.exit(f"frame {f} channel {ch} differs")
print("CHW tensors match the RGB frames")
PY
