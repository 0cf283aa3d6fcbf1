#!/usr/bin/env bash
# One device call for top-p's ctas_per_row = 4 and `occupancy` (docs/perf
# 2026-12-03, "session 10"):
#   1. the lowering check of the 50 top-p cases (cases.py --top-p; 12 with
#      ctas_per_row = 4 at 512 threads) against their references (token in
#      the nucleus, the CDF with given uniforms, determinism, chi-square over
#      identical rows);
#   2. bench.py on top-p 64x128256 f32, two rounds: the default (ctas_per_row
#      2, 1024 threads) against the sweep's p2 (ctas_per_row 4, 512 threads),
#      p3 (the same with occupancy 2) and p4 (ctas_per_row 4, 1024 threads);
#   3. hkg-tune on top-p resumed from session 7's 48 trials to 64.
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --top-p > /tmp/tc.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/tc.json .carry/lct
#   cp utils/lowering-check/check_cases.py .carry/lct/
#   python3 utils/bench/sweep.py --out .carry/tpb --shapes perf --ops top_p --per-op 0
#   JOBS=2 bash utils/device/build-portable.sh --tune                  # .carry/tune
#   # .carry/tune-resume: 2026-12-03-h200-session10/call3/gemms.tar.xz's gemms/resume.tar.xz
# On the H200 (carry .carry/lct .carry/tpb .carry/tune .carry/tune-resume):
#   bash utils/device/topp_ctas4_call.sh
# $OUT: lcheck.log, bench.tar.xz, rows.tar.xz (tune_groups_call.sh's).
# Call 5 (ONE_ROW=1): only bench.py at 1x128256, two rounds, with the
# sweep's pins there (p0 / p1: ctas_per_row = 4 at 1024 / 512 threads, p2:
# one workgroup); prepared with
#   python3 utils/bench/sweep.py --out .carry/tp1 --shapes second --ops top_p --per-op-second 0
# and carried as .carry/tp1. $OUT: bench1.tar.xz (the recorded call 5 names
# its rounds one-1 / one-2: this script's earlier form).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
. utils/device/bench_rounds.sh
if [ "${ONE_ROW:-0}" = 1 ]; then
  bench_rounds bench1 .carry/tp1 second top_p p0,p1,p2 120
  exit 0
fi
(cd .carry/lct && timeout 150 python3 check_cases.py .) > "$OUT/lcheck.log" 2>&1
echo "lowering check: exit $?, ${SECONDS} s: $(tail -1 "$OUT/lcheck.log")"
grep -E "^FAIL" "$OUT/lcheck.log" | head
bench_rounds bench .carry/tpb perf top_p p2,p3,p4 120
ROW_OPS=top_p BUDGET_ROW=64 JOBS_ROW=1 ROW_DEADLINE_S=$((${CALL_S:-560} - SECONDS)) GEMM_OPS= \
  bash utils/device/tune_groups_call.sh
echo "total ${SECONDS} s"
