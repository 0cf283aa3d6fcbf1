#!/usr/bin/env bash
# Compiles examples/ for sm_90 into one bundle per op under DIR (default
# .carry/bundles), for utils/bench/bench.py on the GPU machine.
#   utils/bench/build_bundles.sh [DIR] [extra hkg-compile args]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${1:-.carry/bundles}; shift || true
BIN=${HKG_BUILD_DIR:-build}/bin
mkdir -p "$OUTDIR"
for f in examples/*.mlir; do
  name=$(basename "$f" .mlir)
  rm -rf "$OUTDIR/$name"
  if "$BIN/hkg-compile" "$f" --chip=sm_90 -o "$OUTDIR/$name" "$@" 2>"$OUTDIR/$name.err"; then
    rm -f "$OUTDIR/$name.err"; echo "compiled $name"
  else
    echo "skipped $name: $(head -1 "$OUTDIR/$name.err")"
  fi
done
