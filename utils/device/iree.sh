#!/usr/bin/env bash
# On the GPU machine: issue 27's comparison (docs/IREE.md, "Running on the GPU
# machine"). Installs IREE's runtime from the carried wheels (the machine has
# no package index) into /tmp/iree-site, then runs utils/iree/bench_iree.py on
# the builds of utils/iree/build_vmfbs.sh: per program (the MLP and the
# decoder layer), IREE alone, IREE with hkg's dispatches, PyTorch eager and
# Inductor on the same values, outputs checked against the float64 module,
# times side by side, and the dispatch-level table (hkg's kernel against
# IREE's dispatches, per op).
#
#   bash utils/device/iree.sh [BUILD=.carry/iree] [bench_iree.py options...]
#   carrying .carry/iree (build_vmfbs.sh's OUT, ~3 MB) and .carry/iree27 (the
#   wheels: iree_base_runtime cp312 abi3 and ml_dtypes, 15.6 MB)
#
#   WHEELS=.carry/iree27   the wheels; none: use the runtime python already has
#   PYTHON=python3         the python with torch (and Triton, for Inductor)
#   NAME=iree              $OUT/NAME.md (tables), $OUT/NAME.json (all numbers),
#                          $OUT/NAME.tar.xz (the log, versions, the build's config)
#   e.g. bash utils/device/iree.sh .carry/iree --inductor none --reps 50
source "$(dirname "$0")/lib.sh"
BUILD=.carry/iree
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then BUILD=$1; shift; fi
WHEELS=${WHEELS:-.carry/iree27}
PYTHON=${PYTHON:-python3}
NAME=${NAME:-iree}
[ -f "$BUILD/config.json" ] || { echo "no $BUILD/config.json: run utils/iree/build_vmfbs.sh here first" >&2; exit 2; }
logs=$(mktemp -d)
gpu_info "$logs/gpu.txt"
cp "$BUILD/config.json" "$logs/"
if [ "$WHEELS" != none ]; then
  site=/tmp/iree-site
  SECONDS=0
  if ! "$PYTHON" -m pip install -q --no-index --no-deps --target "$site" "$WHEELS"/*.whl \
      > "$logs/pip.txt" 2>&1; then
    # No pip: a wheel is a zip of the installed files.
    echo "pip failed ($(tail -1 "$logs/pip.txt")); unpacking the wheels" | tee -a "$logs/pip.txt"
    for w in "$WHEELS"/*.whl; do "$PYTHON" -m zipfile -e "$w" "$site" || exit 1; done
  fi
  echo "IREE runtime installed in ${SECONDS} s ($(du -sh "$site" | cut -f1))"
  export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
fi
"$PYTHON" - > "$logs/versions.txt" 2>&1 <<'EOF'
import numpy, sys
print("python", sys.version.split()[0], "numpy", numpy.__version__)
import ml_dtypes
print("ml_dtypes", ml_dtypes.__version__)
import iree.runtime as rt
from importlib import metadata
print("iree-base-runtime", metadata.version("iree-base-runtime"), "drivers",
      rt.query_available_drivers())
EOF
rc=$?
cat "$logs/versions.txt"
if [ $rc != 0 ]; then
  echo "IREE's runtime does not import (ml_dtypes 0.7 needs numpy >= 2.0)" | tee -a "$OUT/$NAME.md"
  pack "$NAME" "$logs"
  exit 1
fi
timeout "$(time_left 10)" "$PYTHON" utils/iree/bench_iree.py "$BUILD" --out "$OUT" --name "$NAME" "$@" \
  2>&1 | tee "$logs/bench.log"
status=${PIPESTATUS[0]}
[ "$status" = 124 ] && echo "bench_iree.py ran out of the call's time; $OUT/$NAME.md has what it measured" \
  | tee -a "$OUT/$NAME.md"
pack "$NAME" "$logs"
exit "$status"
