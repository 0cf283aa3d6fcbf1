#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 11", call 4): the queued
# bin_cache gather and the count-free merged moments, checked, timed side by
# side, and hkg-tune from scratch on the two ops whose defaults it kept.
#   1. the lowering check of the 71 top-p cases and the 32 layernorm cases
#      (cases.py --top-p / --layernorm);
#   2. bench.py, two rounds each: top-p 64x128256 (the default against p5
#      bin_cache, p6 bin_cache + unroll 4, p7 bin_cache + ctas_per_row 4),
#      top-p 1x128256 (the default, ctas_per_row 4 at 512 threads, against
#      p3 the old default and p4 bin_cache), layernorm 8192x8192 (the
#      default against p7 moments = merged and p8 with occupancy 5);
#   3. hkg-tune from scratch, 64 trials each, on layernorm and top-p
#      (utils/device/tune_call.sh; two ops at once sharing the GPU).
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --top-p > /tmp/tc.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/tc.json .carry/lct
#   python3 utils/lowering-check/cases.py --layernorm > /tmp/lnc.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/lnc.json .carry/lnc
#   cp utils/lowering-check/check_cases.py .carry/lct/; cp utils/lowering-check/check_cases.py .carry/lnc/
#   python3 utils/bench/sweep.py --out .carry/tpb --shapes perf --ops top_p,layernorm --per-op 0
#   python3 utils/bench/sweep.py --out .carry/tp1 --shapes second --ops top_p --per-op-second 0
#   JOBS=2 bash utils/device/build-portable.sh --tune                  # .carry/tune
# On the H200 (carry .carry/lct .carry/lnc .carry/tpb .carry/tp1 .carry/tune):
#   bash utils/device/session11_call4.sh
# $OUT: checks.tar.xz (lowering-check logs, bench rounds), tune.tar.xz
# (tune_call.sh's files).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
R=$OUT/checks; mkdir -p "$R"
. utils/device/bench_rounds.sh
lowering_check top_p .carry/lct 150 "$R"
lowering_check layernorm .carry/lnc 60 "$R"
OUT=$R bench_rounds topp .carry/tpb perf top_p p5,p6,p7 120
OUT=$R bench_rounds topp1 .carry/tp1 second top_p p3,p4 60
OUT=$R bench_rounds ln .carry/tpb perf layernorm p7,p8 60
tar -cJf "$OUT/checks.tar.xz" -C "$OUT" checks && rm -rf "$R"
mkdir -p /tmp/t11
OUT=/tmp/t11 RESUME_FROM=/nonexistent BUDGET=64 JOBS=2 DEADLINE_S=$((${CALL_S:-580} - SECONDS)) \
  bash utils/device/tune_call.sh layernorm top_p 2>&1 | grep -v "trial [0-9]*/"
cat /tmp/t11/summary.md 2>/dev/null
tar -cJf "$OUT/tune.tar.xz" -C /tmp t11
echo "total ${SECONDS} s"
