#!/usr/bin/env bash
# Builds the portable (static, stripped, xz-compressed) hkg tools for a GPU
# machine that has no LLVM.
#
#   utils/device/build-portable.sh [OUT_DIR=.carry/bin]
#     hkg-run (and hkg-compile with HKG_PORTABLE_TOOLS="hkg-run hkg-compile")
#     in OUT_DIR/hkg-tools.tar.xz, flat. They need only libc, libm, libz and
#     libzstd there.
#   utils/device/build-portable.sh --tune [OUT_DIR=.carry/tune]
#     hkg-tune and hkg-run (HKG_PORTABLE_TOOLS="hkg-tune hkg-run hkg-compile"
#     adds hkg-compile) in OUT_DIR/hkg-tune.tar.xz as bin/
#     and lib/: SQLite is linked statically; Debian has no static XGBoost, so
#     libxgboost.so and every other non-glibc library ldd shows are shipped
#     in lib/, found through the tools' $ORIGIN/../lib rpath (DT_RPATH, so it
#     also serves libxgboost's own dependencies). Checks that ldd of the
#     unpacked tools resolves nothing outside glibc but lib/.
#   utils/device/build-portable.sh --python [OUT_DIR=.carry/python]
#     the hkg Python package for a machine without LLVM, in
#     OUT_DIR/hkg-python.tar.xz: hkg-python/{install.sh, hkg/ (the .py
#     files and the binding's source), include/hkg-c/Hkg.h, lib/ (libhkg.so,
#     rpath $ORIGIN, and XGBoost's libraries; the C++ runtime, zlib and
#     zstd are the machine's),
#     bin/hkg-run (the tuner's worker)}. On that machine
#     `hkg-python/install.sh [DEST]` builds the binding against its Python
#     (docs/Python.md).
#
# NVVM needs CUDA's libdevice and ptxas on that machine (found under
# /usr/local/cuda), ROCDL the Debian rocm-device-libs bitcode and ld.lld.
set -euo pipefail
cd "$(dirname "$0")/../.."
TUNE=0
PYTHON_PKG=0
if [ "${1:-}" = --tune ]; then TUNE=1; shift; fi
if [ "${1:-}" = --python ]; then PYTHON_PKG=1; TUNE=1; shift; fi
if [ "$PYTHON_PKG" = 1 ]; then
  OUT_DIR=${1:-.carry/python}
  TOOLS="hkg hkg-run"
elif [ "$TUNE" = 1 ]; then
  OUT_DIR=${1:-.carry/tune}
  # hkg-tune compiles in process; hkg-compile (another ~21 MB xz) on request.
  TOOLS=${HKG_PORTABLE_TOOLS:-hkg-tune hkg-run}
else
  OUT_DIR=${1:-.carry/bin}
  TOOLS=${HKG_PORTABLE_TOOLS:-hkg-run}
fi
if [ ! -f build-static/build.ninja ]; then
  cmake -G Ninja -S . -B build-static -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DHKG_STATIC_TOOLS=ON -DHKG_BUILD_TESTS=OFF >/dev/null
fi
# HKG_PORTABLE_NO_BUILD=1 packages build-static/bin as it is.
[ -n "${HKG_PORTABLE_NO_BUILD:-}" ] || ninja -C build-static -j"${JOBS:-2}" $TOOLS
mkdir -p "$OUT_DIR"
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
strip_to() {
  llvm-strip-22 -o "$2" "$1" 2>/dev/null || /usr/lib/llvm-22/bin/llvm-strip -o "$2" "$1"
}

if [ "$TUNE" = 0 ]; then
  for t in $TOOLS; do
    strip_to "build-static/bin/$t" "$staging/$t"
    echo "$t: $(ldd "$staging/$t" | awk '{print $1}' | tr '\n' ' ')"
  done
  tar -cJf "$OUT_DIR/hkg-tools.tar.xz" -C "$staging" $TOOLS
  ls -l "$OUT_DIR/hkg-tools.tar.xz"
  exit 0
fi

