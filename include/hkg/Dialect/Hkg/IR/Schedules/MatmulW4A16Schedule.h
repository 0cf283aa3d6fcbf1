//===- MatmulW4A16Schedule.h - the schedule of hkg.matmul_w4a16 -*- C++ -*-===//
//
// The typed schedule of hkg.matmul_w4a16: its knobs, declared once
// (Schedules/MatmulW4A16Schedule.cpp builds the space with them, the
// lowering in lib/Conversion/HkgToGPU/MatmulW4A16.cpp reads the decoded
// struct).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_MATMULW4A16SCHEDULE_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_MATMULW4A16SCHEDULE_H

#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"
#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

namespace mlir::hkg {

/// Weight rows (output columns) each wave streams at once.
inline constexpr IntKnob kRowsPerWave{"rows_per_wave"};

/// Bytes of packed weights one lane loads per access: 32 int4 values, all
/// in one quantization group (groups are 32, 64 or 128 long).
inline constexpr int64_t kW4A16ChunkBytes = 16;
inline constexpr int64_t kW4A16ChunkValues = 2 * kW4A16ChunkBytes;

/// The matrix-core instruction names the W4A16 matrix-core kernel builds
/// (MatmulW4A16MatrixCore.cpp) on `target`, the weights as the
/// instruction's A operand: mma.sync m16n8k16 (NVIDIA sm_80+), MFMA 16x16x16
/// (CDNA) and WMMA 16x16x16 (gfx1200 / gfx1201); empty elsewhere (gfx11's
/// WMMA replicates its operands across the half-waves, gfx1250's is
/// 16x16x32: not built).
llvm::SmallVector<llvm::StringRef>
w4a16MatrixCoreInstructions(const TargetInfo &target);

/// Lanes of a wave that share one weight row of an instruction tile along
/// K in the matrix-core kernel (each loads its own 16-byte chunk): 4 for
/// mma.sync (lane % 4), wave / 16 for MFMA and gfx12 WMMA (lane / 16).
inline int64_t w4a16KGroups(const MmaInstruction &mma, int64_t waveSize) {
  return mma.family == MmaFamily::MmaSync ? 4 : waveSize / 16;
}
/// K values a wave consumes per span (one 16-byte chunk per lane and row).
inline int64_t w4a16SpanValues(const MmaInstruction &mma, int64_t waveSize) {
  return w4a16KGroups(mma, waveSize) * kW4A16ChunkValues;
}
/// f32 accumulator elements per lane of one instruction tile.
inline int64_t w4a16AccPerInstruction(const MmaInstruction &mma,
                                      int64_t waveSize) {
  return mma.m * mma.n / waveSize;
}

/// hkg.matmul_w4a16's schedule. Two kernels (docs/Matmul.md, "W4A16"):
///
/// - `mma = none`: weight streaming with f32 FMAs. Each wave owns
///   `rowsPerWave` weight rows and walks their K, each lane dequantizing
///   16-byte chunks (32 int4 values) in registers and multiplying them with
///   `tileM` activation rows; `unroll` chunks a lane per row in flight;
///   `threads` per workgroup. A grid row per tile of `tileM` activation
///   rows.
/// - `mma` = an instruction of w4a16MatrixCoreInstructions: each wave owns
///   `rowsPerWave` weight rows (a multiple of 16) times `tileM` activation
///   rows (a multiple of the instruction's N) and multiplies the weights,
///   dequantized into the instruction's A fragments, with the activations
///   as B; `unroll` K spans (a 16-byte chunk per lane and row) in flight per
///   step; `splitK` workgroups along K meet in a global workspace.
struct MatmulW4A16Schedule {
  int64_t tileM;
  int64_t rowsPerWave;
  int64_t unroll;
  int64_t threads;
  MmaInstruction mma;
  int64_t splitK;

  static MatmulW4A16Schedule decode(const ResolvedSchedule &s) {
    return {s.get(kTileM),
            s.get(kRowsPerWave),
            s.get(kUnroll),
            s.get(kThreads),
            MmaInstruction::parse(s.get(kMma)),
            s.get(kSplitK)};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_MATMULW4A16SCHEDULE_H
