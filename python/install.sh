#!/bin/sh
# Installs the portable hkg Python package (utils/device/build-portable.sh --python)
# for this machine's Python: builds the binding (hkg/_hkg.cpp, against the
# C API header only) with the C++ compiler at hand, Python's headers and the
# pybind11 headers of torch (else of the pybind11 package), and copies the
# package with libhkg.so and the libraries it needs into DEST.
#
#   ./install.sh [DEST]      DEST: a directory on sys.path; default: the
#                            user site-packages of $PYTHON (default python3)
#
# Then: python3 -c "import hkg; print(hkg.__version__)"
set -eu
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
DEST=${1:-$("$PY" -c 'import site; print(site.getusersitepackages())')}
CXX=${CXX:-c++}
inc=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$inc/Python.h" ] || { echo "install.sh: no Python.h under $inc (install Python's development headers)" >&2; exit 1; }
# torch's own pybind11 first: modules of one process share pybind11's
# internals, and a binding built with another pybind11 that is imported
# before torch breaks torch's import (seen: a segfault).
pyb=${PYBIND11_INCLUDE:-$("$PY" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "include"))' 2>/dev/null ||
      "$PY" -c 'import pybind11; print(pybind11.get_include())' 2>/dev/null || true)}
[ -n "$pyb" ] && [ -f "$pyb/pybind11/pybind11.h" ] || pyb=/usr/include
[ -n "$pyb" ] && [ -f "$pyb/pybind11/pybind11.h" ] || { echo "install.sh: no pybind11 headers (pip install pybind11, or install torch)" >&2; exit 1; }
suffix=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
mkdir -p "$DEST/hkg/bin"
cp -r hkg/. "$DEST/hkg/"
rm -f "$DEST/hkg/_hkg.cpp"
cp lib/* "$DEST/hkg/"
cp bin/hkg-run "$DEST/hkg/bin/"
"$CXX" -O2 -shared -fPIC -std=c++17 -fvisibility=hidden -Iinclude -I"$inc" -I"$pyb" \
  hkg/_hkg.cpp -o "$DEST/hkg/_hkg$suffix" -L"$DEST/hkg" -lhkg -Wl,-rpath,'$ORIGIN'
# The distribution's metadata: the version, and the entry point through which
# torch finds backend="hkg" (python/CMakeLists.txt writes the same).
version=$(cd "$DEST/hkg" && "$PY" -c 'import importlib.util, glob
spec = importlib.util.spec_from_file_location("_hkg", glob.glob("_hkg*.so")[0])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); print(m.version())')
rm -rf "$DEST"/hkg-*.dist-info
mkdir -p "$DEST/hkg-$version.dist-info"
printf 'Metadata-Version: 2.1\nName: hkg\nVersion: %s\n' "$version" >"$DEST/hkg-$version.dist-info/METADATA"
printf '[torch_dynamo_backends]\nhkg = hkg.backend:backend\n' >"$DEST/hkg-$version.dist-info/entry_points.txt"
echo "hkg $version installed in $DEST/hkg"
