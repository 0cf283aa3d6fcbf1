#!/usr/bin/env bash
# One device call that belongs together: correctness first, then speed.
#   1. the lowering check (utils/lowering-check: every op family, odd shapes,
#      f32/f16/bf16, non-default schedules) on .carry/lcheck, if present;
#   2. the matmul issue's cases with the accumulation bound, cuBLAS side by
#      side and the planted-defect controls on .carry/mmcheck, if present;
#   3. the side-by-side bench (utils/bench/bench.py: hkg default and swept
#      schedules, eager, Inductor, float64 checks, copy/GEMM ceilings) over
#      .carry/bundles;
#   4. the Triton source and chosen launch configs of the Inductor kernels
#      compiled in step 3 for OPS_SOURCE (default rmsnorm), to compare
#      hkg's kernel with Inductor's.
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/bench/sweep.py --out .carry/bundles --shapes perf,stat \
#       --ops softmax,layernorm,rmsnorm,gelu,bias_gelu,swiglu,rope --per-op 8
#   python3 utils/bench/sweep.py --out .carry/bundles --shapes perf,stat --ops top_p --per-op 4
#   python3 utils/bench/sweep.py --out .carry/bundles --shapes perf --ops gemm,gemm_decode,qkv_proj --per-op 3
#   python3 utils/lowering-check/cases.py > /tmp/cases.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/cases.json .carry/lcheck
#   cp utils/lowering-check/check_cases.py .carry/lcheck/
#   python3 utils/lowering-check/cases.py --matmul-issue > /tmp/mmcases.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/mmcases.json .carry/mmcheck
# On the H200 (device tool; carry .carry/bundles .carry/lcheck .carry/mmcheck):
#   bash utils/device/check_bench_all.sh [SHAPES=perf,stat] [OPS=all] [BUDGET_S=440]
# $OUT gets gpu.txt, lcheck.log, matmul-check.log, bench.log, bench.md,
# bench.json, inductor-src.txt.
set -uo pipefail
export PYTHONUNBUFFERED=1
SHAPES=${1:-perf,stat}
OPS=${2:-}
BUDGET=${3:-440}
export TORCHINDUCTOR_CACHE_DIR=/tmp/hkg-inductor-cache
rm -rf "$TORCHINDUCTOR_CACHE_DIR"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" >> "$OUT/gpu.txt" 2>&1
if [ -d .carry/lcheck ]; then
  (cd .carry/lcheck && timeout 120 python3 check_cases.py . > "$OUT/lcheck.log" 2>&1)
  echo "lowering check: $(grep -c '^OK' "$OUT/lcheck.log") OK, $(grep -vc '^OK' "$OUT/lcheck.log") other lines"
  grep -v "^OK" "$OUT/lcheck.log" | tail -8
fi
if [ -d .carry/mmcheck ]; then
  timeout 120 python3 utils/lowering-check/check_cases.py .carry/mmcheck --controls > "$OUT/matmul-check.log" 2>&1
  tail -4 "$OUT/matmul-check.log"
fi
ops_arg=()
[ -n "$OPS" ] && ops_arg=(--ops "$OPS")
timeout $((590 - SECONDS)) python3 utils/bench/bench.py --bundles .carry/bundles --out "$OUT" --shapes "$SHAPES" \
  "${ops_arg[@]}" --budget $((BUDGET - SECONDS)) > "$OUT/bench.log" 2>&1
echo "bench.py exit: $?"
# Inductor's generated kernels for the ops of interest (the source files
# mention the op's characteristic math), with their autotuned configs.
{
  for f in $(grep -rl "${SOURCE_PATTERN:-rsqrt}" "$TORCHINDUCTOR_CACHE_DIR" --include='*.py' 2>/dev/null | head -6); do
    echo "=== $f"; cat "$f"
  done
  for f in $(find "$TORCHINDUCTOR_CACHE_DIR" -name '*.best_config' 2>/dev/null | head -40); do
    echo "=== $f"; cat "$f"; echo
  done
} > "$OUT/inductor-src.txt" 2>&1
if [ -f "$OUT/bench.md" ]; then rm -f "$OUT/bench.partial.json"; cat "$OUT/bench.md"
else grep -v "^  \|UserWarning" "$OUT/bench.log" | tail -40; fi
echo "total ${SECONDS} s"
