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

/// Batches from which the default is the LDS-pipelined kernel (mma.sync):
/// the LDS-free matrix-core kernel's waves each read their activation
/// tile from L1 (tile_m x 256 bytes a span of 128 k for every 32 weight
/// rows) and are issue-bound from ~64 rows on (docs/Matmul.md, "W4A16").
static constexpr int64_t kTiledMinBatch = 64;

/// The knobs only the LDS-pipelined kernel reads.
static void addTiledKnobs(ScheduleSpace &space, const TargetInfo &target,
                          int64_t stages, int64_t wavesM) {
  space.add(kStages, {0, 2, 3, 4}, stages,
            "LDS buffers of the LDS-pipelined kernel (cp.async, mma.sync); "
            "0 picks the LDS-free matrix-core kernel (or the streaming one)");
  space.add(kWavesM, {1, 2, 4}, wavesM,
            "waves along the activation rows of the LDS-pipelined kernel's "
            "workgroup tile (read by that kernel only)");
  // The LDS-pipelined kernel's 256 threads hold ~135-165 registers: one
  // workgroup an SM unless the code generator is asked for two.
  addOccupancyKnob(space, target);
}

/// The knobs every kernel reads, with the defaults of the kernel that the
/// schedule space's `mma` and batch pick.
static void addSharedKnobs(ScheduleSpace &space, ArrayRef<int64_t> threads,
                           int64_t tileM, int64_t rows, int64_t unroll,
                           int64_t threadCount, int64_t splitK) {
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
  space.add(kThreads, threads, threadCount,
            "threads per workgroup (each wave its own weight rows)");
  space.add(kSplitK, {1, 2, 4, 8, 16, 32, 64}, splitK,
            "workgroups along K (matrix-core kernel), their f32 partials "
            "summed through a global workspace");
}

/// The streaming kernel's defaults (mma = none).
static void addStreamDefaults(ScheduleSpace &space, int64_t m, int64_t n,
                              int64_t chunks, const TargetInfo &target,
                              ArrayRef<int64_t> threads) {
  // Activation rows per grid row: all of a decode batch (up to 16) in one
  // pass over the weights.
  int64_t tileM = std::min<int64_t>(16, llvm::PowerOf2Ceil(m));
  // Registers bound the work a lane keeps in flight (sm_90, ptxas, no
  // spills): 2 rows x 2 chunks up to 4 activation rows (73-109 registers),
  // 2 x 1 for 8 (108), 1 x 2 for 16 (127).
  int64_t rows = std::min<int64_t>(tileM <= 8 ? 2 : 1, llvm::PowerOf2Ceil(n));
  // Chunks of a row each lane loads per step: as many as the row has per
  // lane, at most the register budget's.
  int64_t perLane = llvm::divideCeil(chunks, target.waveSize);
  int64_t unroll =
      clampPow2(llvm::PowerOf2Ceil(perLane), 1, tileM == 8 ? 1 : 2);
  addSharedKnobs(space, threads, tileM, rows, unroll,
                 std::min<int64_t>(256, threads.back()), /*splitK=*/1);
  addTiledKnobs(space, target, 0, 1);
}

