#!/bin/sh
# Runs pipelines/decode-to-tensor.sh with a model (MODEL: the tests' own
# custom filter, tests/nnstreamer/channel-means.c, in CT_CHECK_MODEL) and
# SIZE (the frames scaled to 160x90 first) on the build's sample, and
# checks the model's every output: each plane's mean of the normalized
# tensor, computed here from the same decoder's frames scaled by
# videoscale and converted by videoconvert (dither=none) to RGB, each
# value float32((v + float32(-127.5)) / float32(127.5)), summed in double
# in order, divided and rounded to float32. Skips (77) without NNStreamer,
# the model, a decoder or the sample.
set -eu
script=$1
file=$2
. "$(dirname "$0")/h264-sample.sh"
if [ -z "${CT_CHECK_MODEL:-}" ]; then
  echo "SKIP: no NNStreamer where the build looked (pkg-config nnstreamer)," \
    "so no model built to run"
  exit 77
fi
if ! gst-inspect-1.0 --exists tensor_filter; then
  echo "SKIP: NNStreamer's tensor_filter not found (GST_PLUGIN_PATH_1_0:" \
    "${GST_PLUGIN_PATH_1_0:-unset})"
  exit 77
fi
w=160 h=90
rm -f "$file" "$file.rgb"
mkdir -p "$(dirname "$file")"
MODEL=$CT_CHECK_MODEL FRAMEWORK=custom SIZE=${w}x$h "$script" "$sample" \
  "$file"
gst-launch-1.0 -q filesrc location="$sample" ! h264parse ! $decoder \
  ! videoscale ! video/x-raw,width=$w,height=$h \
  ! videoconvert dither=none ! video/x-raw,format=RGB \
  ! filesink location="$file.rgb"
python3 - "$file" "$file.rgb" $w $h <<'PY'
import struct, sys
got = open(sys.argv[1], "rb").read()
rgb = open(sys.argv[2], "rb").read()
w, h, c = int(sys.argv[3]), int(sys.argv[4]), 3
table = [struct.unpack("<f", struct.pack("<f", (x - 127.5) / 127.5))[0]
         for x in range(256)]
frame = w * h * c
frames = len(rgb) // frame
assert frames > 0 and len(rgb) == frames * frame, len(rgb)
assert len(got) == frames * c * 4, (len(got), frames)
for f in range(frames):
    b = rgb[f * frame:(f + 1) * frame]
    for ch in range(c):
        s = 0.0
        for x in b[ch::c]:
            s += table[x]
        want = struct.pack("<f", s / (w * h))
        at = (f * c + ch) * 4
        if got[at:at + 4] != want:
            sys.exit(f"frame {f} channel {ch}: the model gave "
                     f"{struct.unpack('<f', got[at:at + 4])[0]!r}, "
                     f"want {struct.unpack('<f', want)[0]!r}")
print(f"{frames} decoded frames scaled to {w}x{h}, through the model: "
      "every plane's mean as computed here")
PY
