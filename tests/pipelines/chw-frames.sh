#!/bin/sh
# What check-video-to-tensor.sh and check-preprocess.sh share: runs SCRIPT
# (a pipelines/ example writing 2 frames of W x H RGB video as CHW tensors
# to FILE), writes the same 2 frames as packed RGB beside it, and checks
# every tensor against them: channel c of pixel (x, y) at c*H*W + y*W + x.
# KIND says what that element holds: "uint8", the byte as it was, or
# "normalized", float32((x + float32(-127.5)) / float32(127.5)) (computed
# in double and rounded once: exact for one float32 operation).
#
#   chw-frames.sh SCRIPT FILE W H KIND
set -eu
script=$1
file=$2
w=$3
h=$4
kind=$5
rm -f "$file" "$file.rgb"
"$script" "$file" 2
gst-launch-1.0 -q videotestsrc num-buffers=2 pattern=smpte \
  ! "video/x-raw,format=RGB,width=$w,height=$h" \
  ! filesink location="$file.rgb"
python3 - "$file" "$file.rgb" "$w" "$h" "$kind" <<'PY'
import struct, sys
chw = open(sys.argv[1], "rb").read()
rgb = open(sys.argv[2], "rb").read()
w, h, kind, c = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], 3
es = 4 if kind == "normalized" else 1
table = ([struct.pack("<f", (x - 127.5) / 127.5) for x in range(256)]
         if kind == "normalized" else [bytes([x]) for x in range(256)])
frame = w * h * c
assert len(chw) == 2 * frame * es and len(rgb) == 2 * frame, (len(chw), len(rgb))
for f in range(2):
    a = chw[f * frame * es:(f + 1) * frame * es]
    b = rgb[f * frame:(f + 1) * frame]
    for ch in range(c):
        want = b"".join(table[x] for x in b[ch::c])
        if a[ch * w * h * es:(ch + 1) * w * h * es] != want:
            sys.exit(f"frame {f} channel {ch} differs")
print(f"{kind} CHW tensors match the RGB frames")
PY
