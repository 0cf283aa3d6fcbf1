#!/bin/sh
# Stand-in for hkg-compile in tests: `fake-hkg-compile.sh <in.mlir>
# --chip=<chip> -o <dir>` checks its arguments and writes the fake bundle.
in="$1"; shift
out=""; chip=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    --chip=*) chip="${1#--chip=}" ;;
  esac
  shift
done
[ -f "$in" ] || { echo "fake hkg-compile: no input '$in'" >&2; exit 1; }
[ "$chip" = sm_90 ] || { echo "fake hkg-compile: unexpected chip '$chip'" >&2; exit 1; }
cp "$(dirname "$0")/fake-bundle/"* "$out"/
