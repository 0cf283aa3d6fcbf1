#!/usr/bin/env bash
# Tunes PERF.md's example ops on the GPU machine with the portable hkg-tune
# (utils/device/build-portable.sh --tune made .carry/tune/hkg-tune.tar.xz):
# one `hkg-tune tune` per op, every candidate compiled in hkg-tune, run,
# checked against the float64 reference and timed in its own hkg-run worker,
# every measurement stored in one SQLite database at once.
#
#   bash utils/tuning/tune_perf_ops.sh [op ...]     # from the repo root
#
# Ops: examples/<op>.mlir with hkg.target rewritten to $CHIP; default: all of
# PERF.md's table (softmax layernorm rmsnorm gelu bias_gelu swiglu rope top_p
# gemm gemm8192 gemm_decode qkv_proj attention); `all`: every .mlir in
# $EXAMPLES. Split them over device calls as needed.
#
# Resuming: the database ($WORK/perf.sqlite, WORK=.tune by default, an
# ignored path that stays on a warm machine between calls) holds every
# measurement; a rerun counts an op's records against its budget and measures
# only what is left. When the database is missing and
# $RESUME_FROM/perf.sqlite exists (RESUME_FROM=.carry/tune-resume: carry back
# a previous call's $OUT/resume), it starts from that. Each op gets at most
# the time left before DEADLINE_S (540 s after the start): an op cut short is
# marked "interrupted" and resumes in the next call.
#
# $OUT gets: summary.md (one table: default and fastest time in the search,
# the confirmed default and winner times and speed-up, the winning schedule,
# statuses, tuning wall time), estimate.txt, records.jsonl (the database
# export), resume/ (the database and wall times, to carry back), and per op
# <op>/: input.mlir, tune.log, tuned.mlir, report.md, report.json,
# report-0.svg.
#
# Environment: OUT, TOOLS (.carry/tune: hkg-tune.tar.xz, or a directory with
# bin/hkg-tune and bin/hkg-run, e.g. build), CHIP (sm_90), BUDGET (64), SEED
# (0), MODEL (data/policy-h200.json; empty: none), EXAMPLES (examples),
# DEADLINE_S (540), HKG_TUNE_ARGS (extra `hkg-tune tune` options), JOBS
# (1: ops tuned at once, sharing the GPU through the lock $WORK/gpu.lock).
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
OUT=${OUT:-/tmp/hkg-tune-perf-out}
TOOLS=${TOOLS:-.carry/tune}
CHIP=${CHIP:-sm_90}
BUDGET=${BUDGET:-64}
SEED=${SEED:-0}
MODEL=${MODEL-data/policy-h200.json}
EXAMPLES=${EXAMPLES:-examples}
WORK=${WORK:-.tune}
RESUME_FROM=${RESUME_FROM:-.carry/tune-resume}
JOBS=${JOBS:-1}
DEADLINE=$((START + ${DEADLINE_S:-540}))
ALL_OPS="softmax layernorm rmsnorm gelu bias_gelu swiglu rope top_p gemm gemm8192 gemm_decode qkv_proj attention"
OPS=${*:-$ALL_OPS}
# "all": every $EXAMPLES/*.mlir (e.g. the sampled dataset's groups,
# utils/tuning/dataset_ops.py).
if [ "$OPS" = all ]; then
  OPS=$(for f in "$EXAMPLES"/*.mlir; do basename "$f" .mlir; done | tr '\n' ' ')
fi
mkdir -p "$OUT" "$WORK/ops"
DB=$WORK/perf.sqlite
LOCK=$WORK/gpu.lock

# The tools: an unpacked tarball (cached in $WORK/tools) or a directory.
if [ -x "$TOOLS/bin/hkg-tune" ]; then
  BIN=$TOOLS/bin
elif [ -f "$TOOLS/hkg-tune.tar.xz" ]; then
  if [ ! -x "$WORK/tools/bin/hkg-tune" ] || [ "$TOOLS/hkg-tune.tar.xz" -nt "$WORK/tools/bin/hkg-tune" ]; then
    rm -rf "$WORK/tools" && mkdir -p "$WORK/tools"
    tar -xJf "$TOOLS/hkg-tune.tar.xz" -C "$WORK/tools" || { echo "cannot unpack $TOOLS/hkg-tune.tar.xz"; exit 1; }
    touch "$WORK/tools/bin/hkg-tune"
  fi
  BIN=$WORK/tools/bin
else
  echo "no hkg-tune: expected $TOOLS/hkg-tune.tar.xz or $TOOLS/bin/hkg-tune"; exit 1
fi
BIN=$(cd "$BIN" && pwd)
echo "tools: $BIN ($(( $(date +%s) - START )) s to unpack)"
"$BIN/hkg-tune" --version 2>/dev/null | head -1
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"

if [ ! -f "$DB" ] && [ -f "$RESUME_FROM/perf.sqlite" ]; then
  echo "resuming from $RESUME_FROM"
  cp "$RESUME_FROM/perf.sqlite" "$DB"
  for f in "$RESUME_FROM"/wall/*; do
    [ -f "$f" ] && mkdir -p "$WORK/ops/$(basename "$f")" && cp "$f" "$WORK/ops/$(basename "$f")/wall_s"
  done
fi

export_db() {
  if [ -f "$DB" ]; then
    "$BIN/hkg-tune" export --db "$DB" -o "$OUT/records.jsonl" 2>/dev/null
  else
    : > "$OUT/records.jsonl"
  fi
}

# Inputs, signatures and default schedules first (no device needed).
VALID=""
for op in $OPS; do
  src=$EXAMPLES/$op.mlir
  d=$WORK/ops/$op
  mkdir -p "$d" "$OUT/$op"
  if [ ! -f "$src" ]; then echo "no $src"; echo "missing input" > "$d/state"; continue; fi
  sed -E "s/#hkg\.target<chip = \"[^\"]*\"/#hkg.target<chip = \"$CHIP\"/" "$src" > "$OUT/$op/input.mlir"
  "$BIN/hkg-tune" signature "$OUT/$op/input.mlir" > "$d/signature.txt" 2> "$OUT/$op/signature.err" &&
    "$BIN/hkg-tune" sample "$OUT/$op/input.mlir" --chip "$CHIP" -n 1 2>/dev/null | head -1 > "$d/default.json"
  if [ "$(wc -l < "$d/signature.txt")" != 1 ]; then
    echo "$op: expected one hkg op: $(head -1 "$OUT/$op/signature.err")"; echo "no single op" > "$d/state"
    continue
  fi
  VALID="$VALID $op"
done

export_db
echo "estimate (budget $BUDGET trials per op; seconds per trial are guesses, see docs/Tuning.md):"
python3 utils/tuning/perf_summary.py --estimate --records "$OUT/records.jsonl" --ops "$WORK/ops" \
  --chip "$CHIP" --budget "$BUDGET" $VALID | tee "$OUT/estimate.txt"

model_args=()
[ -n "$MODEL" ] && model_args=(--model "$MODEL")
# One op's tuning; its log goes to $OUT/<op>/tune.log (and, with JOBS=1, to
# stdout as it comes).
tune_op() {
  local op=$1 d=$WORK/ops/$1 left t0 t1 rc n
  left=$((DEADLINE - $(date +%s)))
  if [ "$left" -lt 30 ]; then
    echo "== $op: not started, ${left}s left before the deadline (rerun to go on)"
    [ -f "$d/state" ] || echo "not started" > "$d/state"
    return
  fi
  echo "== $op: tuning (at most ${left}s)"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2206
  local cmd=(timeout -k 10 "$left" "$BIN/hkg-tune" tune "$OUT/$op/input.mlir" --chip "$CHIP"
    --budget "$BUDGET" --seed "$SEED" --db "$DB" "${model_args[@]}" -o "$OUT/$op/tuned.mlir"
    --report "$OUT/$op/report" --device-lock "$LOCK" ${HKG_TUNE_ARGS:-})
  if [ "$JOBS" = 1 ]; then
    "${cmd[@]}" 2>&1 | tee "$OUT/$op/tune.log"
    rc=${PIPESTATUS[0]}
  else
    "${cmd[@]}" > "$OUT/$op/tune.log" 2>&1
    rc=$?
  fi
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >> "$d/wall_s"
  case "$rc" in
    0) echo "done" > "$d/state" ;;
    124|137) echo "interrupted (rerun to resume)" > "$d/state" ;;
    *) echo "failed (hkg-tune exit $rc)" > "$d/state" ;;
  esac
  n=$(grep -cE "trial [0-9]+/[0-9]+:" "$OUT/$op/tune.log")
  [ "$JOBS" = 1 ] || grep -E "best|finalist|no correct|keeps no|error" "$OUT/$op/tune.log" | sed "s/^/  $op: /"
  echo "== $op: $(cat "$d/state") in $(tail -1 "$d/wall_s") s; $n trial(s) measured in this call$( [ "$n" -gt 0 ] &&
    awk -v w="$(tail -1 "$d/wall_s")" -v n="$n" 'BEGIN {printf ", %.1f s per trial", w / n}')"
}

# JOBS > 1 tunes that many ops at once: their host work (compiling, random
# inputs, the float64 references) runs in parallel, while the device lock
# lets one candidate at a time use the GPU, so the timings are as if alone.
for op in $VALID; do
  if [ "$JOBS" = 1 ]; then
    tune_op "$op"
  else
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    tune_op "$op" &
  fi
done
wait

export_db
python3 utils/tuning/perf_summary.py --records "$OUT/records.jsonl" --ops "$WORK/ops" --reports "$OUT" \
  --chip "$CHIP" --budget "$BUDGET" $OPS > "$OUT/summary.md"
cat "$OUT/summary.md"
mkdir -p "$OUT/resume/wall"
[ -f "$DB" ] && cp "$DB" "$OUT/resume/perf.sqlite"
for op in $OPS; do
  [ -f "$WORK/ops/$op/wall_s" ] && cp "$WORK/ops/$op/wall_s" "$OUT/resume/wall/$op"
done
echo "total $(( $(date +%s) - START )) s"