# glibc's own libraries: the GPU machine has them (glibc >= 2.36).
is_glibc() {
  case "$1" in
    linux-vdso.so.*|ld-linux*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libutil.so.*|libresolv.so.*) return 0 ;;
  esac
  return 1
}
# Libraries the Python package takes from the machine it is installed on:
# the process that imports hkg is python3 with torch, which needs that
# machine's (newer) C++ runtime; an older libstdc++ loaded first from the
# package breaks torch's import (seen on the GPU machine: a segfault).
is_system_for_python() {
  case "$1" in
    libstdc++.so.*|libgcc_s.so.*|libz.so.*|libzstd.so.*) return 0 ;;
  esac
  return 1
}
is_glibc_or_system() {
  is_glibc "$1" || { [ "$PYTHON_PKG" = 1 ] && is_system_for_python "$1"; }
}

# Copies every library ldd resolves for the binaries $2... into $1 (but
# glibc's, and for the Python package the system's above), then checks
# that with them in place nothing else resolves outside $1.
ship_libs() {
  local libdir=$1; shift
  for t in "$@"; do
    ldd "$t" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
  done | sort -u | while read -r name path; do
    is_glibc_or_system "$name" || [ -e "$libdir/$name" ] || cp -L "$path" "$libdir/$name"
  done
  local bad=0
  for t in "$@"; do
    deps=$(ldd "$t")
    echo "$(basename "$t"): $(echo "$deps" | awk '{print $1}' | tr '\n' ' ')"
    while read -r name arrow path _; do
      [ "$arrow" = "=>" ] || continue
      is_glibc_or_system "$name" && continue
      case "$(realpath -m "$path")" in
        "$(realpath "$libdir")/"*) ;;
        *) echo "error: $t: $name resolves to $path, not $libdir"; bad=1 ;;
      esac
    done <<< "$deps"
  done
  [ "$bad" = 0 ]
}

if [ "$PYTHON_PKG" = 1 ]; then
  pkg=$staging/hkg-python
  mkdir -p "$pkg/lib" "$pkg/bin" "$pkg/include/hkg-c" "$pkg/hkg"
  strip_to build-static/lib/libhkg.so "$pkg/lib/libhkg.so"
  readelf -d "$pkg/lib/libhkg.so" | grep -q "(RPATH).*\$ORIGIN" ||
    { echo "error: libhkg.so has no DT_RPATH \$ORIGIN"; exit 1; }
  strip_to build-static/bin/hkg-run "$pkg/bin/hkg-run"
  ship_libs "$pkg/lib" "$pkg/lib/libhkg.so" "$pkg/bin/hkg-run"
  cp include/hkg-c/Hkg.h "$pkg/include/hkg-c/"
  (cd python && find hkg -name '*.py' -o -name '_hkg.cpp') | while read -r f; do
    mkdir -p "$pkg/$(dirname "$f")"; cp "python/$f" "$pkg/$f"
  done
  cp python/install.sh "$pkg/"
  echo "lib/: $(cd "$pkg/lib" && ls | tr '\n' ' ')"
  tar -cJf "$OUT_DIR/hkg-python.tar.xz" -C "$staging" hkg-python
  ls -l "$OUT_DIR/hkg-python.tar.xz"
  exit 0
fi

mkdir -p "$staging/bin" "$staging/lib"
for t in $TOOLS; do
  strip_to "build-static/bin/$t" "$staging/bin/$t"
  readelf -d "$staging/bin/$t" | grep -q "(RPATH).*\$ORIGIN/../lib" ||
    { echo "error: $t has no DT_RPATH \$ORIGIN/../lib"; exit 1; }
done
bins=()
for t in $TOOLS; do bins+=("$staging/bin/$t"); done
ship_libs "$staging/lib" "${bins[@]}"
echo "lib/: $(cd "$staging/lib" && ls | tr '\n' ' ')"
du -sh "$staging/bin" "$staging/lib"
tar -cJf "$OUT_DIR/hkg-tune.tar.xz" -C "$staging" bin lib
ls -l "$OUT_DIR/hkg-tune.tar.xz"
