#!/usr/bin/env bash
# Installs what hkg needs on Debian 12 from Debian's own registry, makes the
# PyTorch frontend's virtual environment (.venv/: torch-mlir and torch from the
# Python package index, pinned in utils/frontend/requirements.txt), then
# configures and builds hkg. Safe to run again: installed packages are
# skipped, a venv with the pinned versions is kept, the build is incremental.
#
#   utils/setup.sh                  # install + venv + configure + build (build/)
#   HKG_SKIP_APT=1 utils/setup.sh   # no apt-get
#   HKG_SKIP_VENV=1 utils/setup.sh  # no venv (the frontend's pytest then skips)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  # LLVM/MLIR 22 (bookworm-security), lit/FileCheck, the AMD linker, clang.
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22 clang-22
  # clang's libFuzzer and sanitizer runtimes (utils/fuzz.sh).
  libclang-rt-22-dev
  # Libraries LLVM's cmake config expects but llvm-22-dev does not pull in.
  zlib1g-dev libzstd-dev
  # AMD device bitcode (ockl/ocml) for the ROCDL target.
  rocm-device-libs
  # Build tools and test frameworks.
  cmake ninja-build libgtest-dev python3 python3-pytest python3-numpy xz-utils
  # The PyTorch frontend's venv (utils/frontend/setup_venv.sh).
  python3-venv
  # Python bindings, tuner model and database.
  pybind11-dev python3-dev libxgboost-dev libsqlite3-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ "${HKG_SKIP_APT:-0}" != 1 ] && [ ${#missing[@]} -gt 0 ]; then
  echo "hkg setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "hkg setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# torch-mlir + torch, pytest, IREE's compiler and runtime (~5.1 GB with the
# CUDA libraries torch links; about a minute to download and install).
if [ "${HKG_SKIP_VENV:-0}" != 1 ]; then
  utils/frontend/setup_venv.sh
fi

BUILD_DIR=${HKG_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
fi
ninja -C "$BUILD_DIR" ${HKG_BUILD_TARGETS:-all}

# The hkg Python package (build/python_packages/hkg): the venv's python
# imports it from the build tree (`.venv/bin/python -c "import hkg"`).
VENV=${HKG_VENV:-.venv}
if [ -x "$VENV/bin/python" ] && [ -d "$BUILD_DIR/python_packages/hkg" ]; then
  site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  realpath "$BUILD_DIR/python_packages" >"$site/hkg-build.pth"
fi
