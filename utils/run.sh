#!/usr/bin/env bash
# Command (1) of the README: set up, build, and run the main job over
# examples/: parse and verify every example op and print its default schedule
# for the chip (default gfx942).
#
#   utils/run.sh [--chip=gfx942]
set -euo pipefail
cd "$(dirname "$0")/.."
CHIP=gfx942
for arg in "$@"; do
  case "$arg" in
    --chip=*) CHIP=${arg#--chip=} ;;
    *) echo "usage: utils/run.sh [--chip=CHIP]" >&2; exit 2 ;;
  esac
done
BUILD_DIR=${HKG_BUILD_DIR:-build}
export HKG_BUILD_DIR=$BUILD_DIR
HKG_BUILD_TARGETS=hkg-opt utils/setup.sh
OPT="$BUILD_DIR/bin/hkg-opt"

echo
echo "hkg: default schedules for $CHIP"
for f in examples/*.mlir; do
  echo "== $f"
  "$OPT" "$f" --hkg-default-schedule="chip=$CHIP" |
    sed -n 's/^ *%[0-9a-z_]* = \(hkg\.[a-z_]*\).*schedule = \(#hkg\.schedule<[^>]*>\).*/  \1  \2/p'
done
