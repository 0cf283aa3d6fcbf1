#!/usr/bin/env bash
# One device call (docs/perf 2026-12-04, "session 13", call 2): layernorm's
# `moments = shifted` (one pass, one row reduction of the sums of x - K and
# (x - K)^2, K the row's first element). Ran at 7ce6723; the knob value, its
# cases and the sweep pins p14 / p15 were removed after this call (no faster
# than the default, and less accurate when a row's first element is far from
# its mean), so rerunning it needs that commit's tree.
#   1. the lowering check of the 21 shifted cases (cases.py --shifted: the
#      merged cases' schedules with shifted; f32 rows with mean 1000 and sd 1,
#      shifted and the two-pass default; a first element 30 sd out;
#      row_steps 2; layernorm 8192x8192 bf16);
#   2. bench.py on layernorm 8192x8192 bf16, two rounds: the default against
#      p14 (shifted), p15 (shifted, occupancy 5) and p7 (merged);
#   3. hkg-tune from scratch, 64 trials, on layernorm (tune_call.sh), the
#      copy of its bytes timed with every candidate.
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --shifted > /tmp/shifted.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/shifted.json .carry/shc
#   cp utils/lowering-check/check_cases.py .carry/shc/
#   python3 utils/bench/sweep.py --out .carry/rows --shapes perf --ops layernorm --per-op 0
#   JOBS=2 bash utils/device/build-portable.sh --tune                  # .carry/tune
# On the H200 (carry .carry/shc .carry/rows .carry/tune):
#   bash utils/device/shifted_moments_call.sh
# $OUT: checks.tar.xz (lowering-check log, bench rounds), tune.tar.xz.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
R=$OUT/checks; mkdir -p "$R"
. utils/device/bench_rounds.sh
lowering_check shifted .carry/shc 150 "$R"
OUT=$R bench_rounds rows .carry/rows perf layernorm p7,p14,p15 150
tar -cJf "$OUT/checks.tar.xz" -C "$OUT" checks && rm -rf "$R"
mkdir -p /tmp/t13b
OUT=/tmp/t13b RESUME_FROM=/nonexistent BUDGET=64 JOBS=1 DEADLINE_S=$((${CALL_S:-570} - SECONDS)) \
  bash utils/device/tune_call.sh layernorm 2>&1 | grep -v "trial [0-9]*/" | grep -v "confirm round"
tar -cJf "$OUT/tune.tar.xz" -C /tmp t13b
echo "total ${SECONDS} s"
