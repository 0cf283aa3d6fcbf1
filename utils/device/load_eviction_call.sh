#!/usr/bin/env bash
# One device call: a load cache policy (`hkg.load_eviction`) against plain
# loads, PERF.md's memory-bound ops, as run for docs/perf 2026-12-02
# (session 6, runs 1 and 2):
#   1. the side-by-side bench of PERF.md's shapes for the 7 memory-bound ops
#      (every default-* variant timed in full);
#   2. the same bench again for rmsnorm, swiglu, layernorm and gelu (the
#      effects are 1-3 us; a second sample in the same run shows the noise);
#   3. Inductor's PTX of its rmsnorm kernels (Triton's cache);
#   4. Nsight Compute: rmsnorm default and default-plain against Inductor.
# Runs 1 and 2 used sweep source variants `default-l2ef` / `default-l2el`
# ("first" / "last" on a plain default) that were replaced when "last"
# became the default; today's variants are `default` (the policy) and
# `default-plain` (hkg.load_eviction = "normal").
# Prepared here (no GPU), from the repo root after building:
#   rm -rf .carry/bundles
#   python3 utils/bench/sweep.py --out .carry/bundles --shapes perf \
#       --ops softmax,layernorm,rmsnorm,gelu,bias_gelu,swiglu,rope --per-op 1
# On the H200 (carry .carry/bundles):
#   bash utils/device/load_eviction_call.sh
# $OUT: gpu.txt, bench.md, bench.json, repeat.md, extras.tar.xz (bench.log,
# repeat.json/log, inductor-src.txt, triton-ptx.txt, ncu-rmsnorm.txt).
set -uo pipefail
export PYTHONUNBUFFERED=1
export TRITON_CACHE_DIR=/tmp/hkg-triton-cache
rm -rf "$TRITON_CACHE_DIR"
OPS=softmax,layernorm,rmsnorm,gelu,bias_gelu,swiglu,rope
bash utils/device/check_bench_all.sh perf "$OPS" 250
mkdir -p "$OUT/x"
mv "$OUT/bench.log" "$OUT/inductor-src.txt" "$OUT/x/" 2>/dev/null
echo "=== repeat"
timeout $((560 - SECONDS)) python3 utils/bench/bench.py --bundles .carry/bundles --out "$OUT/x/repeat" \
  --shapes perf --ops rmsnorm,swiglu,layernorm,gelu --budget $((480 - SECONDS)) > "$OUT/x/repeat.log" 2>&1
echo "repeat exit: $?"
cp "$OUT/x/repeat/bench.md" "$OUT/repeat.md" 2>/dev/null && grep "^| " "$OUT/repeat.md" | head -12
{
  for f in $(grep -rl "rms" "$TRITON_CACHE_DIR" --include='*.ptx' 2>/dev/null | head -8); do
    echo "=== $f"; cat "$f"
  done
} > "$OUT/x/triton-ptx.txt" 2>&1
echo "triton ptx: $(grep -c '^===' "$OUT/x/triton-ptx.txt") files"
if [ $SECONDS -lt 470 ]; then
  OUT="$OUT/x" bash utils/device/profile_rowops.sh rmsnorm .carry/bundles/rmsnorm/default \
    .carry/bundles/rmsnorm/default-plain | head -40
fi
tar -C "$OUT" -cJf "$OUT/extras.tar.xz" x && rm -rf "$OUT/x"
ls -la "$OUT"
echo "total ${SECONDS} s"
exit 0
