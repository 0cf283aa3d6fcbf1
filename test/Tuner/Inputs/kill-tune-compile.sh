#!/bin/sh
# fake-tune-compile.sh, except that call number $FAKE_TUNE_KILL_AT (counted
# in $FAKE_TUNE_COUNTER) SIGKILLs the hkg-tune that called it, as a machine
# losing power or an OOM kill would.
n=$(( $(cat "$FAKE_TUNE_COUNTER" 2>/dev/null || echo 0) + 1 ))
if [ "$n" = "$FAKE_TUNE_KILL_AT" ]; then
  echo $n > "$FAKE_TUNE_COUNTER"
  kill -KILL "$PPID"
  exit 1
fi
exec "$(dirname "$0")/fake-tune-compile.sh" "$@"
