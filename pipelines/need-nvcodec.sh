# Sourced by the scripts of pipelines/ that need nvcodec's elements:
#   . "$(dirname "$0")/need-nvcodec.sh"; need_nvcodec ELEMENT...
# (sourcing it already checks that gst-inspect-1.0 is there)
# Says what is missing, in one line, and exits 77 (a skip, to the tests)
# where gst-launch-1.0 would dump an error: nvcodec registers its elements
# only where the NVIDIA driver finds a CUDA GPU.
need_nvcodec() {
  all= missing= n=0
  for e in "$@"; do
    all="$all${all:+, }$e"
    gst-inspect-1.0 --exists "$e" && continue
    missing="$missing${missing:+, }$e" n=$((n + 1))
  done
  [ -z "$missing" ] && return 0
  [ $n -eq $# ] && missing="none" || missing="no $missing"
  if gst-inspect-1.0 nvcodec >/dev/null 2>&1; then
    why="nvcodec is installed but found no CUDA GPU or driver"
  else
    why="no nvcodec plugin: install gstreamer1.0-plugins-bad"
  fi
  echo "$0: needs an NVIDIA GPU and gst-plugins-bad's nvcodec elements" \
    "($all): $missing here ($why)" >&2
  exit 77
}
command -v gst-inspect-1.0 >/dev/null || {
  echo "$0: needs GStreamer's tools: install gstreamer1.0-tools" >&2; exit 77; }
