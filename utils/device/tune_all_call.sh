#!/usr/bin/env bash
# One device call of issue #7's "hkg-tune on every PERF.md op" (docs/perf
# 2026-12-02, session 7):
#   1. the lowering check of the tree (every case of utils/lowering-check/
#      cases.py on the GPU against float64 references), when .carry/lcheck
#      is there (SKIP_LCHECK=1 skips it);
#   2. cuBLAS on the four GEMMs (utils/bench/cublas_gemms.py), for the
#      tuned times of step 3;
#   3. utils/device/tune_call.sh on every op of PERF.md's table that hkg
#      lowers but attention (utils/device/attention_call.sh tunes it: its
#      float64 reference takes most of a trial), longest first, JOBS ops at once
#      sharing the GPU through the device lock (hkg-tune --device-lock), each
#      op BUDGET search trials then the confirmation (default + 3 finalists
#      re-measured 3 times: 12 more measurements).
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py > /tmp/cases.json
#   rm -rf .carry/lcheck && HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/cases.json .carry/lcheck
#   cp utils/lowering-check/check_cases.py .carry/lcheck/
#   JOBS=2 bash utils/device/build-portable.sh --tune
# On the H200 (carry .carry/lcheck .carry/tune):
#   BUDGET=48 JOBS=6 bash utils/device/tune_all_call.sh [op ...]
# A second call on the warm machine resumes from .tune/perf.sqlite (what an
# op's first call did not finish); on a fresh machine carry the previous
# call's resume.tar.xz unpacked as .carry/tune-resume and set RESUME_FROM.
# $OUT: lcheck.log.xz, cublas.md and tune_call.sh's six files (summary.md,
# estimate.txt, log.txt, records.jsonl.xz, ops.tar.xz, resume.tar.xz).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
OPS=${*:-qkv_proj gemm8192 gemm rope gemm_decode swiglu softmax layernorm rmsnorm bias_gelu gelu top_p}
if [ -d .carry/lcheck ] && [ -z "${SKIP_LCHECK:-}" ]; then
  (cd .carry/lcheck && timeout 200 python3 check_cases.py .) > /tmp/lcheck.log 2>&1
  echo "lowering check: exit $?, ${SECONDS} s"
  grep -ciE "\bFAIL|error" /tmp/lcheck.log | sed 's/^/lines with FAIL or error: /'
  tail -3 /tmp/lcheck.log
  xz -9 -c /tmp/lcheck.log > "$OUT/lcheck.log.xz"
fi
timeout 120 python3 utils/bench/cublas_gemms.py > "$OUT/cublas.md" 2>&1
echo "cuBLAS: exit $?, ${SECONDS} s"; cat "$OUT/cublas.md"
nproc; free -g | head -2
# shellcheck disable=SC2086
RESUME_FROM=${RESUME_FROM:-/nonexistent} BUDGET=${BUDGET:-48} JOBS=${JOBS:-6} \
  DEADLINE_S=$((${CALL_S:-570} - SECONDS)) bash utils/device/tune_call.sh $OPS
echo "total ${SECONDS} s"
