#!/usr/bin/env bash
# One device call: the side-by-side bench (check_bench_all.sh over
# .carry/bundles: PERF.md's shapes, the second set and the top-p statistical
# test), then Nsight Compute profiles with SASS-level stall sources
# (SourceCounters) of rmsnorm (hkg default and -m8 against Inductor) and of
# the 4096^3 GEMM (hkg default against cuBLAS), for the two gaps the bench
# leaves (rmsnorm ~3% behind Inductor, the GEMM at ~0.55x cuBLAS).
#
# Prepared here (no GPU), from the repo root after building:
#   rm -rf .carry/bundles .carry/lcheck
#   python3 utils/bench/sweep.py --out .carry/bundles --shapes perf,second,stat \
#       --ops softmax,layernorm,rmsnorm,gelu,bias_gelu,swiglu,rope,top_p --per-op 2 --per-op-second 2
#   python3 utils/bench/sweep.py --out .carry/bundles --shapes perf --ops gemm,qkv_proj --per-op 0
# On the H200 (carry .carry/bundles):
#   bash utils/device/bench_profile.sh
# $OUT: gpu.txt, bench.log, bench.md, bench.json, inductor-src.txt,
# ncu-rmsnorm.txt, ncu-gemm.txt.
set -uo pipefail
bash utils/device/check_bench_all.sh perf,second,stat "" 300
NCU_EXTRA="--section SourceCounters" \
  bash utils/device/profile_rowops.sh rmsnorm .carry/bundles/rmsnorm/default .carry/bundles/rmsnorm/default-m8 | head -40
NCU_EXTRA="--section SourceCounters --section ComputeWorkloadAnalysis" HKG_PROFILE_REF=eager \
  bash utils/device/profile_rowops.sh gemm .carry/bundles/gemm/default | head -40
exit 0
