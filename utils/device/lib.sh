# utils/device/lib.sh - helpers the device scripts source (not run on its own).
#
# Sets the repository root as the working directory, checks $OUT, and keeps
# one clock for a whole device call: CALL_START (seconds since the epoch;
# export it once at the start of a command that chains several scripts) and
# CALL_S (the seconds the call may take, default 570, under the run tool's
# 600 s limit). time_left says how many remain.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
export PYTHONUNBUFFERED=1
if [ -z "${OUT:-}" ]; then
  echo "OUT is not set (the run tool sets it on the device machine)" >&2
  exit 2
fi
mkdir -p "$OUT"
export CALL_START=${CALL_START:-$(date +%s)}
export CALL_S=${CALL_S:-570}

# time_left [MARGIN]: seconds left in the call, less MARGIN (default 0).
time_left() {
  echo $((CALL_START + CALL_S - ${1:-0} - $(date +%s)))
}

# gpu_info FILE: the GPU, driver, clocks, torch and triton versions.
gpu_info() {
  {
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
    python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
  } > "$1" 2>&1
  cat "$1"
}

# hkg_bin DIR: prints the directory holding hkg-run (and hkg-tune when the
# tarball has it), unpacking DIR's tarball from utils/device/build-portable.sh
# (hkg-tools.tar.xz, flat; hkg-tune.tar.xz, bin/ and lib/) under /tmp once.
hkg_bin() {
  local dir=$1 dest=/tmp/hkg-tools/$(echo "$1" | tr '/.' '__')
  if [ -x "$dir/hkg-run" ]; then echo "$dir"; return; fi
  if [ -x "$dir/bin/hkg-run" ]; then echo "$dir/bin"; return; fi
  for t in hkg-tune hkg-tools; do
    if [ -f "$dir/$t.tar.xz" ]; then
      if [ ! -d "$dest" ]; then
        mkdir -p "$dest" && tar -xJf "$dir/$t.tar.xz" -C "$dest" || return 1
      fi
      if [ -x "$dest/bin/hkg-run" ]; then echo "$dest/bin"; else echo "$dest"; fi
      return
    fi
  done
  echo "no hkg-run in $dir (expected hkg-run, bin/hkg-run or a build-portable.sh tarball)" >&2
  return 1
}

# pack NAME DIR: DIR's contents as $OUT/NAME.tar.xz.
pack() {
  tar -cJf "$OUT/$1.tar.xz" -C "$2" . && echo "packed $OUT/$1.tar.xz ($(du -h "$OUT/$1.tar.xz" | cut -f1))"
}
