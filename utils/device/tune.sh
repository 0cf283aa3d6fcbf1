#!/usr/bin/env bash
# hkg-tune on the GPU machine: utils/tuning/tune_perf_ops.sh (every candidate
# compiled in hkg-tune, checked against float64 in its own hkg-run worker,
# timed; the finalists confirmed), in one or more steps that share one
# database, each with its own budget, concurrency and hkg-tune options.
#
#   bash utils/device/tune.sh [STEP ...]
#     STEP = OPS[:BUDGET[:JOBS[:HKG_TUNE_ARGS]]], OPS a comma list of
#     examples/ ops (softmax layernorm rmsnorm gelu bias_gelu swiglu rope
#     top_p gemm gemm8192 gemm_decode qkv_proj attention) or `all` (every
#     .mlir in $EXAMPLES, e.g. the sampled dataset's groups); steps run one
#     after the other, a step's ops JOBS at a time sharing the GPU through a
#     device lock. Default: one step with all of them but attention (its
#     float64 reference takes most of a trial; tune it on its own).
#   e.g. bash utils/device/tune.sh softmax,layernorm,rmsnorm:48:5 \
#          "gemm,qkv_proj:33:2:--confirm-finalists 2 --confirm-rounds 2"
#
# Environment: TOOLS (.carry/tune: build-portable.sh --tune's tarball),
#   BUDGET (64), JOBS (1), HKG_TUNE_ARGS (for every step without its own),
#   STOP_AT_COPY (e.g. 0.97: end an op's search once its best runs at that
#   share of a copy of its bytes), RESUME_FROM (.carry/tune-resume, a
#   previous call's NAME-resume.tar.xz unpacked; "none": from scratch; on a
#   warm machine the database in .tune is used first), CHIP (sm_90), MODEL,
#   SEED (tune_perf_ops.sh's). Each step gets the call's time left
#   (lib.sh's CALL_S) less 10 s.
# NAME (tune): $OUT gets NAME.md (one summary table over every op of the
# steps), NAME.tar.xz (log, estimates, records.jsonl.xz, and per op
# input.mlir, tune.log, tuned.mlir, report.md / .json / -0.svg) and
# NAME-resume.tar.xz (the database and wall times).
. "$(dirname "$0")/lib.sh"
NAME=${NAME:-tune}
ALL="softmax,layernorm,rmsnorm,gelu,bias_gelu,swiglu,rope,top_p,gemm,gemm8192,gemm_decode,qkv_proj"
[ $# -gt 0 ] || set -- "$ALL"
W=/tmp/hkg-$NAME; rm -rf "$W"; mkdir -p "$W/ops"
resume=${RESUME_FROM:-.carry/tune-resume}
[ "$resume" = none ] && resume=/nonexistent
stop=()
[ -n "${STOP_AT_COPY:-}" ] && stop=("--stop-at-copy=$STOP_AT_COPY")
ops_all="" max_budget=0 last=""
i=0
for step in "$@"; do
  i=$((i + 1))
  IFS=: read -r ops budget jobs args <<< "$step"
  budget=${budget:-${BUDGET:-64}} jobs=${jobs:-${JOBS:-1}} args=${args:-${HKG_TUNE_ARGS:-}}
  ops=${ops//,/ }
  # "all": every .mlir in $EXAMPLES (tune_perf_ops.sh's inputs).
  [ "$ops" = all ] && ops=$(for f in "${EXAMPLES:-examples}"/*.mlir; do basename "$f" .mlir; done | tr '\n' ' ')
  left=$(time_left 10)
  echo "== step $i: $ops (budget $budget, $jobs at a time, ${left}s left)"
  if [ "$left" -lt 40 ]; then echo "skipped: too little time left"; continue; fi
  s=$W/step$i; mkdir -p "$s"
  # shellcheck disable=SC2086
  OUT=$s RESUME_FROM=$resume BUDGET=$budget JOBS=$jobs DEADLINE_S=$left \
    HKG_TUNE_ARGS="$args ${stop[*]}" bash utils/tuning/tune_perf_ops.sh $ops 2>&1 |
    tee -a "$W/log.txt" | grep -v "trial [0-9]*/" | grep -v "confirm round"
  for op in $ops; do
    [ -d "$s/$op" ] && rm -rf "$W/ops/$op" && mv "$s/$op" "$W/ops/$op"
  done
  mv "$s/estimate.txt" "$W/estimate-step$i.txt" 2>/dev/null
  mv "$s/summary.md" "$W/summary-step$i.md" 2>/dev/null
  ops_all="$ops_all $ops"; last=$s
  [ "$budget" -gt "$max_budget" ] && max_budget=$budget
done
ops_all=$(echo "$ops_all" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')
WORK=${WORK:-.tune}
if [ -n "$last" ] && [ -f "$last/records.jsonl" ]; then
  # shellcheck disable=SC2086
  python3 utils/tuning/perf_summary.py --records "$last/records.jsonl" --ops "$WORK/ops" --reports "$W/ops" \
    --chip "${CHIP:-sm_90}" --budget "$max_budget" $ops_all > "$OUT/$NAME.md"
  xz -9 -c "$last/records.jsonl" > "$W/records.jsonl.xz"
  mkdir -p "$W/resume/wall"
  cp "$WORK/perf.sqlite" "$W/resume/perf.sqlite"
  for f in "$WORK"/ops/*/wall_s; do
    [ -f "$f" ] && cp "$f" "$W/resume/wall/$(basename "$(dirname "$f")")"
  done
  tar -cJf "$OUT/$NAME-resume.tar.xz" -C "$W/resume" . && rm -rf "$W/resume"
  cat "$OUT/$NAME.md"
else
  echo "no step ran" | tee "$OUT/$NAME.md"
fi
rm -rf "$W"/step*
pack "$NAME" "$W"
echo "total $SECONDS s"
