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
#
# NVVM needs CUDA's libdevice and ptxas on that machine (found under
# /usr/local/cuda), ROCDL the Debian rocm-device-libs bitcode and ld.lld.
set -euo pipefail
cd "$(dirname "$0")/../.."
TUNE=0
if [ "${1:-}" = --tune ]; then TUNE=1; shift; fi
if [ "$TUNE" = 1 ]; then
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
mkdir -p "$staging/bin" "$staging/lib"
for t in $TOOLS; do
  strip_to "build-static/bin/$t" "$staging/bin/$t"
  readelf -d "$staging/bin/$t" | grep -q "(RPATH).*\$ORIGIN/../lib" ||
    { echo "error: $t has no DT_RPATH \$ORIGIN/../lib"; exit 1; }
done
# Every non-glibc library ldd resolves (transitively) goes to lib/.
for t in $TOOLS; do
  ldd "$staging/bin/$t" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  is_glibc "$name" || cp -L "$path" "$staging/lib/$name"
done
# With lib/ in place, nothing may resolve outside glibc and lib/.
bad=0
for t in $TOOLS; do
  deps=$(ldd "$staging/bin/$t")
  echo "$t: $(echo "$deps" | awk '{print $1}' | tr '\n' ' ')"
  while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    is_glibc "$name" && continue
    case "$(realpath -m "$path")" in
      "$(realpath "$staging/lib")/"*) ;;
      *) echo "error: $t: $name resolves to $path, not lib/"; bad=1 ;;
    esac
  done <<< "$deps"
done
[ "$bad" = 0 ] || exit 1
echo "lib/: $(cd "$staging/lib" && ls | tr '\n' ' ')"
du -sh "$staging/bin" "$staging/lib"
tar -cJf "$OUT_DIR/hkg-tune.tar.xz" -C "$staging" bin lib
ls -l "$OUT_DIR/hkg-tune.tar.xz"
