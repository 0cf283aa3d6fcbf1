#!/usr/bin/env bash
# Nsight Compute side by side: hkg's kernels (the bundles given) and
# Inductor's for one bench.py case, with the sections that separate two
# memory-bound kernels at 90% vs 93% of copy: DRAM throughput and read /
# write bytes, L2 hit rate (Inductor's second read of each row comes from
# L2), warp stall reasons, achieved occupancy.
#
#   bash utils/device/profile_rowops.sh CASE BUNDLE_DIR [BUNDLE_DIR ...]
#   e.g. bash utils/device/profile_rowops.sh rmsnorm .carry/bundles/rmsnorm/default \
#          .carry/bundles/rmsnorm/default-nt
#
# $OUT gets ncu-CASE.txt (the full report) and prints the key lines.
# NCU_EXTRA adds ncu options (e.g. "--section SourceCounters" for the top
# stall locations in SASS); HKG_PROFILE_REF=eager profiles PyTorch eager
# (cuBLAS for GEMMs) instead of Inductor. First run 2026-12-02.
set -uo pipefail
export PYTHONUNBUFFERED=1
CASE=$1; shift
command -v ncu > /dev/null || { echo "no ncu on this machine"; exit 0; }
# Profile only the launches inside the "profiled" NVTX range (after
# Inductor's autotuning): 3 per hkg bundle, then 3 of Inductor's.
timeout 240 ncu --nvtx --nvtx-include "profiled/" \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
  --section Occupancy --section LaunchStats ${NCU_EXTRA:-} \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed \
  python3 utils/bench/profile_rowop.py "$CASE" "$@" > "$OUT/ncu-$CASE.txt" 2>&1
echo "ncu exit: $?"
grep -E "^  [a-z_0-9]+.*\(|Duration|dram__bytes_(read|write).sum|lts__t_sector_hit_rate|dram__throughput|Achieved Occupancy|Registers Per Thread|Stall Long Scoreboard|Warp Cycles Per Issued" \
  "$OUT/ncu-$CASE.txt" | head -80
