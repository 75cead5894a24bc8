#!/bin/sh
# The front door, for a fresh Debian 12 machine with the CUDA toolkit:
#
#   ./setup.sh demo    install what is missing, build, run the PNG demo
#   ./setup.sh test    install what is missing, build, run every test
#   ./setup.sh asan    the same, then the CPU element tests (the fuzz test
#                      among them) again under AddressSanitizer, in a
#                      second build (build-asan/, for one GPU architecture)
#
# Builds into build/ (BUILD_DIR overrides). Extra Meson options can be given
# in MESON_OPTIONS, e.g. MESON_OPTIONS=-Dgpu_archs=90 for an H100/H200 only.
# The benchmarks (bench/) are built only when asked for:
# MESON_OPTIONS=-Dbench=enabled.
set -eu
cd "$(dirname "$0")"
what=${1:-}
case "$what" in
  demo|test|asan) ;;
  *) echo "usage: $0 demo|test|asan" >&2; exit 2 ;;
esac
build=${BUILD_DIR:-build}

# Debian packages: the GStreamer development files (check and cuda are in
# base and bad), the tools and plugins the demo uses, the build tools, and
# PyGObject with numpy for the Python example.
pkgs="libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev gstreamer1.0-tools gstreamer1.0-plugins-base
  gstreamer1.0-plugins-good gstreamer1.0-plugins-bad meson ninja-build
  pkg-config gcc g++ python3-gi python3-numpy gir1.2-gstreamer-1.0
  gir1.2-gst-plugins-base-1.0"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends $missing
fi

# The CUDA toolkit (nvcc and its static runtime) builds the kernels.
if ! command -v nvcc >/dev/null 2>&1; then
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    [ -x "$d/nvcc" ] && PATH="$d:$PATH" && break
  done
fi
if ! command -v nvcc >/dev/null 2>&1; then
  echo "nvcc not found: install the CUDA toolkit (e.g. in /usr/local/cuda)" >&2
  exit 1
fi
export PATH

if [ ! -f "$build/build.ninja" ]; then
  opts=${MESON_OPTIONS:-}
  # On a machine with an NVIDIA GPU, only that GPU's architecture (the
  # default list of five takes several times as long to compile), if it is
  # one gpu_archs takes (its choices in meson_options.txt); another (a
  # newer GPU) runs the PTX of the default list's newest.
  archs=$(sed -n "/'gpu_archs'/,/value/s/.*choices : \[\(.*\)\],/\1/p" \
    meson_options.txt | tr -d "' " | tr ',' ' ')
  case "$opts" in
    *gpu_archs*) ;;
    *) cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader \
          2>/dev/null | head -n 1 | tr -d '. ') || cap=""
       case "$cap" in
         ''|*[!0-9]*) ;;
         *) case " $archs " in
              *" $cap "*)
                echo "building for this machine's GPU only (sm_$cap; set" \
                  "MESON_OPTIONS=-Dgpu_archs=... for others)"
                opts="$opts -Dgpu_archs=$cap" ;;
              *) echo "sm_$cap is not one of gpu_archs ($archs): building" \
                   "the default list (a newer GPU runs its PTX)" ;;
            esac ;;
       esac ;;
  esac
  # shellcheck disable=SC2086
  meson setup "$build" $opts
fi
ninja -C "$build"

# Why each skipped test skipped, from the log of `meson test -C $1` (its
# console shows only "SKIP").
skip_reasons () {
  py=python3
  [ -x /usr/bin/python3 ] && py=/usr/bin/python3
  "$py" - "$1/meson-logs/testlog.json" <<'PY' || true
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t.get("result") != "SKIP":
        continue
    out = [l for l in t.get("stdout", "").splitlines() if l.strip()]
    why = [l for l in out if l.startswith("SKIP")] or out[-1:] or ["(no reason printed)"]
    print("skipped %s: %s" % (t["name"].split(" / ")[-1], why[0]))
PY
}

# Folder $1 as an absolute path (BUILD_DIR and ASAN_BUILD_DIR may be
# either).
absolute () {
  case "$1" in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

# Use the plugin from the build folder, with a registry of its own.
build_path=$(absolute "$build")
export GST_PLUGIN_PATH_1_0="$build_path/gst"
export GST_REGISTRY_1_0="$build_path/registry.bin"
case "$what" in
  demo) exec pipelines/png-demo.sh out ;;
  test) meson test -C "$build" --print-errorlogs && rc=0 || rc=$?
        skip_reasons "$build"
        # for .ci/run, which reads the status through a pipe
        echo "__rc=$rc"
        exit "$rc" ;;
  asan)
    asan=${ASAN_BUILD_DIR:-build-asan}
    if [ ! -f "$asan/build.ninja" ]; then
      # its tests are the CPU ones: the kernels' PTX alone, not their SASS
      meson setup "$asan" -Db_sanitize=address -Db_lundef=false \
        -Dgpu_archs=90 -Dgpu_sass=false
    fi
    ninja -C "$asan"
    # The plugin scan runs in the test process (a scanner without ASan
    # cannot load the plugin) and sees only the plugins the tests use, so
    # that leaks reported are the tests' and ours, not every plugin's.
    plugins="$(absolute "$asan")/system-plugins"
    mkdir -p "$plugins"
    for p in coreelements app videofilter videotestsrc videoconvertscale; do
      ln -sf "$(pkg-config --variable=pluginsdir gstreamer-1.0)/libgst$p.so" \
        "$plugins/"
    done
    rm -f "$asan"/tests/registry*.bin
    export GST_PLUGIN_SYSTEM_PATH_1_0="$plugins" GST_REGISTRY_FORK=no
    # huge sizes from the fuzz test must fail as NULL, not abort ASan
    export ASAN_OPTIONS=allocator_may_return_null=1:protect_shadow_gap=0
    meson test -C "$asan" --suite cpu --no-suite pipelines \
      --no-suite nnstreamer --print-errorlogs \
      && rc=0 || rc=$?
    skip_reasons "$asan"
    echo "__rc=$rc"
    exit "$rc" ;;
esac
