#!/usr/bin/env bash
# The lowering check on the GPU: every case of one or more case directories
# (made here by utils/lowering-check/make_cases.py) run and compared with its
# float64 reference by utils/lowering-check/check_cases.py.
#
#   bash utils/device/check.sh [CASES_DIR ...]        (default: .carry/lcheck)
#
# Environment:
#   CONTROLS=1   also feed the matmul cases outputs with planted defects
#                (check_cases.py --controls); each must be rejected
#   TIMEOUT      seconds per directory (default 200, at most the call's time
#                left: lib.sh's CALL_S)
#   NAME         output name (default check)
# $OUT: NAME.md (per directory: passed / total and the failing cases),
# NAME.tar.xz (gpu.txt and every directory's full log). Exits 1 when a case
# failed or a directory did not finish, so `check.sh && tune.sh ...` tunes
# only checked kernels.
. "$(dirname "$0")/lib.sh"
NAME=${NAME:-check}
[ $# -gt 0 ] || set -- .carry/lcheck
W=/tmp/hkg-$NAME; rm -rf "$W"; mkdir -p "$W"
gpu_info "$W/gpu.txt"
controls=()
[ "${CONTROLS:-0}" = 1 ] && controls=(--controls)
status=0
{
  echo "# Lowering check ($(date -u +%F), $(head -1 "$W/gpu.txt"))"
  echo
  echo "| cases | result | seconds |"
  echo "|---|---|---|"
} > "$OUT/$NAME.md"
fails=""
for dir in "$@"; do
  name=$(basename "$dir")
  log=$W/lcheck-$name.log
  if [ ! -f "$dir/cases.json" ]; then
    echo "| $dir | no cases.json | - |" >> "$OUT/$NAME.md"; status=1; continue
  fi
  limit=$(time_left 5); [ "$limit" -gt "${TIMEOUT:-200}" ] && limit=${TIMEOUT:-200}
  t0=$SECONDS
  timeout "$limit" python3 utils/lowering-check/check_cases.py "$dir" "${controls[@]}" > "$log" 2>&1
  rc=$?
  result=$(grep -E "^[0-9]+/[0-9]+ passed" "$log" | tail -1)
  [ -n "$result" ] || result="did not finish (exit $rc)"
  grep -q "^FAIL" "$log" && status=1
  [[ "$result" == *"did not finish"* ]] && status=1
  echo "| $dir | $result | $((SECONDS - t0)) |" >> "$OUT/$NAME.md"
  fails="$fails$(grep -E "^FAIL" "$log" | head -20 | sed "s|^|$name: |")"$'\n'
  echo "lowering check $dir: $result, $((SECONDS - t0)) s"
done
if [ -n "${fails//$'\n'/}" ]; then
  { echo; echo "Failures (first 20 of each directory):"; echo; echo '```'; printf '%s' "$fails" | grep -v '^$'; echo '```'; } >> "$OUT/$NAME.md"
fi
cat "$OUT/$NAME.md"
pack "$NAME" "$W"
exit $status
