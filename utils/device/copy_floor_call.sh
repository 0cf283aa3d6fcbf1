#!/usr/bin/env bash
# One device call (docs/perf 2026-12-04, "session 13"): every PERF.md op's
# default schedule against a copy of its bytes, in the tuner's own harness.
#   1. hkg-run --time-copy on the default bundle of each example op: after
#      the kernel's timed launches, as many device-to-device copies moving
#      the same bytes (half read, half written), timed the same way (256 MiB
#      memset flush before each, events, median). Two rounds for the
#      memory-bound ops, one for the GEMMs and attention.
#   2. hkg-tune on layernorm from scratch, 64 trials, with
#      --stop-at-copy=$STOP (0.97): the search ends once its best trial runs
#      at that share of the copy's speed; the report gives the default and
#      the winner against the copy.
# Prepared here (no GPU), from the repo root after building:
#   mkdir -p .carry/floor && for op in softmax layernorm rmsnorm gelu bias_gelu swiglu rope top_p gemm gemm8192 gemm_decode qkv_proj attention; do
#     build/bin/hkg-compile examples/$op.mlir --chip=sm_90 -o /tmp/floor/$op; done
#   tar -cJf .carry/floor/bundles.tar.xz -C /tmp/floor .
#   JOBS=2 bash utils/device/build-portable.sh --tune                  # .carry/tune
# On the H200 (carry .carry/floor .carry/tune):
#   bash utils/device/copy_floor_call.sh
# $OUT: floor.tar.xz (per op and round: hkg-run's table and JSON; the
# summary table), tune.tar.xz (tune_call.sh's outputs).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
STOP=${STOP:-0.97}
MEM_OPS="softmax layernorm rmsnorm gelu bias_gelu swiglu rope top_p"
BIG_OPS="gemm gemm8192 gemm_decode qkv_proj attention"
W=/tmp/floor-call; rm -rf "$W"; mkdir -p "$W/bundles" "$W/floor" "$W/tools"
tar -xJf .carry/floor/bundles.tar.xz -C "$W/bundles" || { echo "no .carry/floor/bundles.tar.xz"; exit 1; }
tar -xJf .carry/tune/hkg-tune.tar.xz -C "$W/tools" || { echo "no .carry/tune/hkg-tune.tar.xz"; exit 1; }
RUN=$W/tools/bin/hkg-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$W/floor/gpu.txt"

run_op() { # op round
  "$RUN" "$W/bundles/$1" --time-copy --measure-copy-mib=0 --timeout=300 \
    --json="$W/floor/$1-$2.json" > "$W/floor/$1-$2.txt" 2>&1
  echo "== $1 round $2 (exit $?, ${SECONDS} s)"; grep -A1 "PASS\|FAIL" "$W/floor/$1-$2.txt"
}
for r in 1 2; do for op in $MEM_OPS; do run_op "$op" "$r"; done; done
for op in $BIG_OPS; do run_op "$op" 1; done
python3 - "$W/floor" $MEM_OPS $BIG_OPS > "$W/floor/summary.md" <<'EOF'
import json, os, sys
d, ops = sys.argv[1], sys.argv[2:]
print("| op | bytes moved | default, us (rounds) | copy of those bytes, us (rounds) | default at % of the copy's speed |")
print("|---|---|---|---|---|")
for op in ops:
    ks, cs, fs, b = [], [], [], None
    for r in (1, 2):
        p = os.path.join(d, f"{op}-{r}.json")
        if not os.path.exists(p):
            continue
        for k in json.load(open(p)).get("kernels", []):
            t = k.get("timing") or {}
            if "copy_us" in t:
                ks.append(t["median_us"]); cs.append(t["copy_us"])
                fs.append(t["fraction_of_copy"]); b = t["bytes"]
    if not ks:
        print(f"| {op} | - | - | - | - |"); continue
    j = lambda v, f: " / ".join(f.format(x) for x in v)
    print(f"| {op} | {b / 2**20:.1f} MiB | {j(ks, '{:.2f}')} | {j(cs, '{:.2f}')} | {j(fs, '{:.1%}')} |")
EOF
cat "$W/floor/summary.md"
tar -cJf "$OUT/floor.tar.xz" -C "$W" floor
mkdir -p /tmp/t13
OUT=/tmp/t13 RESUME_FROM=/nonexistent BUDGET=64 JOBS=1 DEADLINE_S=$((${CALL_S:-570} - SECONDS)) \
  HKG_TUNE_ARGS="--stop-at-copy=$STOP" bash utils/device/tune_call.sh layernorm 2>&1 |
  grep -v "trial [0-9]*/" | grep -v "confirm round"
tar -cJf "$OUT/tune.tar.xz" -C /tmp t13
echo "total ${SECONDS} s"
