#!/usr/bin/env bash
# One device call (run from the repo root on the GPU machine, with .carry/
# prepared here by utils/bench/sweep.py and utils/lowering-check/make_cases.py):
#   1. numerical check of the lowered kernels (utils/lowering-check);
#   2. hkg-run (the C++ runtime, static build) on every default bundle;
#   3. the side-by-side benchmark against PyTorch eager and Inductor.
# Results go to $OUT.
set -uo pipefail
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
(cd .carry/lcheck && timeout 150 python3 check_cases.py . 2>&1) | tee "$OUT/lcheck.log" | tail -15
for d in .carry/bundles/*/default; do
  op=$(basename "$(dirname "$d")")
  timeout 60 .carry/bin/hkg-run "$d" --json "$OUT/run-$op.json" 2>&1 | tail -4
done | tee "$OUT/hkg-run.log"
timeout 380 python3 utils/bench/bench.py --bundles .carry/bundles --out "$OUT" 2>&1 | tee "$OUT/bench.log" | grep -v "^  " | tail -40
