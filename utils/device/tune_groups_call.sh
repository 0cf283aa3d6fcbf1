#!/usr/bin/env bash
# A device call that resumes utils/device/tune_all_call.sh's tuning in two
# groups run one after the other, each with its own budget, concurrency and
# hkg-tune options (the GEMMs' float64 references use every host thread, so
# fewer of them at once; the row ops' are single-threaded):
#   ROW_OPS (BUDGET_ROW=48, JOBS_ROW=5; ROW_OPS= for none), then GEMM_OPS (BUDGET_GEMM=33,
#   JOBS_GEMM=2, GEMM_TUNE_ARGS="--confirm-finalists 2 --confirm-rounds 2").
# Resumes from .tune/perf.sqlite on a warm machine, else from the carried
# .carry/tune-resume (the previous call's resume.tar.xz unpacked there).
# Carry .carry/tune and .carry/tune-resume. $OUT: rows.tar.xz and
# gemms.tar.xz (each tune_call.sh's six files), cublas.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
ROW_OPS=${ROW_OPS-softmax layernorm rmsnorm bias_gelu gelu top_p}
GEMM_OPS=${GEMM_OPS-qkv_proj gemm8192 gemm gemm_decode}
END=${CALL_S:-560}
mkdir -p /tmp/g/rows /tmp/g/gemms
if [ -n "$ROW_OPS" ]; then
  # shellcheck disable=SC2086
  OUT=/tmp/g/rows RESUME_FROM=.carry/tune-resume BUDGET=${BUDGET_ROW:-48} JOBS=${JOBS_ROW:-5} \
    DEADLINE_S=$((${ROW_DEADLINE_S:-250} - SECONDS)) bash utils/device/tune_call.sh $ROW_OPS 2>&1 | grep -v "trial [0-9]*/"
fi
if [ -n "$GEMM_OPS" ]; then
  # shellcheck disable=SC2086
  OUT=/tmp/g/gemms RESUME_FROM=.carry/tune-resume BUDGET=${BUDGET_GEMM:-33} JOBS=${JOBS_GEMM:-2} \
    HKG_TUNE_ARGS="${GEMM_TUNE_ARGS:---confirm-finalists 2 --confirm-rounds 2}" \
    DEADLINE_S=$((END - SECONDS)) bash utils/device/tune_call.sh $GEMM_OPS 2>&1 | grep -v "trial [0-9]*/"
fi
tar -cJf "$OUT/rows.tar.xz" -C /tmp/g rows
tar -cJf "$OUT/gemms.tar.xz" -C /tmp/g gemms
echo "total ${SECONDS} s"
