//===- MatmulW4A16Schedule.cpp - the schedule space of hkg.matmul_w4a16 ---===//
//
// Two kernels (lib/Conversion/HkgToGPU/MatmulW4A16*.cpp), picked by `mma`:
// the matrix-core kernel wherever the target has one of its instructions
// (mma.sync, MFMA, gfx12 WMMA), else the f32-FMA weight-streaming kernel.
// In both, waves own weight rows and lanes own 16-byte chunks of them along
// K; the knobs size a lane's work (activation rows, weight rows, chunks in
// flight), the workgroup and (matrix cores) the split of K.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulW4A16Schedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// Accumulators a lane may hold (tile_m x rows_per_wave) in the streaming
/// kernel, and f32 accumulator registers in the matrix-core kernel.
static constexpr int64_t kMaxAccumulators = 32;
static constexpr int64_t kMaxMatrixCoreAccumulators = 128;
/// Activation rows per grid row of the streaming kernel, at most.
static constexpr int64_t kMaxStreamTileM = 16;

SmallVector<StringRef>
mlir::hkg::w4a16MatrixCoreInstructions(const TargetInfo &target) {
  if (target.isNVIDIA() &&
      llvm::is_contained(target.mmaIntrinsics, StringRef("mma_16x8x16")))
    return {"mma_16x8x16"};
  if (target.isAMD() &&
      llvm::is_contained(target.mmaIntrinsics, StringRef("mfma_16x16x16")))
    return {"mfma_16x16x16"};
  // gfx1250's 16-bit WMMA is 16x16x32 (its table's wmma_16x16x16 does not
  // lower there, docs/Matmul.md "Gaps").
  if (target.isAMD() && target.chip.starts_with("gfx12") &&
      target.chip != "gfx1250" &&
      llvm::is_contained(target.mmaIntrinsics, StringRef("wmma_16x16x16")))
    return {"wmma_16x16x16"};
  return {};
}

/// The streaming kernel's defaults (mma = none).
static void addStreamDefaults(ScheduleSpace &space, int64_t m, int64_t n,
                              int64_t chunks, const TargetInfo &target,
                              ArrayRef<int64_t> threads) {
  // Activation rows per grid row: all of a decode batch (up to 16) in one
  // pass over the weights.
  int64_t tileM = std::min<int64_t>(16, llvm::PowerOf2Ceil(m));
  space.add(kTileM, {1, 2, 4, 8, 16, 32, 64, 128}, tileM,
            "activation rows per workgroup tile (streaming kernel: each lane "
            "multiplies a dequantized chunk with them; matrix-core kernel: "
            "the B operand's rows, a multiple of the instruction's N)");
  // Registers bound the work a lane keeps in flight (sm_90, ptxas, no
  // spills): 2 rows x 2 chunks up to 4 activation rows (73-109 registers),
  // 2 x 1 for 8 (108), 1 x 2 for 16 (127).
  int64_t rows = std::min<int64_t>(tileM <= 8 ? 2 : 1, llvm::PowerOf2Ceil(n));
  space.add(kRowsPerWave, {1, 2, 4, 8, 16, 32, 64}, rows,
            "weight rows (output columns) each wave streams at once (a "
            "multiple of 16 with a matrix-core mma)");
  // Chunks of a row each lane loads per step: as many as the row has per
  // lane, at most the register budget's.
  int64_t perLane = llvm::divideCeil(chunks, target.waveSize);
  space.add(kUnroll, {1, 2, 4, 8},
            clampPow2(llvm::PowerOf2Ceil(perLane), 1, tileM == 8 ? 1 : 2),
            "16-byte weight chunks per lane and row in flight per step "
            "(matrix-core kernel: K spans per step)");
  space.add(kThreads, threads, std::min<int64_t>(256, threads.back()),
            "threads per workgroup (each wave its own weight rows)");
  space.add(kSplitK, {1, 2, 4, 8, 16, 32, 64}, 1,
            "workgroups along K (matrix-core kernel), their f32 partials "
            "summed through a global workspace");
}

/// The matrix-core kernel's defaults: 32 weight rows a wave, 4 waves, the
/// activation tile the batch rounded up to a power of two (at least the
/// instruction's N, at most 64), 2 spans in flight up to 16 rows (1 above:
/// registers), and K split until the grid has 16 waves per CU.
static void addMatrixCoreDefaults(ScheduleSpace &space, int64_t m, int64_t n,
                                  int64_t k, const MmaInstruction &mma,
                                  const TargetInfo &target,
                                  ArrayRef<int64_t> threads) {
  int64_t wave = target.waveSize;
  int64_t tileM = std::clamp<int64_t>(llvm::PowerOf2Ceil(m), mma.n,
                                      std::max<int64_t>(64, mma.n));
  int64_t rows = 32;
  int64_t waves = 4;
  int64_t spans = llvm::divideCeil(k, w4a16SpanValues(mma, wave));
  int64_t tileWaves = llvm::divideCeil(n, rows) * llvm::divideCeil(m, tileM);
  // Each slice keeps at least 2 spans, and the f32 partials (M rounded up
  // to the tile, x N x 4 bytes a slice) stay within the packed weights'
  // bytes (N x K / 2): split_k <= K / (8 M).
  int64_t paddedM = llvm::divideCeil(m, tileM) * tileM;
  int64_t splitK = 1;
  while (splitK < 64 && tileWaves * splitK < 16 * target.computeUnits &&
         spans / (2 * splitK) >= 2 && 2 * splitK * 8 * paddedM <= k)
    splitK *= 2;
  int64_t perSplit = llvm::divideCeil(spans, splitK);
  int64_t unroll = std::min<int64_t>(
      tileM <= 16 ? 2 : 1,
      (int64_t)llvm::bit_floor(static_cast<uint64_t>(perSplit)));
  space.add(kTileM, {1, 2, 4, 8, 16, 32, 64, 128}, tileM,
            "activation rows per workgroup tile (streaming kernel: each lane "
            "multiplies a dequantized chunk with them; matrix-core kernel: "
            "the B operand's rows, a multiple of the instruction's N)");
  space.add(kRowsPerWave, {1, 2, 4, 8, 16, 32, 64}, rows,
            "weight rows (output columns) each wave streams at once (a "
            "multiple of 16 with a matrix-core mma)");
  space.add(kUnroll, {1, 2, 4, 8}, unroll,
            "16-byte weight chunks per lane and row in flight per step "
            "(matrix-core kernel: K spans per step)");
  space.add(kThreads, threads, std::min<int64_t>(waves * wave, threads.back()),
            "threads per workgroup (each wave its own weight rows)");
  space.add(kSplitK, {1, 2, 4, 8, 16, 32, 64}, splitK,
            "workgroups along K (matrix-core kernel), their f32 partials "
            "summed through a global workspace");
}

