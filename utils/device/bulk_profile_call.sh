#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 12", call 5): why hkg's
# layernorm with bulk_store = 1 ran 9% slower (call 4: 74.3 against 68.0
# us) while the prototype's bulk-store form ran 2.2% faster than its
# register form. Nsight Compute on hkg's default, p12 (bulk_store = 1, its
# LDS buffer now 128-byte aligned as the prototype's is) and call 4's p12
# (16-byte aligned, .carry/p12old), and on the prototype's bulk-store kernel
# (lnRegsBulkStore<256>); then bench.py as call 4 (two rounds).
# Carry .carry/rows (the sweep, regenerated) and .carry/p12old.
# CALL=call6 BENCH=0: the same profiles with the per-instruction
# SourceCounters section and utils/bench/ncu_regions.py's breakdown, without
# the bench and call 4's p12 (call 6).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
C=${CALL:-call5}
R=$OUT/$C; mkdir -p "$R"
. utils/device/bench_rounds.sh
[ "${BENCH:-1}" = 1 ] && OUT=$R bench_rounds rows .carry/rows perf softmax,layernorm,rmsnorm p5,p11,p12,p13 150
SECTIONS="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats --section SchedulerStats"
[ "${BENCH:-1}" = 1 ] || SECTIONS="$SECTIONS --section SourceCounters --section InstructionStats"
summary() {  # REPORT_TXT
  grep -E "Duration|Registers Per|Shared Memory Configuration Size|Dynamic Shared|Static Shared|DRAM Throughput|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Stall" "$1" | head -30
}
profile() {  # NAME NCU_ARGS... -- COMMAND...
  local name=$1; shift
  timeout 150 ncu --clock-control none $SECTIONS -o "$R/$name" "$@" > "$R/ncu-$name.log" 2>&1
  echo "== ncu $name: exit $?, ${SECONDS} s"
  ncu -i "$R/$name.ncu-rep" > "$R/ncu-$name.txt" 2>&1
  ncu -i "$R/$name.ncu-rep" --page source --csv --print-source sass > "$R/ncu-$name.csv" 2>&1
  rm -f "$R/$name.ncu-rep"
  summary "$R/ncu-$name.txt"
  [ "${BENCH:-1}" = 1 ] || python3 utils/bench/ncu_regions.py "$R/ncu-$name.csv" 2>&1 | head -30
}
HKG_PROFILE_REF=eager profile default -k regex:hkg_ --launch-skip 1 --launch-count 1 \
  python3 utils/bench/profile_rowop.py layernorm .carry/rows/layernorm/default
HKG_PROFILE_REF=eager profile p12 -k regex:hkg_ --launch-skip 1 --launch-count 1 \
  python3 utils/bench/profile_rowop.py layernorm .carry/rows/layernorm/p12
[ -d .carry/p12old ] && HKG_PROFILE_REF=eager profile p12-align16 -k regex:hkg_ --launch-skip 1 --launch-count 1 \
  python3 utils/bench/profile_rowop.py layernorm .carry/p12old/p12
nvcc -O3 -arch=sm_90a -Xptxas -v -o "$R/proto" utils/bench/layernorm_bulk_proto.cu > "$R/nvcc.log" 2>&1
echo "nvcc: exit $?"
grep -A2 -E "lnRegsILi256ELi1ELi0E|lnRegsBulkStoreILi256" "$R/nvcc.log" | grep -E "registers|entry"
profile proto-bulk --kernel-name-base mangled -k regex:_Z15lnRegsBulkStoreILi256 --launch-count 1 "$R/proto" 2 1
rm -f "$R/proto"
for f in "$R"/ncu-*.csv; do xz -9 "$f"; done
tar -cJf "$OUT/$C.tar.xz" -C "$OUT" "$C" && rm -rf "$R"
echo "total ${SECONDS} s"
