#!/usr/bin/env bash
# Creates the Python virtual environment of hkg's PyTorch frontend (.venv/ at
# the repository root, git-ignored) with the packages pinned in
# utils/frontend/requirements.txt: torch-mlir and the torch it works with.
# Run by utils/setup.sh; HKG_SKIP_VENV=1 skips it there. Safe to run again: a
# venv that already has every pinned version is left as it is.
#
#   utils/frontend/setup_venv.sh           # .venv/
#   HKG_VENV=/tmp/v utils/frontend/setup_venv.sh
#
# HKG_PYTHON names the interpreter the venv is made from (default python3;
# Debian needs python3-venv, which utils/setup.sh installs).
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${HKG_VENV:-.venv}
REQ=utils/frontend/requirements.txt
PY=${HKG_PYTHON:-python3}

# Exit 0 when the venv's installed distributions match every pin of $REQ.
venv_up_to_date() {
  [ -x "$VENV/bin/python" ] || return 1
  "$VENV/bin/python" - "$REQ" <<'PYEOF'
import re, sys
from importlib import metadata
bad = []
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, want = line.split("==")
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        have = None
    if have != want:
        bad.append(f"{name} {have or 'missing'} (want {want})")
if bad:
    print("hkg venv: out of date: " + ", ".join(bad))
    sys.exit(1)
PYEOF
}

if venv_up_to_date; then
  echo "hkg venv: $VENV up to date"
  exit 0
fi

start=$(date +%s)
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv --clear "$VENV" || {
    echo "hkg venv: '$PY -m venv' failed (on Debian: apt-get install python3-venv)" >&2
    exit 1
  }
fi
# --no-deps: requirements.txt is the whole closure (it leaves out triton).
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-cache-dir \
  --only-binary=:all: --no-deps -r "$REQ"
venv_up_to_date
echo "hkg venv: $VENV installed in $(( $(date +%s) - start )) s ($(du -sh "$VENV" | cut -f1))"
