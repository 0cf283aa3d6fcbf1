#!/usr/bin/env bash
# Many kernels through the C++ runtime or the tuning dataset's harness.
#
#   bash utils/device/sweep.sh kernels [SWEEP_DIR=.carry/sweep] [TOOLS=.carry/bin]
#     The correctness sweep: hkg-run (TOOLS: build-portable.sh's tarball)
#     on every bundle of utils/sweep/make_sweep.py's sweep, each kernel in
#     its own worker process, checked against float64 and timed briefly; the
#     planted out-of-bounds kernel must come back as a failure while the
#     sweep carries on. Kernels with dynamic sizes (the dynamic_* families)
#     run once per value of SIZES (hkg-run --sizes; default 0,1,5,257: every
#     size parameter takes the value, so keep them small for kernels with
#     two). PARALLEL=N runs N families side by side (their CPU-side
#     references overlap; the brief timings are then not comparable).
#     $OUT: sweep.json (summarize here with
#     utils/sweep/summarize.py sweep.json SWEEP_DIR), sweep.log.
#   bash utils/device/sweep.sh dataset [TUNING_DIR=.carry/tuning]
#     The tuning dataset: utils/tuning/measure.py over the candidates of
#     utils/tuning/make_candidates.py (fresh inputs, poisoned outputs,
#     float64 references, do_bench medians on a cold L2), restarted in a
#     fresh context after a CUDA fault, until done or the call's time is up
#     (lib.sh's CALL_S). $OUT: records.jsonl.xz (hkg-tune import format),
#     progress.jsonl.xz, measure.log, summary.txt, gpu.txt.
. "$(dirname "$0")/lib.sh"
mode=${1:-}; shift || true
case "$mode" in
kernels)
  SWEEP=${1:-.carry/sweep}
  bin=$(hkg_bin "${2:-.carry/bin}") || exit 1
  mkdir -p /tmp/sweep-json /tmp/sweep-log
  # One family: hkg-run over its bundle, its log kept apart so that
  # families run side by side (PARALLEL) do not interleave their lines.
  run_family() {
    local bundle=$1 fam
    fam=$(basename "$bundle")
    [ "$(time_left 5)" -gt 0 ] || { echo "out of time before $fam" > "/tmp/sweep-log/$fam.log"; return; }
    timeout "$(time_left 5)" "$bin/hkg-run" "$bundle" --reps=20 --warmup=3 --timeout=60 \
      --measure-copy-mib=512 --sizes="${SIZES:-0,1,5,257}" --json "/tmp/sweep-json/$fam.json" \
      > "/tmp/sweep-log/$fam.log" 2>&1
  }
  families=()
  for bundle in "$SWEEP"/*/; do
    [ -f "$bundle/manifest.json" ] && families+=("$bundle")
  done
  for bundle in "${families[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "${PARALLEL:-1}" ]; do wait -n; done
    run_family "$bundle" &
  done
  wait
  for bundle in "${families[@]}"; do
    cat "/tmp/sweep-log/$(basename "$bundle").log"
  done > "$OUT/sweep.log"
  python3 - "$OUT/sweep.json" /tmp/sweep-json/*.json <<'PY'
import json, sys
out = {}
for p in sys.argv[2:]:
    out[p.rsplit("/", 1)[1][:-5]] = json.load(open(p))
json.dump(out, open(sys.argv[1], "w"))
PY
  grep -E "kernel\(s\) passed|FAIL|CRASH|ERROR|TIMEOUT" -i "$OUT/sweep.log" | head -40
  ;;
dataset)
  T=${1:-.carry/tuning}
  gpu_info "$OUT/gpu.txt"
  if [ ! -d "$T/bundles" ]; then
    tar -xJf "$T/bundles.tar.xz" -C "$T" || { echo "cannot unpack $T/bundles.tar.xz"; exit 1; }
  fi
  DEADLINE=$((CALL_START + CALL_S - 30))
  # Exit 75: a CUDA fault was recorded, go on in a fresh context. Any other
  # failure is retried too while it makes progress: the next run records the
  # candidate in flight as a fault (pending.json) and resumes.
  for attempt in $(seq 1 40); do
    before=$(cat "$OUT/progress.jsonl" 2>/dev/null | wc -l)
    python3 utils/tuning/measure.py --tuning "$T" --out "$OUT" --deadline "$DEADLINE" 2>&1 | tee -a "$OUT/measure.log"
    rc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && break
    [ "$(date +%s)" -lt "$DEADLINE" ] || break
    after=$(cat "$OUT/progress.jsonl" 2>/dev/null | wc -l)
    if [ "$rc" != 75 ] && [ "$after" = "$before" ] && [ ! -f "$OUT/pending.json" ]; then
      echo "measure.py failed (exit $rc) without progress; giving up"; break
    fi
    echo "measure.py exited with $rc; resuming (attempt $((attempt + 1)))"
  done
  python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import collections, json, sys
out = sys.argv[1]
recs = [json.loads(l) for l in open(out + "/records.jsonl") if l.strip()]
by = collections.Counter(r["status"] for r in recs)
print(f"{len(recs)} records: " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())))
for (op, st), n in sorted(collections.Counter((r["op"], r["status"]) for r in recs).items()):
    print(f"  {op:18s} {st:14s} {n}")
PY
  [ -f "$OUT/records.jsonl" ] && xz -T0 -6 -f "$OUT/records.jsonl" "$OUT/progress.jsonl"
  rm -f "$OUT/pending.json"
  ;;
*)
  echo "usage: sweep.sh kernels [SWEEP_DIR] [TOOLS] | sweep.sh dataset [TUNING_DIR]" >&2
  exit 2
  ;;
esac
ls -l "$OUT"
echo "total $SECONDS s"
