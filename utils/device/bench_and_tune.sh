#!/usr/bin/env bash
# One device call for issues #6 and #7 together (the device returns at most
# 8 files, so everything but the tables is packed):
#   1. utils/device/check_bench_all.sh: the lowering check on .carry/lcheck,
#      the side-by-side bench over .carry/bundles (SHAPES, at most BENCH_S
#      seconds before its last case starts);
#   2. hkg-tune on the device (utils/tuning/tune_perf_ops.sh, carry
#      .carry/tune and, to resume, .carry/tune-resume) in steps "OPS:BUDGET"
#      given as arguments, each with the time left before TUNE_DEADLINE_S
#      seconds after the start of this script; one database for all steps.
#
#   SHAPES=perf,second,stat BENCH_S=250 TUNE_DEADLINE_S=470 \
#     bash utils/device/bench_and_tune.sh "qkv_proj:16" "gemm:32"
#
# $OUT gets bench.md, bench.json, summary.md (tuning: every op of the steps),
# records.jsonl.xz (the tuning database export), resume.tar.xz (database and
# wall times, unpack into .carry/tune-resume for the next call), logs.tar.xz
# (gpu.txt, lcheck.log, bench.log, inductor-src.txt, tune.log of every op,
# per-step summaries, estimates, reports, tuned modules).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
START=$(date +%s)
DEST=$OUT
B=$(mktemp -d) T=$(mktemp -d)
OUT=$B bash utils/device/check_bench_all.sh "${SHAPES:-perf,second,stat}" "${OPS:-}" "${BENCH_S:-250}" 2>&1 |
  tee "$B/check_bench_all.log" | grep -v "^|"
cp "$B/bench.md" "$B/bench.json" "$DEST/" 2>/dev/null
ALL="" MAXB=0
for step in "$@"; do
  ops=${step%%:*} budget=${step##*:}
  ops=${ops//,/ }
  left=$(( START + ${TUNE_DEADLINE_S:-470} - $(date +%s) ))
  echo "== tuning step $step (${left}s left)"
  [ "$left" -lt 40 ] && { echo "skipped: too little time left"; continue; }
  # shellcheck disable=SC2086
  OUT=$T BUDGET=$budget DEADLINE_S=$left bash utils/tuning/tune_perf_ops.sh $ops 2>&1 | tee -a "$T/tune-all.log" |
    grep -E "^==|best |error" 
  mv "$T/summary.md" "$T/summary-${step//[:,]/-}.md" 2>/dev/null
  ALL="$ALL $ops"; [ "$budget" -gt "$MAXB" ] && MAXB=$budget
done
ALL=$(echo $ALL | tr " " "\n" | awk 'NF && !seen[$0]++' | tr "\n" " ")
if [ -n "$ALL" ]; then
  # shellcheck disable=SC2086
  python3 utils/tuning/perf_summary.py --records "$T/records.jsonl" --ops .tune/ops --reports . \
    --chip "${CHIP:-sm_90}" --budget "$MAXB" $ALL > "$DEST/summary.md"
  cat "$DEST/summary.md"
  xz -9 -c "$T/records.jsonl" > "$DEST/records.jsonl.xz"
  tar -cJf "$DEST/resume.tar.xz" -C "$T/resume" .
fi
rm -rf "$T/resume"
tar -cJf "$DEST/logs.tar.xz" -C / "${B#/}" "${T#/}" --exclude='bench.json' 2>/dev/null
ls -l "$DEST"
echo "total $(( $(date +%s) - START )) s"
