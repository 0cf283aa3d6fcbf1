#!/usr/bin/env bash
# One device call (repo root on the GPU machine; .carry/ prepared here):
#   1. numerical check of the lowered kernels (utils/lowering-check cases);
#   2. the correctness sweep with hkg-run (utils/sweep/run_sweep.sh), which
#      includes a planted out-of-bounds kernel.
set -uo pipefail
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
(cd .carry/lcheck && timeout 200 python3 check_cases.py . 2>&1) > "$OUT/lcheck.log"
grep -E "^FAIL|passed" "$OUT/lcheck.log" | tail -20
timeout 330 bash utils/sweep/run_sweep.sh .carry/sweep .carry/bin
