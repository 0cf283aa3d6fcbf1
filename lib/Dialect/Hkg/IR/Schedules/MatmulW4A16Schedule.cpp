//===- MatmulW4A16Schedule.cpp - the schedule space of hkg.matmul_w4a16 ---===//
//
// The weight-streaming kernel (lib/Conversion/HkgToGPU/MatmulW4A16.cpp):
// waves own weight rows, lanes own 16-byte chunks of them along K. The
// knobs size a lane's work (activation rows, weight rows, chunks in flight)
// and the workgroup. The default gives each lane 16 x 2 accumulators at
// most and keeps 2 to 4 chunks (32-64 bytes) of weights in flight per lane.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulW4A16Schedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// Accumulators a lane may hold (tile_m x rows_per_wave).
static constexpr int64_t kMaxAccumulators = 32;

ScheduleSpace MatmulW4A16Op::getScheduleSpace(const TargetInfo &target) {
  int64_t m = getM(), n = getN();
  int64_t chunks = getK() / kW4A16ChunkValues;
  ScheduleSpace space;
  // Activation rows per grid row: all of a decode batch (up to 16) in one
  // pass over the weights.
  int64_t tileM = std::min<int64_t>(16, llvm::PowerOf2Ceil(m));
  space.add(kTileM, {1, 2, 4, 8, 16}, tileM,
            "activation rows each lane multiplies a dequantized chunk with "
            "(a grid row per tile)");
  // Registers bound the work a lane keeps in flight (sm_90, ptxas, no
  // spills): 2 rows x 2 chunks up to 4 activation rows (73-109 registers),
  // 2 x 1 for 8 (108), 1 x 2 for 16 (127).
  int64_t rows = std::min<int64_t>(tileM <= 8 ? 2 : 1, llvm::PowerOf2Ceil(n));
  space.add(kRowsPerWave, {1, 2, 4, 8}, rows,
            "weight rows (output columns) each wave streams at once");
  // Chunks of a row each lane loads per step: as many as the row has per
  // lane, at most the register budget's.
  int64_t perLane = llvm::divideCeil(chunks, target.waveSize);
  space.add(kUnroll, {1, 2, 4, 8},
            clampPow2(llvm::PowerOf2Ceil(perLane), 1, tileM == 8 ? 1 : 2),
            "16-byte weight chunks per lane and row in flight per step");
  SmallVector<int64_t> threads;
  for (int64_t t : threadCounts(target))
    if (t <= 512)
      threads.push_back(t);
  space.add(kThreads, threads, std::min<int64_t>(256, threads.back()),
            "threads per workgroup (each wave its own weight rows)");
  return space;
}

LogicalResult MatmulW4A16Op::verifyScheduleConstraints(
    const ResolvedSchedule &resolved, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  MatmulW4A16Schedule s = MatmulW4A16Schedule::decode(resolved);
  if (s.tileM * s.rowsPerWave > kMaxAccumulators)
    return emitError() << "schedule knobs '" << kTileM.name << "' x '"
                       << kRowsPerWave.name << "' = " << s.tileM << " x "
                       << s.rowsPerWave << " accumulators per lane, expected "
                       << "at most " << kMaxAccumulators;
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
