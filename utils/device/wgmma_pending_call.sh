#!/usr/bin/env bash
# One device call for matmul's wgmma_pending knob (docs/perf 2026-12-03):
#   1. the lowering check of the 12 wgmma_pending cases (cases.py
#      --wgmma-pending) against float64 references;
#   2. bench.py on the 4096^3 GEMM (B as [K, N]) and qkv_proj 8192x12288x4096
#      (W as [N, K]) with the sweep's pins: p6-p10 are the wgmma pins of
#      session 6, p11-p14 the same with wgmma_pending = 1 (p11: the default
#      with it, p12: 4 stages, p13: 128 x 256 over 4 stages, p14: 4 stages,
#      group_m = 1), cuBLAS in the same run.
# Prepared here (no GPU), from the repo root after building:
#   python3 utils/lowering-check/cases.py --wgmma-pending > /tmp/pc.json
#   HKG_OPT=build/bin/hkg-opt python3 utils/lowering-check/make_cases.py /tmp/pc.json .carry/lcp
#   cp utils/lowering-check/check_cases.py .carry/lcp/
#   python3 utils/bench/sweep.py --out .carry/gp --shapes perf --ops gemm,qkv_proj --per-op 0
# On the H200 (carry .carry/lcp .carry/gp): bash utils/device/wgmma_pending_call.sh
# (Call 1 of 2026-12-03 ran this script's first form: one bench of .carry/gp
# with --ops gemm,qkv_proj, its bench.md / bench.json at the top of $OUT.)
# $OUT: lcheck.log, bench.tar.xz (per bundle set and round: bench.md,
# bench.json, bench.log).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
if [ -d .carry/lcp ]; then
  (cd .carry/lcp && timeout 120 python3 check_cases.py .) > "$OUT/lcheck.log" 2>&1
  echo "lowering check: exit $?, ${SECONDS} s: $(tail -1 "$OUT/lcheck.log")"
  grep -E "^FAIL" "$OUT/lcheck.log" | head
fi
# Call 2 (ROUNDS=2 bash ... .carry/g8 .carry/gp): the 8192^3 GEMM too
# (sweep.py --ops gemm8192: p0-p4 wgmma pins, p5-p8 with wgmma_pending =
# 1), each bundle set benched ROUNDS times for the run-to-run spread.
[ $# -gt 0 ] || set -- .carry/gp
for r in $(seq 1 "${ROUNDS:-1}"); do
  for b in "$@"; do
    o=$OUT/$(basename "$b")-$r; mkdir -p "$o"
    timeout 200 python3 utils/bench/bench.py --bundles "$b" --out "$o" --shapes perf \
      --ops gemm,gemm8192,qkv_proj --no-inductor > "$o/bench.log" 2>&1
    echo "bench $b round $r: exit $?, ${SECONDS} s"
    python3 - "$o/bench.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    print(r["op"], "eager", round(r.get("eager", {}).get("us", 0), 1), " ".join(
        f"{v['label']}={v['quick_us']:.1f}" for v in r.get("variants", []) if v.get("ok")))
PY
  done
done
tar -cJf "$OUT/bench.tar.xz" -C "$OUT" $(cd "$OUT" && ls -d */)
echo "total ${SECONDS} s"
