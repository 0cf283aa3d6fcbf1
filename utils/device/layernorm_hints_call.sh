#!/usr/bin/env bash
# One device call (docs/perf 2026-12-03, "session 12", calls 2-3): the second and third
# version of utils/bench/layernorm_bulk_proto.cu (load / store cache-hint
# forms of the register-cached layernorm, bulk-copy pipelines, copies of
# the same bytes and of 1 GiB) under a dirty (memset) and a clean (read)
# L2 flush. Nothing carried.
set -uo pipefail
cd "$(dirname "$0")/../.."
R=$OUT/${CALL:-call2}; mkdir -p "$R"
nvcc -O3 -arch=sm_90a -Xptxas -v -o "$R/proto" utils/bench/layernorm_bulk_proto.cu > "$R/nvcc.log" 2>&1
echo "nvcc: exit $?, ${SECONDS} s"
timeout 200 "$R/proto" 100 3 | tee "$R/proto.txt"
echo "proto: exit $?, ${SECONDS} s"
rm -f "$R/proto"
