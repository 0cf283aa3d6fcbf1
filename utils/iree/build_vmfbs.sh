#!/usr/bin/env bash
# Builds everything the IREE comparison of issue 27 runs (docs/IREE.md,
# "Running on the GPU machine"), here on the CPU build machine: for each
# program (the MLP and the decoder layer of utils/frontend/torch_import.py),
#
#   OUT/<p>/<p>.mlir          the Torch-MLIR import (torch_import.py; SIZE=small:
#                             utils/iree/programs.py, the same modules, small)
#   OUT/<p>/iree.vmfb         (a) IREE alone. CUDA: --iree-cuda-target=sm_80,
#                             because IREE 3.13 has no sm_90 codegen (its CUDA
#                             targets stop at sm_89; docs/IREE.md): on an
#                             H100/H200 this is sm_80 code (mma.sync; no wgmma,
#                             no TMA) JIT-compiled by the driver.
#   OUT/<p>/hkg.vmfb          (b) IREE with hkg's kernels as custom dispatches:
#                             hkg-compile --emit=iree --chip=sm_90, then
#                             iree-compile for sm_90 (every op of these two
#                             programs is hkg's, so IREE generates no kernel; a
#                             program with ops left to IREE falls back to sm_80).
#   OUT/<p>/hkg_bundle/       hkg's bundle (manifest.json, PTX, iree_input.mlir)
#   OUT/<p>/<b>.dispatches.txt  build b's dispatches in program order
#                             (`flow.dispatch @executable::@entry`, from
#                             iree-compile --compile-to=flow)
#   OUT/<p>/dispatch/<b>/*.vmfb (c) one standalone benchmark module per
#                             executable (iree-compile
#                             --iree-hal-dump-executable-benchmarks-to, each
#                             file compiled with the build's flags): a function
#                             f(n) that runs the dispatch n times in one command
#                             buffer, barriers between, on IREE's own (not
#                             initialized) buffers
#   OUT/config.json           target, size, flags, versions, sizes
#
# The inputs and weights are not files: utils/iree/bench_iree.py draws them on
# the device from one seed and feeds the same arrays to every build (the
# decoder layer's weights alone are 436 MB of bf16).
#
#   utils/iree/build_vmfbs.sh [OUT=.carry/iree]
#   TARGET=cuda|cpu       cuda (default): builds (a) and (b) for the GPU;
#                         cpu: (a) for llvm-cpu (IREE's local-task driver),
#                         no (b) (hkg has no CPU target), SIZE=small
#   SIZE=full|small       full by default for cuda, small for cpu
#   PROGRAMS=mlp,decoder_layer
#   DISPATCH=0            skip (c)
#   IREE_CUDA_TARGET=sm_80  HKG_CHIP=sm_90  HKG_IREE_TARGET=sm_90
#   CPU=host              --iree-llvmcpu-target-cpu for TARGET=cpu
#   VENV=.venv  HKG_COMPILE=build/bin/hkg-compile
#
# Then, on the GPU machine (carrying OUT and .carry/iree27, the runtime wheels):
#   bash utils/device/iree.sh OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-.carry/iree}
TARGET=${TARGET:-cuda}
case $TARGET in
  cuda) SIZE=${SIZE:-full} ;;
  cpu) SIZE=${SIZE:-small} ;;
  *) echo "TARGET must be cuda or cpu, not $TARGET" >&2; exit 2 ;;
esac
PROGRAMS=${PROGRAMS:-mlp,decoder_layer}
DISPATCH=${DISPATCH:-1}
VENV=${VENV:-.venv}
HKG_COMPILE=${HKG_COMPILE:-build/bin/hkg-compile}
IREE_CUDA_TARGET=${IREE_CUDA_TARGET:-sm_80}
HKG_CHIP=${HKG_CHIP:-sm_90}
HKG_IREE_TARGET=${HKG_IREE_TARGET:-sm_90}
PY=$VENV/bin/python
IREE_COMPILE=$VENV/bin/iree-compile
for tool in "$PY" "$IREE_COMPILE"; do
  [ -x "$tool" ] || { echo "no $tool: run utils/frontend/setup_venv.sh" >&2; exit 2; }
done
if [ "$TARGET" = cuda ] && [ ! -x "$HKG_COMPILE" ]; then
  echo "no $HKG_COMPILE: build hkg (ninja -C build hkg-compile)" >&2; exit 2
fi
case $TARGET in
  cuda) IREE_FLAGS=(--iree-hal-target-device=cuda "--iree-cuda-target=$IREE_CUDA_TARGET") ;;
  cpu) IREE_FLAGS=(--iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu
                   "--iree-llvmcpu-target-cpu=${CPU:-host}") ;;
esac
if [ -e "$OUT" ] && [ ! -f "$OUT/config.json" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ]; then
  echo "$OUT is not empty and not an earlier build (no config.json): not replacing it" >&2
  exit 2
fi
SECONDS=0
rm -rf "$OUT"
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The dispatches of a program in order, from its flow-level form.
dispatches() {  # SRC OUTFILE FLAGS...
  local src=$1 out=$2; shift 2
  "$IREE_COMPILE" "$src" "$@" --compile-to=flow -o "$tmp/flow.mlir"
  grep -o 'flow\.dispatch @[A-Za-z0-9_$.]*::@[A-Za-z0-9_$.]*' "$tmp/flow.mlir" \
    | sed 's/^flow\.dispatch //' > "$out"
}

