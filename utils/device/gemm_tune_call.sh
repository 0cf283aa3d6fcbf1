#!/usr/bin/env bash
# One device call after the wgmma default (docs/perf 2026-12-02, session 6):
#   1. the GEMM rows of the side-by-side bench (4096^3, decode, qkv_proj:
#      hkg default and the sweep's pins, cuBLAS through torch.matmul /
#      F.linear), float64 checks;
#   2. hkg-tune on qkv_proj with the new default (BUDGET trials, default 16;
#      no resume: the database starts empty).
# Prepared here (no GPU), from the repo root after building:
#   rm -rf .carry/gb && python3 utils/bench/sweep.py --out .carry/gb --shapes perf \
#       --ops gemm,gemm_decode,qkv_proj --per-op 0
#   JOBS=2 bash utils/device/build-portable.sh --tune
# On the H200 (carry .carry/gb .carry/tune):
#   bash utils/device/gemm_tune_call.sh
# $OUT: bench.md, bench.tar.xz (bench.json, bench.log) and tune_call.sh's
# six files (summary.md, estimate.txt, log.txt, records.jsonl.xz, ops.tar.xz,
# resume.tar.xz).
set -uo pipefail
export PYTHONUNBUFFERED=1 TORCHINDUCTOR_CACHE_DIR=/tmp/hkg-inductor-cache
B=$(mktemp -d)/bench
mkdir -p "$B"
timeout 200 python3 utils/bench/bench.py --bundles .carry/gb --out "$B" --shapes perf \
  --ops gemm,gemm_decode,qkv_proj > "$B/bench.log" 2>&1
echo "bench exit: $?"
grep "^| \|^- " "$B/bench.md" | head -20
cp "$B/bench.md" "$OUT/bench.md"
tar -C "$(dirname "$B")" -cJf "$OUT/bench.tar.xz" bench
RESUME_FROM=/nonexistent BUDGET=${BUDGET:-16} DEADLINE_S=$((560 - SECONDS)) \
  bash utils/device/tune_call.sh qkv_proj
echo "total ${SECONDS} s"
