#!/usr/bin/env bash
# Device calls of session 10 (docs/perf 2026-12-03, "session 10"): the row
# ops' `occupancy` knob and the matmul sketches in hkg-tune.
#   PART=ln (call 1): bench.py on layernorm 8192x8192 bf16, two rounds, with
#     the sweep's pins p5 (the default with occupancy 5: 48 registers, 5
#     workgroups of 256 per SM) and p6 (occupancy 4, a control: the default's
#     code with the hint); then hkg-tune on layernorm from scratch, 64 trials
#     (its records were taken out of the carried database: its space has a
#     knob they lack).
#   PART=gemm (call 2): hkg-tune on the 8192^3 and 4096^3 GEMMs resumed from
#     session 9's 48 trials each to 64, two at a time: the 16 new trials go
#     first to the sketches (tile x instruction x deepest stages x pending).
#   PART=qkv (call 3): the same for qkv_proj, from session 7's 33 trials.
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/bench/sweep.py --out .carry/ln --shapes perf --ops layernorm --per-op 0
#   JOBS=2 bash utils/device/build-portable.sh --tune            # .carry/tune
#   # session 9's database (2026-12-03-h200-wgmma-pending/tune/gemms.tar.xz,
#   # gemms/resume.tar.xz) unpacked as .carry/tune-resume, then
#   sqlite3 .carry/tune-resume/perf.sqlite "delete from records where op='hkg.layernorm'; vacuum;"
# On the H200: PART=ln bash utils/device/occupancy_sketch_call.sh (carry
# .carry/tune .carry/tune-resume .carry/ln), then PART=gemm (carry .carry/tune
# .carry/tune-resume). $OUT: bench.tar.xz (ln), rows.tar.xz / gemms.tar.xz
# (tune_groups_call.sh's).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
. utils/device/bench_rounds.sh
case "${PART:-ln}" in
ln)
  bench_rounds bench .carry/ln perf layernorm p5,p6 150
  ROW_OPS=layernorm BUDGET_ROW=64 JOBS_ROW=1 ROW_DEADLINE_S=$((${CALL_S:-560} - SECONDS)) GEMM_OPS= \
    bash utils/device/tune_groups_call.sh
  ;;
gemm)
  ROW_OPS= GEMM_OPS="gemm8192 gemm" BUDGET_GEMM=64 JOBS_GEMM=2 CALL_S=${CALL_S:-570} \
    bash utils/device/tune_groups_call.sh
  ;;
qkv)
  # Call 3: qkv_proj 8192x12288x4096 + bias resumed from session 7's 33
  # trials to 64 (carry .carry/tune .carry/tune-resume = call 2's
  # resume.tar.xz with the wall times of calls 1-2 and session 7's qkv_proj).
  ROW_OPS= GEMM_OPS=qkv_proj BUDGET_GEMM=64 JOBS_GEMM=1 CALL_S=${CALL_S:-570} \
    bash utils/device/tune_groups_call.sh
  ;;
*) echo "PART must be ln, gemm or qkv"; exit 2 ;;
esac
echo "total ${SECONDS} s"
