#!/usr/bin/env bash
# Packs hkg's Python package for a machine without LLVM (the GPU machine:
# its own python3 and torch, no package index): libhkg.so built statically
# (LLVM and MLIR inside, only libc/libm/libz/libzstd needed there), the
# package's .py files, the binding's source and python/install.sh, which
# builds the binding there against that machine's Python and the pybind11
# headers pybind11 or torch ships (docs/Python.md, "Installing on a machine
# without LLVM").
#
#   utils/python/build-portable.sh [OUT_DIR=.carry/python]
#     -> OUT_DIR/hkg-python.tar.xz (hkg-python/{install.sh, lib/, include/,
#        hkg/, bin/hkg-run})
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT_DIR=${1:-.carry/python}
if [ ! -f build-static/build.ninja ]; then
  cmake -G Ninja -S . -B build-static -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DHKG_STATIC_TOOLS=ON -DHKG_BUILD_TESTS=OFF >/dev/null
fi
[ -n "${HKG_PORTABLE_NO_BUILD:-}" ] || ninja -C build-static -j"${JOBS:-2}" hkg hkg-run
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
pkg=$staging/hkg-python
mkdir -p "$pkg/lib" "$pkg/bin" "$pkg/include/hkg-c" "$pkg/hkg"
strip_to() {
  llvm-strip-22 -o "$2" "$1" 2>/dev/null || /usr/lib/llvm-22/bin/llvm-strip -o "$2" "$1"
}
strip_to build-static/lib/libhkg.so "$pkg/lib/libhkg.so"
strip_to build-static/bin/hkg-run "$pkg/bin/hkg-run"
cp include/hkg-c/Hkg.h "$pkg/include/hkg-c/"
(cd python && find hkg -name '*.py' -o -name '_hkg.cpp') | while read -r f; do
  mkdir -p "$pkg/$(dirname "$f")"; cp "python/$f" "$pkg/$f"
done
cp python/install.sh "$pkg/"
echo "libhkg.so needs: $(ldd "$pkg/lib/libhkg.so" | awk '{print $1}' | tr '\n' ' ')"
mkdir -p "$OUT_DIR"
tar -cJf "$OUT_DIR/hkg-python.tar.xz" -C "$staging" hkg-python
ls -l "$OUT_DIR/hkg-python.tar.xz"
