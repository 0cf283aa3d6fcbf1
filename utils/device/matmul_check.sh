#!/usr/bin/env bash
# One device call: the matmul issue's correctness cases (bf16, f16, f32;
# utils/lowering-check/cases.py --matmul-issue) against float64, with the
# accumulation bound and cuBLAS side by side (check_cases.py check_matmul),
# and the negative controls (planted defects that must be rejected).
# Prepared here (no GPU):
#   python3 utils/lowering-check/cases.py --matmul-issue > /tmp/mmcases.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/mmcases.json .carry/mmcheck
# On the GPU machine (carry .carry/mmcheck): bash utils/device/matmul_check.sh
set -uo pipefail
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -c "import torch; print('torch', torch.__version__)" | tee -a "$OUT/gpu.txt"
timeout 170 python3 utils/lowering-check/check_cases.py .carry/mmcheck --controls 2>&1 | tee "$OUT/matmul-check.log"
