#!/usr/bin/env bash
# Prints a digest of everything hkg generates for a fixed set of inputs, one
# line per artifact (name, sha256), so that a refactor that must not change
# code generation can prove it: run it before and after, then diff.
#
#   utils/codegen_digest.sh [build-dir] > /tmp/before.txt
#   ... change the compiler, rebuild ...
#   utils/codegen_digest.sh [build-dir] > /tmp/after.txt
#   diff /tmp/before.txt /tmp/after.txt     # empty: nothing generated moved
#
# Artifacts:
#   - every example (examples/*.mlir) and the target test inputs
#     (test/Target/Inputs/*.mlir), default schedules and hkg-lower-to-gpu,
#     for gfx942, gfx950, gfx1100, gfx1201, sm_80 and sm_90 (the lowered IR);
#   - every case of the GPU lowering check (utils/lowering-check/cases.py:
#     some 300 schedules off the default, sm_90 PTX), where CUDA's
#     libdevice is installed.
# Set DIGEST_KEEP=dir to keep the artifacts there (to diff a line that moved).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
OPT="$BUILD/bin/hkg-opt"
[ -x "$OPT" ] || { echo "codegen_digest: no $OPT (build hkg first)" >&2; exit 1; }
WORK=${DIGEST_KEEP:-$(mktemp -d)}
mkdir -p "$WORK/ir"

for f in examples/*.mlir test/Target/Inputs/*.mlir; do
  base=$(basename "$f" .mlir)
  for chip in gfx942 gfx950 gfx1100 gfx1201 sm_80 sm_90; do
    out="$WORK/ir/$base.$chip.mlir"
    if "$OPT" "$f" --hkg-default-schedule="chip=$chip" \
        --hkg-lower-to-gpu="chip=$chip" >"$out" 2>"$out.err"; then
      echo "$base.$chip $(sha256sum <"$out" | cut -c1-16)"
    else
      # A refusal is an artifact too: its message must not move either.
      echo "$base.$chip refused $(sha256sum <"$out.err" | cut -c1-16)"
    fi
  done
done

if [ -f /usr/local/cuda/nvvm/libdevice/libdevice.10.bc ] || [ -n "${LIBDEVICE:-}" ]; then
  python3 utils/lowering-check/cases.py >"$WORK/cases.json"
  HKG_OPT="$OPT" python3 utils/lowering-check/make_cases.py "$WORK/cases.json" \
    "$WORK/cases" >"$WORK/cases.log" 2>&1
  grep -E "^(REJECTED|built)" "$WORK/cases.log" | sed 's/^/cases: /'
  for p in "$WORK"/cases/*.ptx; do
    echo "case.$(basename "$p" .ptx) $(sha256sum <"$p" | cut -c1-16)"
  done
fi
[ -n "${DIGEST_KEEP:-}" ] || rm -rf "$WORK"
