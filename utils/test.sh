#!/usr/bin/env bash
# Command (2) of the README: set up, build and run every test (lit, gtest,
# pytest). Prints one closing line: "hkg: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${HKG_BUILD_DIR:-build}
export HKG_BUILD_DIR=$BUILD_DIR

start=$(date +%s)
utils/setup.sh || { echo "hkg: setup or build failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0; failed=0; status=0

# lit (dialect, passes, pipelines, tools).
lit_log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$lit_log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
n=$(grep -Eo '^ *Passed *: *[0-9]+' "$lit_log" | grep -Eo '[0-9]+' | head -1); passed=$((passed + ${n:-0}))
for k in Failed Unresolved 'Unexpectedly Passed' 'Timed Out'; do
  n=$(grep -Eo "^ *$k *: *[0-9]+" "$lit_log" | grep -Eo '[0-9]+$' | head -1); failed=$((failed + ${n:-0}))
done

# gtest unit tests.
unit_log=$(mktemp)
"$BUILD_DIR/bin/hkg-unit-tests" --gtest_brief=1 2>&1 | tee "$unit_log"
unit_rc=${PIPESTATUS[0]}
[ "$unit_rc" = 0 ] || status=1
n=$(grep -Eo 'PASSED *\] *[0-9]+' "$unit_log" | grep -Eo '[0-9]+$'); passed=$((passed + ${n:-0}))
# --gtest_brief prints no "N tests, listed below" summary: the failed are
# the tests run less the passed.
ran=$(grep -Eo '\[=+\] *[0-9]+ tests? from' "$unit_log" | grep -Eo '[0-9]+' | head -1)
n=$(grep -Eo 'PASSED *\] *[0-9]+' "$unit_log" | grep -Eo '[0-9]+$')
if [ -n "$ran" ]; then failed=$((failed + ran - ${n:-0})); elif [ "$unit_rc" != 0 ]; then failed=$((failed + 1)); fi

# pytest (python package), when there are Python tests.
if compgen -G "test/python/test_*.py" >/dev/null; then
  py_log=$(mktemp)
  # The frontend venv's python (torch, pytest: the hkg package's tests need
  # torch); without it (HKG_SKIP_VENV=1) a python3 with pytest, where the
  # tests that need torch skip.
  py=${HKG_VENV:-.venv}/bin/python
  "$py" -c "import pytest, torch" 2>/dev/null || py=python3
  "$py" -c "import pytest" 2>/dev/null || py=/usr/bin/python3
  PYTHONPATH="$BUILD_DIR/python_packages" "$py" -m pytest -q -rs test/python 2>&1 | tee "$py_log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  n=$(grep -Eo '[0-9]+ passed' "$py_log" | tail -1 | grep -Eo '[0-9]+'); passed=$((passed + ${n:-0}))
  n=$(grep -Eo '[0-9]+ failed' "$py_log" | tail -1 | grep -Eo '[0-9]+'); failed=$((failed + ${n:-0}))
fi

# libFuzzer targets (utils/fuzz.sh: an instrumented build in build-fuzz/,
# then HKG_FUZZ_SECONDS, default 60, per fuzzer); HKG_FUZZ=0 skips them.
if [ "${HKG_FUZZ:-1}" != 0 ]; then
  if utils/fuzz.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
fi

[ "$failed" = 0 ] || status=1
echo "hkg: tests took $(( $(date +%s) - start )) s"
echo "hkg: $passed passed, $failed failed"
exit $status
