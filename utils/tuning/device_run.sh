#!/usr/bin/env bash
# The tuning dataset's device call (H200): run from the repo root on the GPU
# machine as `bash utils/tuning/device_run.sh`, with .carry/tuning made here by
# utils/tuning/make_candidates.py. Measures every candidate (utils/tuning/
# measure.py, restarted after a CUDA fault, resuming where it stopped) until
# done or TUNING_SECONDS (default 420) have passed, then compresses.
# $OUT gets: gpu.txt, measure.log, records.jsonl.xz (hkg-tune import format),
# progress.jsonl.xz (candidate id, status, message), summary.txt.
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/hkg-tuning-out}
mkdir -p "$OUT"
T=.carry/tuning
START=$(date +%s)
DEADLINE=$((START + ${TUNING_SECONDS:-420}))
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
if [ ! -d "$T/bundles" ]; then
  tar -xJf "$T/bundles.tar.xz" -C "$T" || { echo "cannot unpack $T/bundles.tar.xz"; exit 1; }
fi
echo "unpacked in $(( $(date +%s) - START ))s"
# Exit 75: a CUDA fault was recorded, go on in a fresh context. Any other
# failure (a segfault, say) is retried too while it makes progress: the next
# run records the candidate in flight as a fault (pending.json) and resumes.
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
kinds = collections.Counter((r["op"], r["status"]) for r in recs)
for (op, st), n in sorted(kinds.items()):
    print(f"  {op:18s} {st:14s} {n}")
PY
[ -f "$OUT/records.jsonl" ] && xz -T0 -6 -f "$OUT/records.jsonl" "$OUT/progress.jsonl"
rm -f "$OUT/pending.json"
ls -la "$OUT"
echo "total $(( $(date +%s) - START ))s"
