#!/bin/sh
# Runs pipelines/preprocess.sh and checks each tensor against the same frames
# as packed RGB: channel c of pixel (x, y) at c*H*W + y*W + x holds
# float32((x + float32(-127.5)) / float32(127.5)) (computed in double and
# rounded once: exact for one float32 operation).
set -eu
script=$1
file=$2
rm -f "$file" "$file.rgb"
"$script" "$file" 2
gst-launch-1.0 -q videotestsrc num-buffers=2 pattern=smpte \
  ! video/x-raw,format=RGB,width=224,height=224 \
  ! filesink location="$file.rgb"
python3 - "$file" "$file.rgb" <<'PY'
import struct, sys
chw = open(sys.argv[1], "rb").read()
rgb = open(sys.argv[2], "rb").read()
w, h, c = 224, 224, 3
frame = w * h * c
assert len(chw) == 2 * frame * 4 and len(rgb) == 2 * frame, (len(chw), len(rgb))
table = [struct.pack("<f", (x - 127.5) / 127.5) for x in range(256)]
for f in range(2):
    a = chw[f * frame * 4:(f + 1) * frame * 4]
    b = rgb[f * frame:(f + 1) * frame]
    for ch in range(c):
        want = b"".join(table[x] for x in b[ch::c])
        if a[ch * w * h * 4:(ch + 1) * w * h * 4] != want:
            sys.exit(f"frame {f} channel {ch} differs")
print("normalized CHW tensors match the RGB frames")
PY