/// The LDS-pipelined kernel's defaults (batches of 64 and more): 128 x 128
/// workgroup tiles (64 x 128 up to 64 rows) of 2 x 4 (1 x 4) waves with
/// 64 x 32 warp tiles (CDNA: 2 x 2 waves of 64 x 64; gfx12: 128 x 64 tiles
/// of 4 x 2 waves of 32 x 32), 3 stages of 64 k
/// (AMD: 2, through registers), and K split while the doubled grid still
/// fits one workgroup per SM, each slice keeps 8 steps and the f32
/// partials stay within the packed weights' bytes. On NVIDIA, 128-row
/// tiles take 128 x 32 warp tiles (waves_m = 1, 128 x 256 workgroup tiles:
/// each weight dequantized once for all 128 rows) wherever that grid still
/// covers 3/4 of the SMs (H100, batch 128: 1.23-1.37x at 8192 x 28672 and
/// 28672 x 8192; 4096 x 4096's 32 workgroups ran 1.6x slower).
static void addTiledDefaults(ScheduleSpace &space, int64_t m, int64_t n,
                             int64_t k, const TargetInfo &target,
                             ArrayRef<int64_t> threads) {
  int64_t tileM = std::clamp<int64_t>(llvm::PowerOf2Ceil(m), 64, 128);
  // Warp tiles: NVIDIA 64 x 32 (4 waves per 64 rows of M, 128 weight rows
  // a tile); CDNA (wave64) 64 x 64 (2 waves); gfx12 (wave32, no packed
  // bf16 math: the dequantization goes through f32) 32 x 32, 64 weight
  // rows a tile (232 VGPRs, no scratch; 64 x 32 spills).
  bool gfx12 = target.isAMD() && target.waveSize == 32;
  int64_t warpM = gfx12 ? 32 : 64;
  int64_t rows = target.waveSize == 64 ? 64 : 32;
  int64_t tileN = gfx12 ? 64 : 128;
  int64_t wavesM = tileM / warpM;
  int64_t waves = tileN / rows * wavesM;
  int64_t steps = llvm::divideCeil(k, kW4A16TileK);
  int64_t paddedM = llvm::divideCeil(m, tileM) * tileM;
  int64_t cus = target.computeUnits;
  auto splitFor = [&](int64_t tiles) {
    int64_t splitK = 1;
    while (splitK < 64 && tiles * 2 * splitK <= cus &&
           steps / (2 * splitK) >= 8 && 2 * splitK * 8 * paddedM <= k)
      splitK *= 2;
    return splitK;
  };
  auto tilesOf = [&](int64_t tn) {
    return llvm::divideCeil(n, tn) * llvm::divideCeil(m, tileM);
  };
  int64_t splitK = splitFor(tilesOf(tileN));
  if (target.isNVIDIA() && wavesM == 2) {
    int64_t wide = tilesOf(2 * tileN);
    int64_t wideSplit = splitFor(wide);
    if (4 * wide * wideSplit >= 3 * cus) {
      wavesM = 1;
      splitK = wideSplit;
    }
  }
  addSharedKnobs(space, threads, tileM, rows, /*unroll=*/1,
                 std::min<int64_t>(waves * target.waveSize, threads.back()),
                 splitK);
  // AMD stages through registers: a double buffer.
  addTiledKnobs(space, target, target.isNVIDIA() ? 3 : 2, wavesM);
}

/// The matrix-core kernel's defaults: 32 weight rows a wave, 4 waves, the
/// activation tile the batch rounded up to a power of two (at least the
/// instruction's N, at most 64), 2 spans in flight up to 16 rows (1 above:
/// registers), and K split until the grid has 8 waves per CU for one
/// activation tile of 8 rows (16 for more), each slice keeping 8 spans
/// (H100, batch 1 and 16 on four weight shapes: the best split of 1-16 at
/// 6 of 8, 1.1-1.3x over 16 waves and 2 spans at 6, the same at 2; batch
/// 16 at 8 waves would split 28672 x 8192 in 2, 1.27x slower there).
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
  // Each slice keeps at least 8 spans, and the f32 partials (M rounded up
  // to the tile, x N x 4 bytes a slice) stay within the packed weights'
  // bytes (N x K / 2): split_k <= K / (8 M).
  int64_t paddedM = llvm::divideCeil(m, tileM) * tileM;
  int64_t splitK = 1;
  int64_t wavesPerCU = tileM <= 8 ? 8 : 16;
  while (splitK < 64 && tileWaves * splitK < wavesPerCU * target.computeUnits &&
         spans / (2 * splitK) >= 8 && 2 * splitK * 8 * paddedM <= k)
    splitK *= 2;
  int64_t perSplit = llvm::divideCeil(spans, splitK);
  int64_t unroll = std::min<int64_t>(
      tileM <= 16 ? 2 : 1,
      (int64_t)llvm::bit_floor(static_cast<uint64_t>(perSplit)));
  addSharedKnobs(space, threads, tileM, rows, unroll,
                 std::min<int64_t>(waves * wave, threads.back()), splitK);
  addTiledKnobs(space, target, 0, 1);
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
  // Large batches: the LDS-pipelined kernel, each weight dequantized once
  // per wave for 64 activation rows (the LDS-free kernel's waves re-read
  // the activations from L1 for every 32 weight rows).
  if (mma == "none")
    addStreamDefaults(space, m, n, k / kW4A16ChunkValues, target, threads);
  else if (m >= kTiledMinBatch &&
           w4a16HasTiledKernel(MmaInstruction::parse(mma)))
    addTiledDefaults(space, m, n, k, target, threads);
  else
    addMatrixCoreDefaults(space, m, n, k, MmaInstruction::parse(mma), target,
                          threads);
  return space;
}

