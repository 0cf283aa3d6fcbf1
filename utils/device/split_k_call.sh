#!/usr/bin/env bash
# One device call for the split_k (cluster) matmul (docs/perf 2026-12-02,
# session 7):
#   1. the lowering check's new cases (split_k, group_m, the one-column FMA
#      path: .carry/lcheck-new), then every case (.carry/lcheck);
#   2. hkg-run on the decode GEMM 16x4096x4096 (W as [N, K]): the default
#      and split_k 2/4/8 variants (.carry/decode-sk, from hkg-compile of
#      source.mlir there), and cuBLAS in the same call (cublas_gemms.py);
#   3. hkg-tune on gemm_decode, resuming the database of the tune-all calls
#      (.carry/tune-resume) to BUDGET (48) trials, with the confirmation.
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py > /tmp/cases.json   (and a subset
#   of it as /tmp/cases-new.json), make_cases.py into .carry/lcheck and
#   .carry/lcheck-new, check_cases.py copied into both;
#   build/bin/hkg-compile source.mlir --chip=sm_90 -o .carry/decode-sk;
#   JOBS=2 bash utils/device/build-portable.sh --tune
# Carry .carry/lcheck .carry/lcheck-new .carry/decode-sk .carry/tune
# .carry/tune-resume. $OUT: lcheck-new.log, lcheck.log.xz, decode.log,
# decode.json, cublas.md, tune.tar.xz (tune_call.sh's six files).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
(cd .carry/lcheck-new && timeout 60 python3 check_cases.py .) > "$OUT/lcheck-new.log" 2>&1
echo "new cases: exit $?, ${SECONDS} s: $(tail -1 "$OUT/lcheck-new.log")"
grep -E "^FAIL" "$OUT/lcheck-new.log" | head
(cd .carry/lcheck && timeout 150 python3 check_cases.py .) > /tmp/lcheck.log 2>&1
echo "all cases: exit $?, ${SECONDS} s: $(tail -2 /tmp/lcheck.log | head -1)"
grep -E "^FAIL" /tmp/lcheck.log | head
xz -9 -c /tmp/lcheck.log > "$OUT/lcheck.log.xz"
mkdir -p .tune/tools && tar -xJf .carry/tune/hkg-tune.tar.xz -C .tune/tools && touch .tune/tools/bin/hkg-tune
timeout 90 .tune/tools/bin/hkg-run .carry/decode-sk --reps=200 --warmup=20 --json="$OUT/decode.json" > "$OUT/decode.log" 2>&1
echo "decode variants: exit $?, ${SECONDS} s"; cat "$OUT/decode.log"
timeout 90 python3 utils/bench/cublas_gemms.py > "$OUT/cublas.md" 2>&1
cat "$OUT/cublas.md"
mkdir -p /tmp/tune-out
OUT=/tmp/tune-out RESUME_FROM=.carry/tune-resume BUDGET=${BUDGET:-48} DEADLINE_S=$((${CALL_S:-330} - SECONDS)) \
  bash utils/device/tune_call.sh gemm_decode 2>&1 | grep -v "trial [0-9]*/" | tail -30
tar -cJf "$OUT/tune.tar.xz" -C /tmp tune-out
echo "total ${SECONDS} s"
