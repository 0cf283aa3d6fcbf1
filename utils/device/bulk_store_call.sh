#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 12", call 4): the row ops'
# `bulk_store` knob (the output row group staged in LDS, one cp.async.bulk).
#   1. the lowering check of the 20 bulk_store cases (cases.py --bulk-store:
#      softmax, layernorm and rmsnorm with the register, LDS and no row
#      cache, a last group of 2 of 4 rows, row_steps, layernorm 8192x8192);
#   2. bench.py on softmax, layernorm and rmsnorm 8192x8192 bf16, two
#      rounds: the defaults against bulk_store = 1 on them (softmax p5,
#      layernorm p12 / p13 with occupancy 5, rmsnorm p11);
#   3. hkg-tune from scratch, 64 trials, on layernorm (tune_call.sh).
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --bulk-store > /tmp/bulk.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/bulk.json .carry/bsc
#   cp utils/lowering-check/check_cases.py .carry/bsc/
#   python3 utils/bench/sweep.py --out .carry/rows --shapes perf --ops softmax,layernorm,rmsnorm --per-op 0
#   JOBS=2 bash utils/device/build-portable.sh --tune                  # .carry/tune
# On the H200 (carry .carry/bsc .carry/rows .carry/tune):
#   bash utils/device/bulk_store_call.sh
# $OUT: checks.tar.xz (lowering-check log, bench rounds), tune.tar.xz.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
R=$OUT/checks; mkdir -p "$R"
. utils/device/bench_rounds.sh
lowering_check bulk .carry/bsc 150 "$R"
OUT=$R bench_rounds rows .carry/rows perf softmax,layernorm,rmsnorm p5,p11,p12,p13 150
tar -cJf "$OUT/checks.tar.xz" -C "$OUT" checks && rm -rf "$R"
mkdir -p /tmp/t12
OUT=/tmp/t12 RESUME_FROM=/nonexistent BUDGET=64 JOBS=1 DEADLINE_S=$((${CALL_S:-560} - SECONDS)) \
  bash utils/device/tune_call.sh layernorm 2>&1 | grep -v "trial [0-9]*/" | grep -v "confirm round"
tar -cJf "$OUT/tune.tar.xz" -C /tmp t12
echo "total ${SECONDS} s"
