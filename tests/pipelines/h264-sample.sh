# shellcheck shell=sh disable=SC2034
# Sourced by the checks of the decoding examples (check-decode-to-tensor*.sh):
# $sample, the build's H.264 sample (CT_CHECK_H264), else a skip (77); and
# $decoder, the decoder the examples take (the first of theirs there).
sample=${CT_CHECK_H264:-}
if [ -z "$sample" ] || [ ! -e "$sample" ]; then
  echo "SKIP: no H.264 sample (the build makes it with openh264enc)"
  exit 77
fi
decoder=
for d in nvh264dec openh264dec avdec_h264; do
  if gst-inspect-1.0 --exists $d; then decoder=$d; break; fi
done
