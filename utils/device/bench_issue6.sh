#!/usr/bin/env bash
# One device call for issue #6: the side-by-side benchmark (utils/bench/bench.py)
# at PERF.md's shapes and the second shape set, and the on-GPU statistical test
# of top-p, over the bundles in BUNDLES (default .carry/bundles, made here by
# utils/bench/sweep.py --shapes perf,second,stat --index32 default).
#
#   bash utils/device/bench_issue6.sh [SHAPES] [OPS] [BUDGET_S]
#     SHAPES: comma list of perf, second, stat (default perf,second,stat)
#     OPS:    comma list (default: softmax..rope, top_p; "" = that default)
#     BUDGET_S: no case starts after this many seconds (default 470), so the
#               call ends inside the device tool's 600 s limit; cases left
#               out are listed as skipped in bench.md.
# If .carry/lcheck32 exists (utils/lowering-check/make_cases.py built with
# HKG_INDEX_BITWIDTH=32), the lowering check runs first on those kernels
# (32-bit indices on odd shapes; at most 100 s) and the bench gets the rest.
# $OUT gets gpu.txt, lcheck32.log, bench.log, bench.md, bench.json
# (bench.partial.json while it runs).
set -uo pipefail
export PYTHONUNBUFFERED=1
SHAPES=${1:-perf,second,stat}
OPS=${2:-softmax,layernorm,rmsnorm,gelu,bias_gelu,swiglu,rope,top_p}
BUDGET=${3:-470}
BUNDLES=${BUNDLES:-.carry/bundles}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
if [ -d .carry/lcheck32 ]; then
  (cd .carry/lcheck32 && timeout 100 python3 check_cases.py . > "$OUT/lcheck32.log" 2>&1)
  grep -v "^OK" "$OUT/lcheck32.log" | tail -12
fi
timeout $((590 - SECONDS)) python3 utils/bench/bench.py --bundles "$BUNDLES" --out "$OUT" --shapes "$SHAPES" \
  --ops "$OPS" --budget $((BUDGET - SECONDS)) > "$OUT/bench.log" 2>&1
echo "bench.py exit: $?"
if [ -f "$OUT/bench.md" ]; then rm -f "$OUT/bench.partial.json"; cat "$OUT/bench.md"
else grep -v "^  \|UserWarning" "$OUT/bench.log" | tail -40; fi
