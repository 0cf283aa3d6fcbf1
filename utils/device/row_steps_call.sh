#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 11", call 5): the norms'
# `row_steps` knob (a workgroup handles several row groups in turn, loading
# the next group's row while it reduces and stores the current one).
#   1. the lowering check of the 57 layernorm / rmsnorm cases (cases.py
#      --norms; 8 with row_steps > 1, among them a tail and two rows per
#      workgroup);
#   2. bench.py on layernorm and rmsnorm 8192x8192 bf16, two rounds: the
#      defaults against layernorm's p9-p11 (row_steps 2 / 4 / 8) and
#      rmsnorm's p9-p10 (row_steps 2 / 4);
#   3. hkg-tune from scratch, 64 trials, on layernorm (tune_call.sh).
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --norms > /tmp/norms.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/norms.json .carry/lnc
#   cp utils/lowering-check/check_cases.py .carry/lnc/
#   python3 utils/bench/sweep.py --out .carry/nb --shapes perf --ops layernorm,rmsnorm --per-op 0
#   JOBS=2 bash utils/device/build-portable.sh --tune                  # .carry/tune
# On the H200 (carry .carry/lnc .carry/nb .carry/tune):
#   bash utils/device/row_steps_call.sh
# $OUT: checks.tar.xz (lowering-check log, bench rounds), tune.tar.xz.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
R=$OUT/checks; mkdir -p "$R"
. utils/device/bench_rounds.sh
lowering_check norms .carry/lnc 120 "$R"
OUT=$R bench_rounds norms .carry/nb perf layernorm,rmsnorm p9,p10,p11 100
tar -cJf "$OUT/checks.tar.xz" -C "$OUT" checks && rm -rf "$R"
mkdir -p /tmp/t11
OUT=/tmp/t11 RESUME_FROM=/nonexistent BUDGET=64 JOBS=1 DEADLINE_S=$((${CALL_S:-560} - SECONDS)) \
  bash utils/device/tune_call.sh layernorm 2>&1 | grep -v "trial [0-9]*/" | grep -v "confirm round"
tar -cJf "$OUT/tune.tar.xz" -C /tmp t11
echo "total ${SECONDS} s"
