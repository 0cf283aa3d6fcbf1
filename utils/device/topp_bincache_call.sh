#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 11", call 2): top-p's
# `bin_cache` knob and the four-workgroup default for few rows.
#   1. the lowering check of the 71 top-p cases (cases.py --top-p; 21 with
#      bin_cache = 1) against their references (token in the nucleus, the
#      CDF with given uniforms, determinism, chi-square over identical rows);
#   2. bench.py on top-p 64x128256 f32, two rounds: the default (ctas_per_row
#      2, 1024 threads) against the sweep's p5 (bin_cache = 1), p6 (the same
#      with unroll 4) and p7 (bin_cache with ctas_per_row 4 at 512 threads);
#   3. bench.py at 1x128256, two rounds: the new default (ctas_per_row 4 at
#      512 threads) against p3 (the old default) and p4 (bin_cache = 1).
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --top-p > /tmp/tc.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/tc.json .carry/lct
#   cp utils/lowering-check/check_cases.py .carry/lct/
#   python3 utils/bench/sweep.py --out .carry/tpb --shapes perf --ops top_p --per-op 0
#   python3 utils/bench/sweep.py --out .carry/tp1 --shapes second --ops top_p --per-op-second 0
# On the H200 (carry .carry/lct .carry/tpb .carry/tp1):
#   bash utils/device/topp_bincache_call.sh
# $OUT: lcheck.log, bench.tar.xz, bench1.tar.xz.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
. utils/device/bench_rounds.sh
(cd .carry/lct && timeout 240 python3 check_cases.py .) > "$OUT/lcheck.log" 2>&1
echo "lowering check: exit $?, ${SECONDS} s: $(tail -1 "$OUT/lcheck.log")"
grep -E "^FAIL" "$OUT/lcheck.log" | head
bench_rounds bench .carry/tpb perf top_p p5,p6,p7 150
bench_rounds bench1 .carry/tp1 second top_p p3,p4 100
echo "total ${SECONDS} s"
