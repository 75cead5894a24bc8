#!/bin/sh
# Runs pipelines/decode-to-tensor.sh on the build's sample (640x360 H.264)
# and checks every tensor against the same decoder's frames converted by
# videoconvert (dither=none) to RGB, normalized here: channel c of pixel
# (x, y) at c*H*W + y*W + x (CHW, the default), or with a third argument
# hwc (the script's LAYOUT=hwc) at (y*W + x)*3 + c, each
# float32((v + float32(-127.5)) / float32(127.5)). Skips (77) without a
# decoder or the sample.
set -eu
script=$1
file=$2
layout=${3:-chw}
. "$(dirname "$0")/h264-sample.sh"
rm -f "$file" "$file.rgb"
LAYOUT=$layout "$script" "$sample" "$file"
down=
[ "$decoder" = nvh264dec ] && down="cudadownload !"
gst-launch-1.0 -q filesrc location="$sample" ! h264parse ! $decoder ! $down \
  videoconvert dither=none ! video/x-raw,format=RGB \
  ! filesink location="$file.rgb"
python3 - "$file" "$file.rgb" 640 360 "$layout" <<'PY'
import struct, sys
out = open(sys.argv[1], "rb").read()
rgb = open(sys.argv[2], "rb").read()
w, h, c = int(sys.argv[3]), int(sys.argv[4]), 3
layout = sys.argv[5]
table = [struct.pack("<f", (x - 127.5) / 127.5) for x in range(256)]
frame = w * h * c
frames = len(rgb) // frame
assert frames > 0 and len(rgb) == frames * frame, len(rgb)
assert len(out) == frames * frame * 4, (len(out), frames)
for f in range(frames):
    a = out[f * frame * 4:(f + 1) * frame * 4]
    b = rgb[f * frame:(f + 1) * frame]
    if layout == "hwc":
        if a != b"".join(table[x] for x in b):
            sys.exit(f"frame {f} differs from videoconvert's")
        continue
    for ch in range(c):
        want = b"".join(table[x] for x in b[ch::c])
        if a[ch * w * h * 4:(ch + 1) * w * h * 4] != want:
            sys.exit(f"frame {f} channel {ch} differs from videoconvert's")
print(f"{frames} decoded frames as normalized {layout.upper()} tensors "
      "match videoconvert's RGB")
PY
