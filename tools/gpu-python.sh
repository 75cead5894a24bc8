#!/bin/bash
# Add Debian 12's Python 3.11, PyGObject, numpy and GStreamer's
# introspection data to a GPU-host bundle (the folder that
# ../shared/gpu/make-bundle.sh makes), so that pipelines/tensors-app.py runs
# on a host without PyGObject. Run here, where apt-get works:
#
#   tools/gpu-python.sh .gpu          # about 14 MB of packages
#
# It fills BUNDLE_DIR/debs-python/ and writes BUNDLE_DIR/enter-python.sh.
# On the GPU host, after .gpu/enter.sh:
#
#   source .gpu/enter.sh && source .gpu/enter-python.sh
#   python3-bundle pipelines/tensors-app.py
#   meson test -C BUILD --no-rebuild --wrapper python3-bundle tensors-app
#
# enter-python.sh unpacks the packages under /tmp/gst/py (never into /) and
# puts python3-bundle on PATH. Only python3-bundle sees the bundle's Python
# paths and libraries (PYTHONPATH, GI_TYPELIB_PATH, LD_LIBRARY_PATH): the
# host's own python3 (PyTorch's) is left as it is. python3-bundle given a
# python interpreter as its first argument (as `meson test --wrapper` passes
# the test's /usr/bin/python3) drops it and runs the rest.
set -euo pipefail
DIR=${1:?usage: tools/gpu-python.sh BUNDLE_DIR (made by make-bundle.sh)}
[ -d "$DIR/debs" ] && [ -f "$DIR/enter.sh" ] ||
  { echo "$DIR: not a bundle (no debs/ or enter.sh): run make-bundle.sh first" >&2; exit 1; }
# The interpreter, PyGObject, numpy and the typelibs tensors-app.py loads
# (GLib, GObject, Gst, GstApp); then the libraries they need that the
# bundle does not hold: zlib and expat (linked into python3.11), BLAS,
# LAPACK and gfortran (numpy), libgirepository (gi). libffi, GLib and
# GStreamer come from debs/. The other libraries libpython3.11-stdlib
# names serve modules tensors-app.py does not import (sqlite3, readline,
# curses, lzma, bz2, dbm, ssl): left out, for size.
PKGS="python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
 python3-gi python3-numpy gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
 gir1.2-glib-2.0 libgirepository-1.0-1
 zlib1g libexpat1 libblas3 liblapack3 libgfortran5 libquadmath0"
rm -rf "$DIR/debs-python"
mkdir -p "$DIR/debs-python"
(cd "$DIR/debs-python" && apt-get download $PKGS >/dev/null 2>&1) || {
  echo "apt-get download failed (run apt-get update first?)" >&2; exit 1; }
cat > "$DIR/enter-python.sh" <<'ENTER'
# source me on the GPU host after enter.sh: python3-bundle, Debian 12's
# python3.11 with PyGObject and numpy, from debs-python/ beside this file.
# GST_PY_ROOT (default /tmp/gst/py) is where the packages are unpacked.
_b=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_r=${GST_PY_ROOT:-/tmp/gst/py}
_m=$_r/.done-$(ls "$_b"/debs-python | md5sum | cut -c1-12)
if [ ! -e "$_m" ]; then
  rm -rf "$_r"; mkdir -p "$_r/bin"
  for f in "$_b"/debs-python/*.deb; do dpkg-deb -x "$f" "$_r"; done
  cat > "$_r/bin/python3-bundle" <<PY
#!/bin/sh
# python3.11 of $_r, with its own module, typelib and library paths
case "\${1##*/}" in python|python3|python3.[0-9]*) shift ;; esac
l=$_r/usr/lib/x86_64-linux-gnu
export PYTHONPATH=$_r/usr/lib/python3/dist-packages
export PYTHONNOUSERSITE=1
unset PYTHONHOME
export GI_TYPELIB_PATH=\$l/girepository-1.0
export LD_LIBRARY_PATH=\$l:\$l/blas:\$l/lapack:$_r/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
exec $_r/usr/bin/python3.11 "\$@"
PY
  chmod +x "$_r/bin/python3-bundle"
  touch "$_m"
fi
export PATH=$_r/bin:$PATH
unset _b _r _m
ENTER
echo "added $(du -sh "$DIR/debs-python" | cut -f1) to $DIR; on the GPU host: source $DIR/enter.sh && source $DIR/enter-python.sh, then python3-bundle"
