//===- AttentionSchedule.h - schedule of hkg.attention ----------*- C++ -*-===//
//
// The typed schedule of hkg.attention: its knobs, declared once
// (AttentionSchedule.cpp builds the space with them, Attention.cpp reads the
// decoded struct). `mma` and `stages` are the matmul's knobs
// (MatmulSchedule.h): the same keyword parser, the same meaning.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_ATTENTIONSCHEDULE_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_ATTENTIONSCHEDULE_H

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"

namespace mlir::hkg {

/// Query rows per workgroup.
inline constexpr IntKnob kTileQ{"tile_q"};
/// Key/value rows per step of the key loop.
inline constexpr IntKnob kTileKv{"tile_kv"};
/// Waves per workgroup, each owning tile_q / waves query rows.
inline constexpr IntKnob kWaves{"waves"};

/// hkg.attention: `tile_q` query rows of one head per workgroup, key/value
/// blocks of `tile_kv` rows through `stages` LDS buffers.
struct AttentionSchedule {
  int64_t tileQ;
  int64_t tileKv;
  int64_t waves;
  MmaInstruction mma;
  int64_t stages;

  static AttentionSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kTileQ), s.get(kTileKv), s.get(kWaves),
            MmaInstruction::parse(s.get(kMma)), s.get(kStages)};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_ATTENTIONSCHEDULE_H
