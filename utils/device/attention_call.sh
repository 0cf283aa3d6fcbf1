#!/usr/bin/env bash
# One device call for the attention kernel (issue #7: tune every PERF.md op):
#   1. the lowering check of the attention cases (utils/lowering-check/
#      cases.py --attention: mma.sync and FMA kernels, causal offsets,
#      grouped-query heads, every tile family, the PERF.md shape) against
#      float64 references;
#   2. utils/bench/attention_bench.py: SDPA and the hkg variants in
#      .carry/att-bundles on PERF.md's shape, checked and timed;
#   3. hkg-tune on examples/attention.mlir (utils/device/tune_call.sh
#      attention, BUDGET trials + the confirmation), unless SKIP_TUNE=1 or
#      a case of step 1 failed.
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --attention > /tmp/att-cases.json
#   rm -rf .carry/lcheck-att && HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/att-cases.json .carry/lcheck-att
#   cp utils/lowering-check/check_cases.py .carry/lcheck-att/
#   bundles: hkg-compile --chip=sm_90 --format=cubin -o .carry/att-bundles/<variant> (docs/perf/README.md)
#   JOBS=2 bash utils/device/build-portable.sh --tune
# On the H200 (carry .carry/lcheck-att .carry/att-bundles .carry/tune):
#   BUDGET=64 bash utils/device/attention_call.sh
# $OUT: check.tar.xz (lcheck.log, attention.md, attention.json) and
# tune_call.sh's six files.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
W=$(mktemp -d)
if [ -d .carry/lcheck-att ]; then
  (cd .carry/lcheck-att && timeout 150 python3 check_cases.py .) > "$W/lcheck.log" 2>&1
  echo "lowering check: exit $?, ${SECONDS} s"
  grep -cE "^FAIL|rror" "$W/lcheck.log" | sed 's/^/lines with FAIL or error: /'
  cat "$W/lcheck.log" | cut -c1-220
fi
if [ -d .carry/att-bundles ]; then
  timeout 150 python3 utils/bench/attention_bench.py --bundles .carry/att-bundles --out "$W" > "$W/bench.log" 2>&1
  echo "attention bench: exit $?, ${SECONDS} s"
  cat "$W/attention.md" 2>/dev/null || tail -20 "$W/bench.log"
fi
tar -cJf "$OUT/check.tar.xz" -C "$W" .
# A kernel that fails the check is not tuned (FORCE_TUNE=1 tunes anyway).
if grep -qE "^FAIL" "$W/lcheck.log" 2>/dev/null && [ -z "${FORCE_TUNE:-}" ]; then
  echo "lowering check failed: not tuning"; SKIP_TUNE=1
fi
if [ -z "${SKIP_TUNE:-}" ]; then
  RESUME_FROM=${RESUME_FROM:-/nonexistent} BUDGET=${BUDGET:-64} \
    DEADLINE_S=$((${CALL_S:-575} - SECONDS)) bash utils/device/tune_call.sh attention
fi
echo "total ${SECONDS} s"
