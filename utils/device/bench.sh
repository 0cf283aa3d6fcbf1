#!/usr/bin/env bash
# Timings on the GPU, side by side. One or more bundle sets (made here by
# utils/bench/sweep.py or utils/bench/build_bundles.sh: BUNDLES/<case>/<variant>/
# manifest.json), each timed ROUNDS times.
#
#   bash utils/device/bench.sh [BUNDLES ...]          (default: .carry/bundles)
#
# RUNNER (what times them; default bench.py):
#   bench.py  utils/bench/bench.py: every variant checked against float64 and
#             timed briefly, the defaults and the fastest in full, PyTorch
#             eager and Inductor in the same process, the copy and GEMM
#             ceilings, the top-p statistical test (SHAPES stat). Attention
#             (OPS=attention, or in the list) goes to utils/bench/attention_bench.py
#             on BUNDLES/attention (SDPA side by side).
#   hkg-run   the C++ runtime (TOOLS, a build-portable.sh tarball or bin/):
#             every VARIANTS bundle (default: default) of each case in its own
#             worker, checked and timed, with HKG_RUN_ARGS (default
#             "--time-copy --measure-copy-mib=0 --timeout=300": a copy of the
#             kernel's bytes timed right after it). A BUNDLES that is one
#             bundle itself (a manifest.json at its top) is run as it is.
#             Kernels with dynamic sizes need --sizes=V[,V...] in
#             HKG_RUN_ARGS (one run per value; the table says the sizes).
#   cuda      a hand-written CUDA prototype: PROTO (a .cu file) built with
#             nvcc -O3 -arch=sm_90a -Xptxas -v and run with PROTO_ARGS.
#   none      nothing (with CUBLAS=1: only cuBLAS).
# Environment for bench.py: SHAPES (perf,second,stat), OPS (comma list;
#   default bench.py's: the memory-bound ops, top_p and the GEMMs), FULL
#   (variant labels also timed in full), INDUCTOR (1; 0 skips torch.compile),
#   BUDGET_S (no case starts after it; default: the call's time left - 30),
#   INDUCTOR_SOURCE (a pattern: Inductor's generated kernels whose source
#   matches it, e.g. rsqrt, and their chosen configs, kept as
#   inductor-src.txt), TRITON_PTX (a pattern: Triton's PTX files matching it,
#   as triton-ptx.txt), SIZES (bench.py --sizes N: the size of kernels with
#   dynamic sizes where bench.py takes the inputs from the manifest, the
#   statistical test; elsewhere the case's inputs give the sizes).
# CUBLAS=1 adds utils/bench/cublas_gemms.py (cuBLAS on examples/' GEMMs).
# ROUNDS (1): every bundle set that many times, for the run-to-run spread.
# NAME (bench): output name. $OUT: NAME.md (every table, per bundle set and
# round), NAME.tar.xz (bench.json, logs, gpu.txt and the extras).
. "$(dirname "$0")/lib.sh"
NAME=${NAME:-bench}
RUNNER=${RUNNER:-bench.py}
ROUNDS=${ROUNDS:-1}
[ $# -gt 0 ] || set -- .carry/bundles
W=/tmp/hkg-$NAME; rm -rf "$W"; mkdir -p "$W"
MD=$OUT/$NAME.md
gpu_info "$W/gpu.txt"
echo "# $NAME: $RUNNER, $(date -u +%F), $(head -1 "$W/gpu.txt")" > "$MD"
export TORCHINDUCTOR_CACHE_DIR=/tmp/hkg-inductor-cache TRITON_CACHE_DIR=/tmp/hkg-triton-cache
rm -rf "$TORCHINDUCTOR_CACHE_DIR" "$TRITON_CACHE_DIR"

section() { printf '\n## %s\n\n' "$1" >> "$MD"; }

# bench.py (and attention_bench.py) on bundle set $1 into $2.
run_bench_py() {
  local b=$1 o=$2 ops=${OPS:-} att=0 args=()
  if [[ ",$ops," == *,attention,* ]]; then
    att=1; ops=$(echo ",$ops," | sed 's/,attention,/,/g; s/^,//; s/,$//')
  fi
  if [ "$att" = 0 ] || [ -n "$ops" ]; then
    args=(--bundles "$b" --out "$o" --shapes "${SHAPES:-perf,second,stat}"
          --budget "${BUDGET_S:-$(time_left 30)}")
    [ -n "$ops" ] && args+=(--ops "$ops")
    [ -n "${FULL:-}" ] && args+=(--full "$FULL")
    [ "${INDUCTOR:-1}" = 0 ] && args+=(--no-inductor)
    [ -n "${SIZES:-}" ] && args+=(--sizes "$SIZES")
    timeout "$(time_left 5)" python3 utils/bench/bench.py "${args[@]}" > "$o/bench.log" 2>&1
    echo "bench.py $b: exit $?, $((SECONDS)) s"
    rm -f "$o/bench.partial.json.bak"
    if [ -f "$o/bench.md" ]; then
      rm -f "$o/bench.partial.json"; cat "$o/bench.md" >> "$MD"
      python3 utils/bench/print_variants.py "$o/bench.json"
    else
      echo "bench.py did not finish; its log ends:" >> "$MD"
      { echo '```'; grep -v "^  \|UserWarning" "$o/bench.log" | tail -30; echo '```'; } >> "$MD"
    fi
  fi
  if [ "$att" = 1 ]; then
    timeout "$(time_left 5)" python3 utils/bench/attention_bench.py --bundles "$b/attention" --out "$o" \
      > "$o/attention.log" 2>&1
    echo "attention_bench.py $b/attention: exit $?, $((SECONDS)) s"
    if [ -f "$o/attention.md" ]; then cat "$o/attention.md" >> "$MD"
    else { echo '```'; tail -20 "$o/attention.log"; echo '```'; } >> "$MD"; fi
  fi
}

# hkg-run on bundle set $1 into $2.
run_hkg_run() {
  local b=$1 o=$2 bin bundles=() case v
  bin=$(hkg_bin "${TOOLS:-.carry/tune}") || { echo "$bin" >> "$MD"; return; }
  if [ -f "$b/manifest.json" ]; then
    bundles=("$b")
  else
    for case in "$b"/*/; do
      case=${case%/}
      if [ -n "${OPS:-}" ] && [[ ",$OPS," != *",$(basename "$case"),"* ]]; then continue; fi
      for v in ${VARIANTS:-default}; do
        [ -f "$case/$v/manifest.json" ] && bundles+=("$case/$v")
      done
    done
  fi
  for d in "${bundles[@]}"; do
    local tag; tag=$(echo "${d#"$b"}" | tr '/' '_' | sed 's/^_*//'); tag=${tag:-bundle}
    # shellcheck disable=SC2086
    timeout "$(time_left 5)" "$bin/hkg-run" "$d" ${HKG_RUN_ARGS:---time-copy --measure-copy-mib=0 --timeout=300} \
      --json="$o/$tag.json" > "$o/$tag.txt" 2>&1
    echo "hkg-run $d: exit $?, $SECONDS s"; grep -E "PASS|FAIL" -A1 "$o/$tag.txt" | head -6
  done
  python3 - "$o" >> "$MD" <<'PY'
import glob, json, os, sys
print("| bundle | kernel | median us | copy of its bytes, us | % of the copy's speed |")
print("|---|---|---|---|---|")
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    for k in json.load(open(p)).get("kernels", []):
        t = k.get("timing") or {}
        copy = f"{t['copy_us']:.2f}" if "copy_us" in t else "-"
        frac = f"{t['fraction_of_copy']:.1%}" if "fraction_of_copy" in t else "-"
        med = f"{t['median_us']:.2f}" if "median_us" in t else k.get("status", "-")
        name = k.get("name", "-") + (f" {k['sizes']}" if "sizes" in k else "")
        print(f"| {os.path.basename(p)[:-5]} | {name} | {med} | {copy} | {frac} |")
PY
}

run_cuda() {
  local o=$1
  [ -f "${PROTO:-}" ] || { echo "RUNNER=cuda needs PROTO=file.cu" | tee -a "$MD"; return; }
  nvcc -O3 -arch=sm_90a -Xptxas -v -o "$o/proto" "$PROTO" > "$o/nvcc.log" 2>&1
  echo "nvcc $PROTO: exit $?"
  # shellcheck disable=SC2086
  timeout "$(time_left 5)" "$o/proto" ${PROTO_ARGS:-} > "$o/proto.txt" 2>&1
  echo "$PROTO: exit $?, $SECONDS s"
  { echo '```'; cat "$o/proto.txt"; echo '```'; } >> "$MD"
  rm -f "$o/proto"
}

for r in $(seq 1 "$ROUNDS"); do
  for b in "$@"; do
    o=$W/$(basename "$b")-$r; mkdir -p "$o"
    [ "$RUNNER" = none ] && break
    section "$b, round $r"
    case "$RUNNER" in
      bench.py) run_bench_py "$b" "$o" ;;
      hkg-run) run_hkg_run "$b" "$o" ;;
      cuda) run_cuda "$o" ;;
      *) echo "RUNNER must be bench.py, hkg-run, cuda or none" >&2; exit 2 ;;
    esac
  done
done
if [ "${CUBLAS:-0}" = 1 ]; then
  section "cuBLAS"
  timeout "$(time_left 5)" python3 utils/bench/cublas_gemms.py > "$W/cublas.md" 2>&1
  cat "$W/cublas.md" >> "$MD"
fi
if [ -n "${INDUCTOR_SOURCE:-}" ]; then
  for f in $(grep -rl "$INDUCTOR_SOURCE" "$TORCHINDUCTOR_CACHE_DIR" --include='*.py' 2>/dev/null | head -6) \
           $(find "$TORCHINDUCTOR_CACHE_DIR" -name '*.best_config' 2>/dev/null | head -40); do
    echo "=== $f"; cat "$f"; echo
  done > "$W/inductor-src.txt"
fi
if [ -n "${TRITON_PTX:-}" ]; then
  for f in $(grep -rl "$TRITON_PTX" "$TRITON_CACHE_DIR" --include='*.ptx' 2>/dev/null | head -8); do
    echo "=== $f"; cat "$f"
  done > "$W/triton-ptx.txt"
fi
cat "$MD"
pack "$NAME" "$W"
echo "total $SECONDS s"
