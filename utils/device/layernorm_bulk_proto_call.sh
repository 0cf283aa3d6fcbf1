#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 12", call 1): is a
# bulk-copy (cp.async.bulk + mbarrier) row pipeline worth building for
# layernorm 8192x8192 bf16? utils/bench/layernorm_bulk_proto.cu times
# hand-written variants (the register-cached form hkg emits, persistent
# bulk-copy pipelines over 2-6 LDS stages, a copy of the same bytes); then
# bench.py times hkg's own default next to them (two rounds).
# Prepared here: python3 utils/bench/sweep.py --out .carry/ln --shapes perf --ops layernorm --per-op 0
# On the H200 (carry .carry/ln): bash utils/device/layernorm_bulk_proto_call.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
R=$OUT/call1; mkdir -p "$R"
nvcc -O3 -arch=sm_90a -Xptxas -v -o "$R/proto" utils/bench/layernorm_bulk_proto.cu > "$R/nvcc.log" 2>&1
echo "nvcc: exit $?, ${SECONDS} s"
timeout 120 "$R/proto" 100 3 | tee "$R/proto.txt"
echo "proto: ${SECONDS} s"
. utils/device/bench_rounds.sh
OUT=$R bench_rounds bench .carry/ln perf layernorm p0 100
rm -f "$R/proto"
tar -cJf "$OUT/call1.tar.xz" -C "$OUT" call1 && rm -rf "$R"
echo "total ${SECONDS} s"
