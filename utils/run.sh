#!/usr/bin/env bash
# Command (1) of the README: set up, build, and run the main job over
# examples/: compile every example op to AMDGPU code objects for the chip
# (default gfx942) and print each kernel's report (schedule, launch, VGPR/SGPR/
# AGPR, LDS, scratch, occupancy, compile time). When a GPU is present, also
# compile for it and run the kernels with hkg-run (check against the
# reference, time, bandwidth).
#
#   utils/run.sh [--chip=gfx942] [--no-gpu]
set -euo pipefail
cd "$(dirname "$0")/.."
CHIP=gfx942
USE_GPU=1
for arg in "$@"; do
  case "$arg" in
    --chip=*) CHIP=${arg#--chip=} ;;
    --no-gpu) USE_GPU=0 ;;
    *) echo "usage: utils/run.sh [--chip=CHIP] [--no-gpu]" >&2; exit 2 ;;
  esac
done
BUILD_DIR=${HKG_BUILD_DIR:-build}
export HKG_BUILD_DIR=$BUILD_DIR
HKG_BUILD_TARGETS="hkg-opt hkg-compile hkg-run" utils/setup.sh
BIN="$BUILD_DIR/bin"
OUT="$BUILD_DIR/bundles/$CHIP"
mkdir -p "$OUT"

echo
echo "hkg: compiling examples/ for $CHIP into $OUT"
failed=0
for f in examples/*.mlir; do
  name=$(basename "$f" .mlir)
  echo
  echo "== $f"
  if ! "$BIN/hkg-compile" "$f" --chip="$CHIP" -o "$OUT/$name" --report; then
    failed=$((failed + 1))
  fi
done
echo
echo "hkg: $failed example(s) did not compile for $CHIP"

# With a GPU: compile for it and run (check + time) with hkg-run.
if [ "$USE_GPU" = 1 ] && "$BIN/hkg-run" --help >/dev/null 2>&1; then
  for f in examples/*.mlir; do
    rc=0
    "$BIN/hkg-run" "$f" || rc=$?
    [ "$rc" = 2 ] && { echo "hkg: no GPU here; skipped running the kernels"; break; }
  done
fi
