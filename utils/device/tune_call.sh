#!/usr/bin/env bash
# One device call of issue #7's on-device tuning: utils/tuning/tune_perf_ops.sh
# with its per-op files packed, since the device tool returns at most 8 files
# from $OUT. Carry .carry/tune (the portable hkg-tune from
# utils/device/build-portable.sh --tune) and, to resume a previous call,
# .carry/tune-resume (that call's resume.tar.xz unpacked there).
#
#   BUDGET=16 DEADLINE_S=520 bash utils/device/tune_call.sh [op ...]
#
# $OUT gets summary.md, estimate.txt, log.txt, records.jsonl.xz, ops.tar.xz
# (per op: input.mlir, tune.log, tuned.mlir, report.md, report-0.svg) and
# resume.tar.xz (the SQLite database and wall times, for the next call).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
DEST=$OUT
WORKOUT=$(mktemp -d)
OUT=$WORKOUT bash utils/tuning/tune_perf_ops.sh "$@" 2>&1 | tee "$DEST/log.txt"
cp "$WORKOUT/summary.md" "$WORKOUT/estimate.txt" "$DEST/" 2>/dev/null
[ -f "$WORKOUT/records.jsonl" ] && xz -9 -c "$WORKOUT/records.jsonl" > "$DEST/records.jsonl.xz"
ops=$(cd "$WORKOUT" && for d in */; do [ "$d" = resume/ ] || echo "${d%/}"; done)
# shellcheck disable=SC2086
tar -cJf "$DEST/ops.tar.xz" -C "$WORKOUT" $ops
tar -cJf "$DEST/resume.tar.xz" -C "$WORKOUT/resume" .
ls -l "$DEST"
