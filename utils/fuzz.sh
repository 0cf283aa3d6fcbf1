#!/usr/bin/env bash
# Builds hkg's libFuzzer targets (fuzz/) in a build directory of their own
# (build-fuzz/, clang with ASan and UBSan, -DHKG_FUZZERS=ON) and runs each
# for a bounded time on seed corpora from examples/ and test/. Any crash,
# sanitizer report, leak or per-input timeout fails the run; the reproducer
# is left in build-fuzz/findings/<fuzzer>/. Each fuzzer has a dictionary of
# its format's tokens (fuzz/<name>.dict): without one, libFuzzer did not
# find a planted bug behind a "bf16" dtype token in 250 s (docs/Hardening.md).
#
#   utils/fuzz.sh                 # build, then 60 s per fuzzer
#   HKG_FUZZ_SECONDS=600 utils/fuzz.sh
#   HKG_FUZZERS="manifest records" utils/fuzz.sh
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZ_DIR=${HKG_FUZZ_BUILD_DIR:-build-fuzz}
SECONDS_PER_FUZZER=${HKG_FUZZ_SECONDS:-60}
FUZZERS=${HKG_FUZZERS:-"compile manifest records"}

if [ ! -f "$FUZZ_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$FUZZ_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DHKG_FUZZERS=ON -DHKG_BUILD_TESTS=OFF \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null || exit 1
fi
ninja -C "$FUZZ_DIR" ${HKG_FUZZ_JOBS:+-j$HKG_FUZZ_JOBS} hkg-fuzzers || exit 1

# Seed corpora: the inputs the tools read, from the tree.
corpus=$FUZZ_DIR/corpus
rm -rf "$corpus"
mkdir -p "$corpus"/{compile,manifest,records}
# Every seed of the compile fuzzer is compiled for two chips before fuzzing
# starts: the examples (one kernel each) and the small tests keep that short.
cp examples/*.mlir "$corpus/compile/"
find test -name '*.mlir' -size -2k -exec cp --backup=numbered -t "$corpus/compile" {} +
i=0
for f in $(find test -name manifest.json); do cp "$f" "$corpus/manifest/$((i++)).json"; done
i=0
for f in $(find test data -name '*.jsonl' 2>/dev/null); do
  # One seed per record, and the whole file.
  head -c 65536 "$f" > "$corpus/records/file$i.jsonl"
  split -l 1 -a 4 "$f" "$corpus/records/r$((i++))-"
done

status=0
for name in $FUZZERS; do
  bin=$FUZZ_DIR/bin/hkg-fuzz-$name
  findings=$FUZZ_DIR/findings/$name
  rm -rf "$findings" && mkdir -p "$findings" "$FUZZ_DIR/work/$name"
  echo "hkg fuzz: $name for $SECONDS_PER_FUZZER s"
  # -timeout: an input taking more than 60 s is a hang (the campaign's bound
  # is 20 s on uninstrumented tools; the sanitizers slow the code 2-3x, and
  # CI shares its cores).
  # -rss_limit_mb: the lowering of a large kernel under ASan.
  # allow_user_poisoning=0: hkg's code is instrumented but Debian's libMLIR
  # is not, and both allocate from the same llvm::BumpPtrAllocator slabs; the
  # poisoning by the instrumented copy of its inline code is unpoisoned by
  # nobody in libMLIR's copy, which reads as use-after-poison (a false
  # positive, seen in StringAttr::get from ScheduleAttr storage).
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:allow_user_poisoning=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin" "$FUZZ_DIR/work/$name" "$corpus/$name" \
      -max_total_time="$SECONDS_PER_FUZZER" -timeout=60 -rss_limit_mb=4096 \
      -max_len=16384 -artifact_prefix="$findings/" -print_final_stats=1 \
      -dict="fuzz/$name.dict" \
      >"$FUZZ_DIR/$name.log" 2>&1
  rc=$?
  tail -n 12 "$FUZZ_DIR/$name.log" | grep -E 'stat::|Done|ERROR|SUMMARY' || true
  # slow-unit-* files are libFuzzer's notes on inputs over 10 s, not findings.
  if [ $rc != 0 ] || compgen -G "$findings/[!s]*" >/dev/null; then
    echo "hkg fuzz: $name FOUND A BUG (exit $rc): $(ls "$findings")"
    grep -m5 -E 'ERROR|SUMMARY|runtime error' "$FUZZ_DIR/$name.log"
    status=1
  else
    echo "hkg fuzz: $name clean"
  fi
done
exit $status
