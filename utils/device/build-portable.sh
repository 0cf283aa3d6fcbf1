#!/usr/bin/env bash
# Builds the portable (static, stripped, xz-compressed) hkg tools for a GPU
# machine that has no LLVM: hkg-run (and hkg-compile with
# HKG_PORTABLE_TOOLS="hkg-run hkg-compile"). They need only libc, libm, libz
# and libzstd there; NVVM needs CUDA's libdevice on that machine (found under
# /usr/local/cuda), ROCDL the Debian rocm-device-libs bitcode and ld.lld.
#   utils/device/build-portable.sh [OUT_DIR=.carry/bin]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT_DIR=${1:-.carry/bin}
TOOLS=${HKG_PORTABLE_TOOLS:-hkg-run}
if [ ! -f build-static/build.ninja ]; then
  cmake -G Ninja -S . -B build-static -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DHKG_STATIC_TOOLS=ON -DHKG_BUILD_TESTS=OFF >/dev/null
fi
ninja -C build-static $TOOLS
mkdir -p "$OUT_DIR"
staging=$(mktemp -d)
for t in $TOOLS; do
  llvm-strip-22 -o "$staging/$t" "build-static/bin/$t" 2>/dev/null ||
    /usr/lib/llvm-22/bin/llvm-strip -o "$staging/$t" "build-static/bin/$t"
  echo "$t: $(ldd "$staging/$t" | awk '{print $1}' | tr '\n' ' ')"
done
tar -cJf "$OUT_DIR/hkg-tools.tar.xz" -C "$staging" $TOOLS
ls -l "$OUT_DIR/hkg-tools.tar.xz"
