#!/usr/bin/env bash
# On the GPU machine: installs the portable hkg Python package
# (utils/device/build-portable.sh --python, carried in .carry/python) with
# its install.sh into a fresh directory on PYTHONPATH, the way docs/Python.md
# tells a user, then runs the command given with that python3.
#
#   bash utils/device/python.sh [PKG=.carry/python/hkg-python.tar.xz] -- CMD...
#   e.g. bash utils/device/python.sh -- python3 -m pytest -q test/python/test_gpu.py
set -euo pipefail
cd "$(dirname "$0")/../.."
PKG=.carry/python/hkg-python.tar.xz
if [ "${1:-}" != -- ]; then PKG=$1; shift; fi
[ "${1:-}" = -- ] && shift
work=$(mktemp -d)
tar -xJf "$PKG" -C "$work"
SECONDS=0
"$work/hkg-python/install.sh" "$work/site"
echo "hkg python: installed in ${SECONDS} s"
export PYTHONPATH="$work/site${PYTHONPATH:+:$PYTHONPATH}"
export HKG_CACHE_DIR=${HKG_CACHE_DIR:-$work/cache}
python3 -c "import hkg; print('hkg', hkg.__version__)"
"$@"
