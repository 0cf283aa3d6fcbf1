#!/usr/bin/env bash
# On the GPU machine, from the repo root: unpack the portable tools if given
# as a tarball, then run hkg-run (static build) over every bundle of the
# sweep built by make_sweep.py. Each kernel runs in its own worker process;
# the planted out-of-bounds kernel must come back as a failure while the
# sweep carries on. Results: $OUT/sweep.json (all bundles) and the logs.
#   bash utils/sweep/run_sweep.sh [SWEEP_DIR=.carry/sweep] [TOOLS=.carry/bin]
set -uo pipefail
SWEEP=${1:-.carry/sweep}
TOOLS=${2:-.carry/bin}
if [ -f "$TOOLS/hkg-tools.tar.xz" ]; then
  tar -xJf "$TOOLS/hkg-tools.tar.xz" -C "$TOOLS"
fi
mkdir -p /tmp/sweep-json
for bundle in "$SWEEP"/*/; do
  fam=$(basename "$bundle")
  [ -f "$bundle/manifest.json" ] || continue
  "$TOOLS/hkg-run" "$bundle" --reps=20 --warmup=3 --timeout=60 --measure-copy-mib=512 \
    --json "/tmp/sweep-json/$fam.json" 2>&1 | tail -n +1
done > "$OUT/sweep.log"
python3 - "$OUT/sweep.json" /tmp/sweep-json/*.json <<'PY'
import json, sys
out = {}
for p in sys.argv[2:]:
    out[p.rsplit("/", 1)[1][:-5]] = json.load(open(p))
json.dump(out, open(sys.argv[1], "w"))
PY
grep -E "kernel\(s\) passed|FAIL|CRASH|ERROR|TIMEOUT" -i "$OUT/sweep.log" | head -40
