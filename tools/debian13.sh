#!/bin/sh
# Builds and tests this checkout against Debian 13's GStreamer (1.26), on a
# Debian 12 machine (or any Debian-like one with apt), as root:
#
#   tools/debian13.sh test     ./setup.sh test inside a Debian 13 root
#   tools/debian13.sh demo     ./setup.sh demo there
#   tools/debian13.sh asan     ./setup.sh asan there
#   tools/debian13.sh shell    a shell there, the checkout in /src
#
# The root is made once with mmdebstrap from Debian's own packages (apt
# only: nothing is built from source) in build-debian13/root (DEBIAN13_ROOT
# overrides), and setup.sh installs the rest inside it as on a fresh
# machine. The checkout is bound at /src and the host's CUDA toolkit at
# /usr/local/cuda (CUDA_HOME, else the folder nvcc on PATH says it runs
# from, else /usr/local/cuda: the first whose bin/ holds nvcc.profile);
# the build goes to build-debian13/build. The mounts live in a mount
# namespace of their own and vanish with it.
set -eu
cd "$(dirname "$0")/.."
what=${1:-test}
case "$what" in
  demo|test|asan|shell) ;;
  *) echo "usage: $0 test|demo|asan|shell" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  echo "$0: run as root (mmdebstrap, chroot and bind mounts need it)" >&2
  exit 1
fi
root=${DEBIAN13_ROOT:-$PWD/build-debian13/root}
mirror=${DEBIAN13_MIRROR:-http://deb.debian.org/debian}

# The toolkit is the folder whose bin/ holds nvcc beside its nvcc.profile:
# the nvcc first on PATH may be a wrapper script elsewhere (/usr/local/bin)
# that runs the real one by a path the root does not have.
# nvcc names its own folder (_HERE_) when asked for a dry run.
cuda=""
here=$(nvcc --dryrun -E -x c /dev/null 2>&1 | sed -n 's/^#\$ _HERE_=//p' |
  head -n 1) || here=""
for d in ${CUDA_HOME:-} ${CUDA_PATH:-} ${here:+"$here/.."} /usr/local/cuda; do
  if [ -x "$d/bin/nvcc" ] && [ -f "$d/bin/nvcc.profile" ]; then
    cuda=$(readlink -f "$d")
    break
  fi
done
if [ -z "$cuda" ]; then
  echo "$0: no CUDA toolkit found (set CUDA_HOME, put its bin/ on PATH, or" \
    "install it in /usr/local/cuda)" >&2
  exit 1
fi

if [ ! -e "$root/.made" ]; then
  if ! command -v mmdebstrap >/dev/null 2>&1; then
    echo "installing: mmdebstrap"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends mmdebstrap
  fi
  rm -rf "$root"
  mkdir -p "$(dirname "$root")"
  echo "making a Debian 13 root in $root"
  mmdebstrap --mode=root --variant=apt --include=ca-certificates \
    trixie "$root" "$mirror"
  mkdir -p "$root/src" "$root/usr/local/cuda"
  touch "$root/.made"
fi

# In the root: setup.sh as on a fresh Debian 13 machine, building into
# build-debian13/build (a Debian 12 build folder cannot be reused there).
case "$what" in
  shell) inside="cd /src && exec sh" ;;
  *) inside="cd /src && BUILD_DIR=build-debian13/build \
       ASAN_BUILD_DIR=build-debian13/build-asan ./setup.sh $what" ;;
esac
export root cuda inside
exec unshare --mount sh -eu -c '
  mount --bind "$PWD" "$root/src"
  mount --bind "$cuda" "$root/usr/local/cuda"
  mount --bind /dev "$root/dev"
  mount -t proc proc "$root/proc"
  touch "$root/etc/resolv.conf"
  mount --bind /etc/resolv.conf "$root/etc/resolv.conf"
  exec chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" \
    PATH=/usr/local/cuda/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    MESON_OPTIONS="${MESON_OPTIONS:-}" sh -c "$inside"'