# (c): compiles each dumped benchmark of build B with the build's flags.
bench_modules() {  # DUMPDIR DESTDIR FLAGS...
  local dump=$1 dest=$2 f; shift 2
  mkdir -p "$dest"
  for f in "$dump"/*_benchmark.mlir; do
    [ -e "$f" ] || { echo "no dispatch benchmarks in $dump" >&2; return 1; }
    local name; name=$(basename "$f" .mlir)
    name=${name#module_}
    "$IREE_COMPILE" "$f" "$@" -o "$dest/${name%_benchmark}.vmfb"
  done
}

hkg_target_used=""
for p in ${PROGRAMS//,/ }; do
  d=$OUT/$p
  mkdir -p "$d"
  if [ "$SIZE" = full ]; then
    "$PY" utils/frontend/torch_import.py "$p" --out-dir "$d"
  else
    "$PY" utils/iree/programs.py --size "$SIZE" --out-dir "$d" "$p"
  fi

  # (a) IREE alone.
  extra=()
  [ "$DISPATCH" = 1 ] && extra=(--iree-hal-dump-executable-benchmarks-to="$tmp/$p-iree")
  "$IREE_COMPILE" "$d/$p.mlir" "${IREE_FLAGS[@]}" "${extra[@]}" -o "$d/iree.vmfb"
  dispatches "$d/$p.mlir" "$d/iree.dispatches.txt" "${IREE_FLAGS[@]}"
  [ "$DISPATCH" = 1 ] && bench_modules "$tmp/$p-iree" "$d/dispatch/iree" "${IREE_FLAGS[@]}"
  echo "$p: iree.vmfb ($(wc -l < "$d/iree.dispatches.txt") dispatches)"

  # (b) IREE with hkg's dispatches.
  if [ "$TARGET" = cuda ]; then
    "$HKG_COMPILE" "$d/$p.mlir" "--chip=$HKG_CHIP" --emit=iree -o "$d/hkg_bundle" > "$tmp/hkg.log" 2>&1 \
      || { cat "$tmp/hkg.log" >&2; exit 1; }
    target=$HKG_IREE_TARGET
    hkg_flags() {
      echo --iree-hal-target-device=cuda "--iree-cuda-target=$1" \
        "--iree-hal-executable-object-search-path=$d/hkg_bundle"
    }
    extra=()
    [ "$DISPATCH" = 1 ] && extra=(--iree-hal-dump-executable-benchmarks-to="$tmp/$p-hkg")
    if ! "$IREE_COMPILE" "$d/hkg_bundle/iree_input.mlir" $(hkg_flags "$target") "${extra[@]}" \
        -o "$d/hkg.vmfb" 2> "$tmp/iree.log"; then
      if grep -q "missing GPU target" "$tmp/iree.log" && [ "$target" != "$IREE_CUDA_TARGET" ]; then
        echo "$p: IREE generates kernels in the hkg build and has no $target codegen;" \
             "its kernels are built for $IREE_CUDA_TARGET" >&2
        target=$IREE_CUDA_TARGET
        rm -rf "$tmp/$p-hkg"
        "$IREE_COMPILE" "$d/hkg_bundle/iree_input.mlir" $(hkg_flags "$target") "${extra[@]}" \
          -o "$d/hkg.vmfb"
      else
        cat "$tmp/iree.log" >&2; exit 1
      fi
    fi
    hkg_target_used="$hkg_target_used $p:$target"
    dispatches "$d/hkg_bundle/iree_input.mlir" "$d/hkg.dispatches.txt" $(hkg_flags "$target")
    [ "$DISPATCH" = 1 ] && bench_modules "$tmp/$p-hkg" "$d/dispatch/hkg" $(hkg_flags "$target")
    echo "$p: hkg.vmfb ($(wc -l < "$d/hkg.dispatches.txt") dispatches," \
         "$(ls "$d/hkg_bundle"/*.ptx 2>/dev/null | wc -l) hkg kernels, IREE target $target)"
  fi
done

# config.json: what the driver needs to know, and what was built how.
TARGET=$TARGET SIZE=$SIZE PROGRAMS=$PROGRAMS HKG_CHIP=$HKG_CHIP \
IREE_FLAGS="${IREE_FLAGS[*]}" HKG_TARGETS="$hkg_target_used" IREE_VERSION="$("$IREE_COMPILE" --version | head -3 | tr '\n' ' ')" \
COMMIT="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!.carry' 2>/dev/null || echo +dirty)" \
"$PY" - "$OUT" <<'EOF'
import json, os, sys
out = sys.argv[1]
e = os.environ
cfg = {
    "target": e["TARGET"], "size": e["SIZE"],
    "device": "cuda" if e["TARGET"] == "cuda" else "local-task",
    "programs": e["PROGRAMS"].split(","),
    "iree_flags": e["IREE_FLAGS"].split(),
    "hkg_chip": e["HKG_CHIP"] if e["TARGET"] == "cuda" else None,
    "hkg_iree_target": dict(t.split(":") for t in e["HKG_TARGETS"].split()),
    "iree_compile": e["IREE_VERSION"].strip(),
    "hkg_commit": e["COMMIT"],
}
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump(cfg, f, indent=1)
EOF
total=$(du -sb "$OUT" | cut -f1)
echo "built $OUT in ${SECONDS} s: $((total / 1024)) KiB"
du -sk "$OUT"/*/ | sed 's/^/  KiB /'
if [ "$total" -gt $((8 * 1024 * 1024)) ]; then
  echo "warning: $OUT is over 8 MiB; the device call carries 64 MiB in all" \
       "(with .carry/iree27's 15 MB of wheels); DISPATCH=0 drops the dispatch modules" >&2
fi
