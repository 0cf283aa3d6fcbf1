#!/usr/bin/env bash
# Compiles examples/ with their default schedules into the bundle layout of
# utils/bench/bench.py and utils/bench/sweep.py: DIR/<op>/default/ (one
# hkg-compile bundle: manifest.json and the kernel), for the GPU machine
# (utils/device/bench.sh; attention's DIR/attention/ is what
# utils/bench/attention_bench.py reads). sweep.py writes the same layout
# with more variants per op.
#   utils/bench/build_bundles.sh [DIR=.carry/bundles] [extra hkg-compile args]
# OPS (a space list, default every SRC/*.mlir) and CHIP (sm_90) select; SRC
# (default examples) is where the .mlir inputs are, e.g.
# utils/bench/cases/generic (the generic reductions, log_softmax and norms
# over an inner axis at >= 256 MiB, timed by RUNNER=hkg-run: docs/perf).
# (utils/bench/cases/f32's GEMMs take schedule_variants.py instead, for their
# 3xTF32 variants: docs/perf/README.md, "Matmul".)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${1:-.carry/bundles}; shift || true
BIN=${HKG_BUILD_DIR:-build}/bin
SRC=${SRC:-examples}
OPS=${OPS:-$(for f in "$SRC"/*.mlir; do basename "$f" .mlir; done)}
mkdir -p "$OUTDIR"
for name in $OPS; do
  f=$SRC/$name.mlir
  dest=$OUTDIR/$name/default
  rm -rf "$dest"; mkdir -p "$OUTDIR/$name"
  if "$BIN/hkg-compile" "$f" --chip="${CHIP:-sm_90}" -o "$dest" "$@" 2>"$OUTDIR/$name/default.err"; then
    rm -f "$OUTDIR/$name/default.err"; echo "compiled $name"
  else
    echo "skipped $name: $(head -1 "$OUTDIR/$name/default.err")"
  fi
done
