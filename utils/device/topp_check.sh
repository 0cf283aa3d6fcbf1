#!/usr/bin/env bash
# One device call for the top-p sampler (run from the repo root on the GPU
# machine with .carry/tp prepared here):
#   python3 utils/bench/sweep.py --out .carry/tp/bundles --per-op 6 --ops top_p
#   python3 utils/lowering-check/cases.py --top-p > /tmp/tp.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/tp.json .carry/tp/lcheck
#   cp utils/lowering-check/check_cases.py .carry/tp/lcheck/
# 1. ptxas -v and the SASS atomics of the default kernel (the PTX of the
# default bundle); 2. the lowering
# check's top-p cases (nucleus membership, token-order CDF with given
# uniforms, determinism, chi-square over identical rows); 3. the benchmark
# row for top-p (hkg default + sweep, eager, Inductor). Results in $OUT.
set -uo pipefail
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
ptx=$(ls .carry/tp/bundles/top_p/default/*.ptx 2>/dev/null | head -1)
if [ -n "$ptx" ]; then
  ptxas -arch=sm_90 -v "$ptx" -o "$OUT/tp.cubin" 2>&1 | tail -4 | tee "$OUT/ptxas.txt"
  cuobjdump -sass "$OUT/tp.cubin" > "$OUT/tp.sass" 2>&1
  echo "SASS shared atomics:"; grep -o "ATOMS[.A-Z0-9]*" "$OUT/tp.sass" | sort | uniq -c
  grep -o "ATOMS[.A-Z0-9]*\|CAS[.A-Z0-9]*" "$OUT/tp.sass" | sort | uniq -c > "$OUT/atomics.txt"
  rm -f "$OUT/tp.cubin"
fi
(cd .carry/tp/lcheck && timeout 200 python3 check_cases.py . 2>&1) | tee "$OUT/lcheck.log" | tail -14
timeout 300 python3 utils/bench/bench.py --bundles .carry/tp/bundles --ops top_p --out "$OUT" > "$OUT/bench.log" 2>&1
grep -v "^  \|UserWarning" "$OUT/bench.log" | tail -12
# 4. a profile of the default kernel, when Nsight Compute is installed
if [ -z "${NO_NCU:-}" ] && command -v ncu > /dev/null; then
  timeout 120 ncu --kernel-name regex:hkg_top_p --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section InstructionStats \
    --section SchedulerStats --section SourceCounters --section LaunchStats \
    python3 utils/bench/profile_topp.py .carry/tp/bundles/top_p/default > "$OUT/ncu.txt" 2>&1
  grep -E "Duration|Warp Cycles Per Issued|Issued Ipc|Executed Instructions |Stall|No Eligible|Active Warps" "$OUT/ncu.txt" | head -30
else
  echo "no ncu on this machine"
fi
