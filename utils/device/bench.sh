#!/usr/bin/env bash
# One device call: the side-by-side benchmark (utils/bench/bench.py) over the
# bundles in .carry/bundles (utils/bench/sweep.py made them here). $OUT gets
# bench.md, bench.json and the log.
set -uo pipefail
export PYTHONUNBUFFERED=1
timeout 560 python3 utils/bench/bench.py --bundles .carry/bundles --out "$OUT" > "$OUT/bench.log" 2>&1
rm -f "$OUT/bench.partial.json.bak"
grep -v "^  \|UserWarning\|Online softmax\|split the reduction\|important use case\|softmax\.$" "$OUT/bench.log" | tail -45
