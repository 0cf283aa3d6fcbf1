#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 11", call 3): layernorm's
# `moments = merged`, and where top-p's time goes with bin_cache = 1.
#   1. the lowering check of the 32 layernorm cases (cases.py --layernorm;
#      16 with moments = merged) against their float64 references;
#   2. bench.py on layernorm 8192x8192 bf16, three rounds: the default
#      against the sweep's p7 (moments = merged) and p8 (the same with
#      occupancy 5);
#   3. Nsight Compute on top-p 64x128256 with bin_cache = 1 (the sweep's
#      p5) and on layernorm's p7, as utils/device/topp_profile_call.sh does
#      (per-instruction CSV; utils/bench/ncu_regions.py reads it).
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --layernorm > /tmp/lnc.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/lnc.json .carry/lnc
#   cp utils/lowering-check/check_cases.py .carry/lnc/
#   python3 utils/bench/sweep.py --out .carry/ln --shapes perf --ops layernorm --per-op 0
#   python3 utils/bench/sweep.py --out .carry/tpb --shapes perf --ops top_p --per-op 0
# On the H200 (carry .carry/lnc .carry/ln .carry/tpb):
#   bash utils/device/moments_call.sh
# $OUT: call3.tar.xz (lcheck.log, the bench rounds, the profiles).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
R=$OUT/call3; mkdir -p "$R"
(cd .carry/lnc && timeout 120 python3 check_cases.py .) > "$R/lcheck.log" 2>&1
echo "lowering check: exit $?, ${SECONDS} s: $(tail -1 "$R/lcheck.log")"
grep -E "^FAIL" "$R/lcheck.log" | head
. utils/device/bench_rounds.sh
OUT=$R ROUNDS=3 bench_rounds bench .carry/ln perf layernorm p7,p8 100
SECTIONS="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section SourceCounters --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
profile() {  # NAME PYTHON_ARGS...
  local name=$1; shift
  command -v ncu > /dev/null || { echo "no ncu on this machine"; return; }
  timeout 120 ncu --clock-control none -k regex:hkg_ --launch-skip 1 --launch-count 1 $SECTIONS \
    -o "$R/$name" "$@" > "$R/ncu-$name.log" 2>&1
  echo "ncu $name: exit $?, ${SECONDS} s"
  ncu -i "$R/$name.ncu-rep" > "$R/ncu-$name.txt" 2>&1
  ncu -i "$R/$name.ncu-rep" --page source --csv --print-source sass > "$R/ncu-$name.csv" 2>&1
  rm -f "$R/$name.ncu-rep"
  grep -E "Duration|Registers Per|Warp Cycles Per Issued|DRAM Throughput|Executed Instructions  |Achieved Occupancy" "$R/ncu-$name.txt" | head -8
  python3 utils/bench/ncu_regions.py "$R/ncu-$name.csv" 2>&1 | head -40
}
profile top_p_bc python3 utils/bench/profile_topp.py .carry/tpb/top_p/p5
HKG_PROFILE_REF=eager profile layernorm_merged python3 utils/bench/profile_rowop.py layernorm .carry/ln/layernorm/p7
tar -cJf "$OUT/call3.tar.xz" -C "$OUT" call3 && rm -rf "$R"
echo "total ${SECONDS} s"
