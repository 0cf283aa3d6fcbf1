#!/usr/bin/env bash
# Nsight Compute profiles (and SASS) of hkg's kernels, side by side with the
# reference's.
#
#   bash utils/device/profile.sh CASE BUNDLE_DIR [BUNDLE_DIR ...]
#     CASE: a bench.py case (rmsnorm, top_p, gemm, softmax.32768x1024, ...).
#     Each bundle's kernel is launched on bench.py's inputs for CASE
#     (utils/bench/profile_case.py) and its second launch profiled; then the
#     reference's kernels of one call (REF: inductor, the default; eager,
#     PyTorch, cuBLAS for the GEMMs; none).
#   bash utils/device/profile.sh --cuda FILE.cu KERNEL_REGEX [ARGS ...]
#     A hand-written CUDA program (e.g. utils/bench/layernorm_bulk_proto.cu),
#     built with nvcc -O3 -arch=sm_90a, run with ARGS; the first launch of
#     each kernel whose mangled name matches KERNEL_REGEX is profiled.
#
# Environment:
#   SECTIONS  basic (default: speed of light, memory workload, warp states,
#             occupancy, launch stats, DRAM bytes and L2 hit rate), source
#             (basic + instruction and scheduler stats + SourceCounters, and
#             the per-instruction page as CSV, split into the stretches
#             between barriers by utils/bench/ncu_regions.py), or ncu
#             options of your own ("--section ...")
#   NCU_EXTRA more ncu options; CLOCKS (none: the GPU's own clocks; base:
#             ncu's locked base clocks)
#   SASS=1    also ptxas -v and the SASS (cuobjdump) of each bundle's PTX,
#             with the shared-memory atomics counted; NCU=0 skips ncu
#   NAME      output name (default profile-CASE)
# $OUT: NAME.md (the key lines of every report), NAME.tar.xz (the full
# reports as text, the CSV pages, ptxas and SASS).
. "$(dirname "$0")/lib.sh"
basic="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed"
csv=0
case "${SECTIONS:-basic}" in
  basic) sections=$basic ;;
  source) sections="$basic --section InstructionStats --section SchedulerStats --section SourceCounters"; csv=1 ;;
  *) sections=$SECTIONS ;;
esac
sections="$sections --clock-control ${CLOCKS:-none} ${NCU_EXTRA:-}"
if [ "${1:-}" = --cuda ]; then
  src=$2 regex=$3; shift 3
  NAME=${NAME:-profile-$(basename "$src" .cu)}
else
  CASE=${1:?usage: profile.sh CASE BUNDLE_DIR ... | profile.sh --cuda FILE.cu KERNEL_REGEX [ARGS]}; shift
  NAME=${NAME:-profile-$CASE}
fi
W=/tmp/hkg-$NAME; rm -rf "$W"; mkdir -p "$W"
MD=$OUT/$NAME.md
gpu_info "$W/gpu.txt" > /dev/null
echo "# $NAME ($(date -u +%F), $(head -1 "$W/gpu.txt"))" > "$MD"
have_ncu=1
command -v ncu > /dev/null || { have_ncu=0; echo "no ncu on this machine" | tee -a "$MD"; }
[ "${NCU:-1}" = 0 ] && have_ncu=0

# ncu_run TAG NCU_ARGS... -- COMMAND...: one report, its text, its key lines.
ncu_run() {
  local tag=$1; shift
  # shellcheck disable=SC2086
  timeout "$(time_left 5)" ncu $sections -o "$W/$tag" "$@" > "$W/ncu-$tag.log" 2>&1
  echo "ncu $tag: exit $?, $SECONDS s"
  [ -f "$W/$tag.ncu-rep" ] || { tail -5 "$W/ncu-$tag.log"; return; }
  ncu -i "$W/$tag.ncu-rep" > "$W/ncu-$tag.txt" 2>&1
  {
    printf '\n## %s\n\n```\n' "$tag"
    grep -E "^  [A-Za-z_0-9]+.*\(|Duration|Registers Per|Dynamic Shared|Static Shared|DRAM Throughput|dram__bytes_(read|write).sum|lts__t_sector_hit_rate|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Executed Instructions  |Issued Warp|Stall" \
      "$W/ncu-$tag.txt" | head -40
    if [ "$csv" = 1 ]; then
      ncu -i "$W/$tag.ncu-rep" --page source --csv --print-source sass > "$W/ncu-$tag.csv" 2>&1
      python3 utils/bench/ncu_regions.py "$W/ncu-$tag.csv" 2>&1 | head -30
      xz -9 "$W/ncu-$tag.csv"
    fi
    echo '```'
  } >> "$MD"
  rm -f "$W/$tag.ncu-rep"
}

if [ -n "${src:-}" ]; then
  nvcc -O3 -arch=sm_90a -Xptxas -v -o "$W/proto" "$src" > "$W/nvcc.log" 2>&1
  echo "nvcc $src: exit $?"
  [ "$have_ncu" = 1 ] && ncu_run proto --kernel-name-base mangled -k "regex:$regex" --launch-count 1 "$W/proto" "$@"
  rm -f "$W/proto"
else
  for b in "$@"; do
    tag=$(echo "$b" | sed 's|^\./||; s|^\.carry/||' | tr '/' '_')
    if [ "${SASS:-0}" = 1 ]; then
      ptx=$(ls "$b"/*.ptx 2>/dev/null | head -1) cubin=$W/$tag.cubin
      if [ -n "$ptx" ]; then ptxas -arch=sm_90a -v "$ptx" -o "$cubin" > "$W/$tag.ptxas.txt" 2>&1
      else cp "$(ls "$b"/*.cubin | head -1)" "$cubin"; fi
      cuobjdump -sass "$cubin" > "$W/$tag.sass" 2>&1
      { printf '\n## %s: ptxas and SASS\n\n```\n' "$tag"; tail -4 "$W/$tag.ptxas.txt" 2>/dev/null
        echo "shared-memory atomics:"; grep -o "ATOMS[.A-Z0-9]*\|CAS[.A-Z0-9]*" "$W/$tag.sass" | sort | uniq -c
        echo '```'; } >> "$MD"
      xz -9 "$W/$tag.sass"; rm -f "$cubin"
    fi
    export HKG_PROFILE_REF=none
    [ "$have_ncu" = 1 ] && ncu_run "$tag" -k regex:hkg_ --launch-skip 1 --launch-count 1 \
      python3 utils/bench/profile_case.py "$CASE" "$b"
  done
  if [ "$have_ncu" = 1 ] && [ "${REF:-inductor}" != none ]; then
    export HKG_PROFILE_REF=${REF:-inductor}
    ncu_run "reference-${REF:-inductor}" --nvtx --nvtx-include "reference/" \
      python3 utils/bench/profile_case.py "$CASE"
  fi
fi
cat "$MD"
pack "$NAME" "$W"
echo "total $SECONDS s"
