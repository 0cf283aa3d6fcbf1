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

namespace mlir::hkg {

/// Weight rows (output columns) each wave streams at once.
inline constexpr IntKnob kRowsPerWave{"rows_per_wave"};

/// Bytes of packed weights one lane loads per access: 32 int4 values, all
/// in one quantization group (groups are 32, 64 or 128 long).
inline constexpr int64_t kW4A16ChunkBytes = 16;
inline constexpr int64_t kW4A16ChunkValues = 2 * kW4A16ChunkBytes;

/// hkg.matmul_w4a16 as a weight-streaming kernel: each wave owns
/// `rowsPerWave` weight rows and walks their K, each lane dequantizing
/// 16-byte chunks (32 int4 values) in registers and multiplying them with
/// `tileM` activation rows (f32 FMAs); `unroll` chunks a lane per row in
/// flight; `threads` per workgroup. A grid row per tile of `tileM`
/// activation rows.
struct MatmulW4A16Schedule {
  int64_t tileM;
  int64_t rowsPerWave;
  int64_t unroll;
  int64_t threads;

  static MatmulW4A16Schedule decode(const ResolvedSchedule &s) {
    return {s.get(kTileM), s.get(kRowsPerWave), s.get(kUnroll),
            s.get(kThreads)};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_MATMULW4A16SCHEDULE_H
