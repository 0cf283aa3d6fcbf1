#!/bin/sh
# Stand-in for hkg-compile in the device-measurer tests (the real kernels
# cannot run on test/Runtime/FakeCuda): `fake-tune-compile.sh <in.mlir>
# --chip=sm_90 -o <dir>` writes a one-kernel bundle for the 4x16 f32 softmax
# (or the ?x16 one, with dynamic rows).
# Its fake kernel behaves by the number of calls so far, counted in the file
# $FAKE_TUNE_COUNTER: the 1st candidate fails to compile, the 2nd is 1% wrong,
# the 3rd crashes, every later one is a correct softmax, except the calls
# listed in $FAKE_TUNE_WRONG_AT (e.g. "8 11"), which are wrong.
in="$1"; shift
out=""; chip=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    --chip=*) chip="${1#--chip=}" ;;
  esac
  shift
done
[ "$chip" = sm_90 ] || { echo "fake compile: unexpected chip '$chip'" >&2; exit 1; }
threads=$(grep -o 'threads = [0-9]*' "$in" | head -1 | sed 's/threads = //')
[ -n "$threads" ] || { echo "fake compile: no schedule in $in" >&2; exit 1; }
[ -n "$FAKE_TUNE_COUNTER" ] || { echo "fake compile: FAKE_TUNE_COUNTER is not set" >&2; exit 1; }
n=$(( $(cat "$FAKE_TUNE_COUNTER" 2>/dev/null || echo 0) + 1 ))
echo $n > "$FAKE_TUNE_COUNTER"
case "$n" in
  1) echo "fake compile: candidate 1 rejected" >&2; exit 1 ;;
  2) behaviour=wrong ;;
  3) behaviour=crash ;;
  *) behaviour=softmax ;;
esac
for w in $FAKE_TUNE_WRONG_AT; do [ "$w" = "$n" ] && behaviour=wrong; done
mkdir -p "$out"
# A softmax with dynamic rows (tensor<?x16xf32>) compiles to a kernel with
# one size parameter, the row count, which the fake kernel reads after the
# pointers (a correct one is `sized`; a wrong one writes nothing).
if grep -q 'tensor<?x16xf32>' "$in"; then
  case "$behaviour" in softmax) behaviour=sized ;; wrong) behaviour=noop ;; esac
  echo "hkg_softmax_0 $behaviour 0 16" > "$out/hkg_softmax_0.ptx"
  cat > "$out/manifest.json" <<JSON
{"hkg_version": "0.1", "target": "sm_90", "format": "ptx",
 "kernels": [{"name": "hkg_softmax_0", "op": "hkg.softmax", "binary": "hkg_softmax_0.ptx",
   "entry": "hkg_softmax_0", "grid": [null, 1, 1], "grid_x": {"mul": 1, "div": 1, "times": 1},
   "block": [$threads, 1, 1], "lds_bytes": 0, "schedule": {"threads": $threads},
   "sizes": [{"arg": 1, "dim": 0}],
   "args": [{"role": "input", "dtype": "f32", "shape": [{"size": 0}, 16]},
            {"role": "output", "dtype": "f32", "shape": [{"size": 0}, 16]}],
   "source": "func.func @ref(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {\\n  %y = hkg.softmax %x axis(1) : tensor<?x16xf32> -> tensor<?x16xf32>\\n  return %y : tensor<?x16xf32>\\n}\\n",
   "stats": {"registers": $((threads / 8))}, "compile_ms": 1.0}]}
JSON
  exit 0
fi
echo "hkg_softmax_0 $behaviour 4 16" > "$out/hkg_softmax_0.ptx"
cat > "$out/manifest.json" <<JSON
{"hkg_version": "0.1", "target": "sm_90", "format": "ptx",
 "kernels": [{"name": "hkg_softmax_0", "op": "hkg.softmax", "binary": "hkg_softmax_0.ptx",
   "entry": "hkg_softmax_0", "grid": [4, 1, 1], "block": [$threads, 1, 1], "lds_bytes": 0,
   "schedule": {"threads": $threads},
   "args": [{"role": "input", "dtype": "f32", "shape": [4, 16]},
            {"role": "output", "dtype": "f32", "shape": [4, 16]}],
   "source": "func.func @ref(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {\\n  %y = hkg.softmax %x axis(1) : tensor<4x16xf32> -> tensor<4x16xf32>\\n  return %y : tensor<4x16xf32>\\n}\\n",
   "stats": {"registers": $((threads / 8))}, "compile_ms": 1.0}]}
JSON
