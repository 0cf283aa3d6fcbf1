#!/usr/bin/env bash
# Merges the archives the scripts of one call left in $OUT (NAME.tar.xz,
# NAME-resume.tar.xz) into one, raw.tar (each archive whole inside), so that
# a call chaining four or more scripts stays under the run tool's 8 returned
# files: the NAME.md tables stay beside it. Run it last:
#
#   ...; bash utils/device/check.sh ...; bash utils/device/bench.sh ...; \
#     bash utils/device/collect.sh
#
# Here: `tar -xf raw.tar` gives the archives back.
. "$(dirname "$0")/lib.sh"
shopt -s nullglob
archives=("$OUT"/*.tar.xz)
[ ${#archives[@]} -gt 0 ] || { echo "collect.sh: no archives in $OUT"; exit 0; }
tar -cf "$OUT/raw.tar" -C "$OUT" "${archives[@]##*/}" && rm -f "${archives[@]}"
echo "collected ${#archives[@]} archive(s) into $OUT/raw.tar; $OUT now holds $(ls "$OUT" | wc -l) file(s)"