/// The LDS-pipelined kernel's constraints (stages > 0).
static LogicalResult verifyTiled(MatmulW4A16Op op, const MatmulW4A16Schedule &s,
                                 const TargetInfo &target,
                                 function_ref<InFlightDiagnostic()> emitError) {
  int64_t wave = target.waveSize;
  if (!w4a16HasTiledKernel(s.mma))
    return emitError() << "schedule knob '" << kStages.name
                       << "' = " << s.stages << " with mma = " << s.mma.name
                       << ", expected 0 (the LDS-pipelined kernel needs a "
                       << "matrix-core instruction)";
  if (!target.isNVIDIA() && s.stages != 2)
    return emitError() << "schedule knob '" << kStages.name
                       << "' = " << s.stages << " with mma = " << s.mma.name
                       << ", expected 0 or 2 (AMD stages through registers "
                       << "into a double buffer)";
  int64_t waves = s.threads / wave;
  if (waves % s.wavesM != 0)
    return emitError() << "schedule knob '" << kWavesM.name
                       << "' = " << s.wavesM << " does not divide the " << waves
                       << " waves of " << s.threads << " threads";
  if (s.tileM % (16 * s.wavesM) != 0)
    return emitError() << "schedule knob '" << kTileM.name << "' = " << s.tileM
                       << " with stages > 0, expected a multiple "
                       << "of 16 x waves_m = " << 16 * s.wavesM;
  if (s.rowsPerWave % s.mma.n != 0)
    return emitError() << "schedule knob '" << kRowsPerWave.name
                       << "' = " << s.rowsPerWave
                       << " with stages > 0 and mma = " << s.mma.name
                       << ", expected a multiple of " << s.mma.n;
  int64_t acc = (s.tileM / s.wavesM / 16) * (s.rowsPerWave / s.mma.n) *
                (s.mma.m * s.mma.n / wave);
  if (acc > kMaxMatrixCoreAccumulators)
    return emitError() << "schedule knobs '" << kTileM.name << "' / '"
                       << kWavesM.name << "' x '" << kRowsPerWave.name
                       << "' = " << s.tileM / s.wavesM << " x " << s.rowsPerWave
                       << " need " << acc
                       << " f32 accumulators per lane, expected at most "
                       << kMaxMatrixCoreAccumulators;
  int64_t elemBytes =
      op.getInput().getType().getElementType().getIntOrFloatBitWidth() / 8;
  int64_t lds = w4a16TiledLdsBytes(s.tileM, s.tileN(wave), s.stages, elemBytes);
  if (lds > target.ldsBytesPerWorkgroup)
    return emitError() << "schedule knobs '" << kStages.name << "', '"
                       << kTileM.name << "' and '" << kRowsPerWave.name
                       << "' need " << lds << " bytes of LDS, expected at "
                       << "most " << target.ldsBytesPerWorkgroup;
  int64_t steps = llvm::divideCeil(op.getK(), kW4A16TileK);
  if (s.splitK > steps)
    return emitError() << "schedule knob '" << kSplitK.name
                       << "' = " << s.splitK << ", expected at most " << steps
                       << " (the K steps of " << kW4A16TileK << " values)";
  return success();
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
  if (s.isTiled())
    return verifyTiled(*this, s, target, emitError);
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
