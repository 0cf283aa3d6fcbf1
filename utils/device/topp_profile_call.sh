#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 11", call 1): where top-p's
# time goes, and the row-count rule for ctas_per_row.
#   1. Nsight Compute on the top-p default at 64x128256 f32 (ctas_per_row 2,
#      1024 threads) and the layernorm default at 8192x8192 bf16: speed of
#      light, warp states, instruction stats, source counters; the per-SASS
#      instruction page (stall samples per instruction) as CSV, and the
#      SASS itself (ptxas + cuobjdump) to read it against.
#   2. bench.py at 2..48 rows x 128256: the default against ctas_per_row 4
#      at 512 threads (two rounds, full timings of both).
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/bench/sweep.py --out .carry/tpb --shapes perf --ops top_p --per-op 0
#   python3 utils/bench/sweep.py --out .carry/ln --shapes perf --ops layernorm --per-op 0
#   python3 utils/bench/topp_rows.py .carry/tprows
# On the H200 (carry .carry/tpb .carry/ln .carry/tprows):
#   bash utils/device/topp_profile_call.sh
# $OUT: ncu-top_p.csv.xz, ncu-top_p.txt, top_p.sass.xz (and the same for
# layernorm), rows.tar.xz (bench_rounds.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
. utils/device/bench_rounds.sh
SECTIONS="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section SourceCounters --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
profile() {  # NAME BUNDLE_DIR PYTHON_ARGS...
  local name=$1 dir=$2; shift 2
  local ptx; ptx=$(ls "$dir"/*.ptx | head -1)
  ptxas -arch=sm_90a -v -o "$OUT/$name.cubin" "$ptx" > "$OUT/$name.ptxas.txt" 2>&1
  cuobjdump -sass "$OUT/$name.cubin" | xz > "$OUT/$name.sass.xz"
  rm -f "$OUT/$name.cubin"
  if command -v ncu > /dev/null; then
    timeout 150 ncu --clock-control none -k regex:hkg_ --launch-skip 1 --launch-count 1 $SECTIONS \
      -o "$OUT/$name" "$@" > "$OUT/ncu-$name.log" 2>&1
    echo "ncu $name: exit $?, ${SECONDS} s"
    ncu -i "$OUT/$name.ncu-rep" > "$OUT/ncu-$name.txt" 2>&1
    ncu -i "$OUT/$name.ncu-rep" --page source --csv --print-source sass 2>&1 | xz > "$OUT/ncu-$name.csv.xz"
    rm -f "$OUT/$name.ncu-rep"
    grep -E "Duration|Registers Per|Issued Warp|Warp Cycles Per Issued|Compute \(SM\)|Memory Throughput|DRAM Throughput|L2 Cache Throughput|Executed Instructions  |Achieved Occupancy" "$OUT/ncu-$name.txt" | head -20
  else
    echo "no ncu on this machine"
  fi
}
profile top_p .carry/tpb/top_p/default python3 utils/bench/profile_topp.py .carry/tpb/top_p/default
HKG_PROFILE_REF=eager profile layernorm .carry/ln/layernorm/default \
  python3 utils/bench/profile_rowop.py layernorm .carry/ln/layernorm/default
bench_rounds rows .carry/tprows second top_p default,c4 200
echo "total ${SECONDS} s"