ScheduleSpace MatmulW4A16Op::getScheduleSpace(const TargetInfo &target) {
  int64_t m = getM(), n = getN(), k = getK();
  SmallVector<int64_t> threads;
  for (int64_t t : threadCounts(target))
    if (t <= 512)
      threads.push_back(t);
  SmallVector<StringRef> mmas = {"none"};
  llvm::append_range(mmas, w4a16MatrixCoreInstructions(target));
  // The matrix-core kernel wherever the target has one of its
  // instructions: the MMAs cost about nothing next to the dequantization,
  // which takes ~2 instructions per weight (packed 16-bit math) against the
  // streaming kernel's ~4 plus 2 per activation row.
  StringRef mma = mmas.back();
  ScheduleSpace space;
  space.add(kMma, mmas, mma,
            "matrix-core instruction (weights dequantized into its A "
            "fragments), or none for the f32-FMA streaming kernel");
  if (mma == "none")
    addStreamDefaults(space, m, n, k / kW4A16ChunkValues, target, threads);
  else
    addMatrixCoreDefaults(space, m, n, k, MmaInstruction::parse(mma), target,
                          threads);
  return space;
}

LogicalResult MatmulW4A16Op::verifyScheduleConstraints(
    const ResolvedSchedule &resolved, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  MatmulW4A16Schedule s = MatmulW4A16Schedule::decode(resolved);
  int64_t wave = target.waveSize;
  if (s.threads % wave != 0)
    return emitError() << "schedule knob '" << kThreads.name
                       << "' = " << s.threads
                       << " is not a multiple of the wave size " << wave;
  if (s.mma.isNone()) {
    if (s.tileM > kMaxStreamTileM)
      return emitError() << "schedule knob '" << kTileM.name
                         << "' = " << s.tileM
                         << " with mma = none, expected at most "
                         << kMaxStreamTileM;
    if (s.tileM * s.rowsPerWave > kMaxAccumulators)
      return emitError() << "schedule knobs '" << kTileM.name << "' x '"
                         << kRowsPerWave.name << "' = " << s.tileM << " x "
                         << s.rowsPerWave << " accumulators per lane, expected "
                         << "at most " << kMaxAccumulators;
    if (s.splitK != 1)
      return emitError() << "schedule knob '" << kSplitK.name
                         << "' = " << s.splitK
                         << " with mma = none, expected 1 (the "
                         << "streaming kernel does not split K)";
    return success();
  }
  if (s.rowsPerWave % s.mma.m != 0)
    return emitError() << "schedule knob '" << kRowsPerWave.name
                       << "' = " << s.rowsPerWave
                       << " with mma = " << s.mma.name
                       << ", expected a multiple of " << s.mma.m;
  if (s.tileM % s.mma.n != 0)
    return emitError() << "schedule knob '" << kTileM.name << "' = " << s.tileM
                       << " with mma = " << s.mma.name
                       << ", expected a multiple of " << s.mma.n;
  int64_t acc = (s.rowsPerWave / s.mma.m) * (s.tileM / s.mma.n) *
                w4a16AccPerInstruction(s.mma, wave);
  if (acc > kMaxMatrixCoreAccumulators)
    return emitError() << "schedule knobs '" << kRowsPerWave.name << "' x '"
                       << kTileM.name << "' = " << s.rowsPerWave << " x "
                       << s.tileM << " need " << acc
                       << " f32 accumulators per lane, expected at most "
                       << kMaxMatrixCoreAccumulators;
  int64_t spans = llvm::divideCeil(getK(), w4a16SpanValues(s.mma, wave));
  if (s.splitK > spans)
    return emitError() << "schedule knob '" << kSplitK.name
                       << "' = " << s.splitK << ", expected at most " << spans
                       << " (the K spans of " << w4a16SpanValues(s.mma, wave)
                       << " values)";
  return success();
}

CostFeatures MatmulW4A16Op::getCostFeatures() {
  CostFeatures c;
  int64_t m = getM(), n = getN(), k = getK();
  c.flops = 2.0 * m * n * k;
  c.bytes = tensorBytes(*this, getInput()) + tensorBytes(*this, getWeights()) +
            tensorBytes(*this, getScales()) + tensorBytes(*this, getZeros()) +
            tensorBytes(*this, getResult());
  c.shape = {1, m, n, k};
  c.elementType = getInput().getType().getElementType();
  return c;
}
