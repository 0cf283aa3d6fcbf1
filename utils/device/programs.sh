#!/usr/bin/env bash
# Whole programs on the device: each bundle's launch plan run and checked by
# hkg-run (the composed float64 reference), then timed side by side with
# PyTorch eager and Inductor on the same inputs (utils/bench/torch_programs.py:
# the module's own float64 run as the reference).
#
#   bash utils/device/programs.sh BUNDLES [TOOLS=.carry/bin]
#     BUNDLES/<program>/ from `hkg-compile test/Inputs/torch/<program>.mlir
#     --chip=sm_90 -o BUNDLES/<program>` (docs/Frontend.md).
#   PROGRAMS=mlp,log_softmax   the programs (default: every bundle there)
#   NAME=programs              $OUT/NAME.md (tables), $OUT/NAME.tar.xz (logs)
#   REPS=100                   hkg-run --reps for the plan and kernel timings
#   INDUCTOR=0                 skip torch.compile
source "$(dirname "$0")/lib.sh"
BUNDLES=${1:?usage: programs.sh BUNDLES [TOOLS]}
TOOLS=${2:-.carry/bin}
NAME=${NAME:-programs}
PROGRAMS=${PROGRAMS:-$(ls "$BUNDLES" | paste -sd, -)}
BIN=$(hkg_bin "$TOOLS") || exit 1
logs=$(mktemp -d)
gpu_info "$logs/gpu.txt"
status=0
{
  echo "# Whole programs ($(head -1 "$logs/gpu.txt"))"
  echo
  echo "hkg-run --plan (the plan's outputs against the composed float64 reference):"
  echo
  echo '```'
} > "$OUT/$NAME.md"
for p in ${PROGRAMS//,/ }; do
  [ "$(time_left 60)" -gt 0 ] || { echo "out of time before $p" | tee -a "$OUT/$NAME.md"; break; }
  timeout "$(time_left 60)" "$BIN/hkg-run" "$BUNDLES/$p" --plan --reps="${REPS:-100}" \
    > "$logs/plan-$p.txt" 2>&1 || status=1
  { echo "== $p"; grep -E "plan |PASS|FAIL|median|sum|ratio|error" "$logs/plan-$p.txt" | head -20; } \
    | tee -a "$OUT/$NAME.md"
done
echo '```' >> "$OUT/$NAME.md"
left=$(time_left 20)
if [ "$left" -gt 30 ]; then
  args=()
  [ "${INDUCTOR:-1}" = 0 ] && args+=(--no-inductor)
  timeout "$left" python3 utils/bench/torch_programs.py "$BUNDLES" --programs "$PROGRAMS" \
    --out "$logs" --name torch "${args[@]}" > "$logs/torch.txt" 2>&1 || status=1
  { echo; echo "Against PyTorch (utils/bench/torch_programs.py):"; echo
    cat "$logs/torch.md" 2>/dev/null || tail -20 "$logs/torch.txt"; } >> "$OUT/$NAME.md"
else
  echo "no time left for the PyTorch comparison" >> "$OUT/$NAME.md"
fi
pack "$NAME" "$logs"
cat "$OUT/$NAME.md"
exit $status
