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
/// Workgroups sharing one query tile, each over 1 / kv_split of the
/// key/value blocks (flash-decoding); their partial O, row max and row sum
/// meet in a workspace (AttentionSplitKv.cpp).
inline constexpr IntKnob kKvSplit{"kv_split"};
/// Grouped-query attention: the Hq / Hkv query heads that share a key/value
/// head are the rows of one query tile (a decode step's few tokens per head
/// fill the 16-row tiles), so that each key/value block is read once per
/// key/value head.
inline constexpr BoolKnob kPackGqa{"pack_gqa"};

/// Warpgroup MMA (mma = wgmma_*): S of each key/value block in two wgmma
/// groups (its halves), so that the first half's softmax runs while the
/// second half's MMAs do and the second half's while the first half's
/// P V does (AttentionWgmma.cpp). Only in the space where wgmma is.
inline constexpr BoolKnob kWgmmaOverlap{"wgmma_overlap"};
/// Warpgroup MMA (mma = wgmma_*): the key loop software-pipelined across
/// blocks (FlashAttention-3's intra-warpgroup overlap): once block kb's S
/// and its row maxima are known, block kb - 1's O += P V is issued and
/// block kb's exponentials run while it does. P stays in registers from one
/// block to the next, and V takes stages + 1 LDS buffers (block kb - 1's is
/// still read while block kb + 1's is copied). Excludes wgmma_overlap.
inline constexpr BoolKnob kWgmmaPipeline{"wgmma_pipeline"};

/// hkg.attention: `tile_q` query rows of one head per workgroup, key/value
/// blocks of `tile_kv` rows through `stages` LDS buffers.
struct AttentionSchedule {
  int64_t tileQ;
  int64_t tileKv;
  int64_t waves;
  MmaInstruction mma;
  int64_t stages;
  int64_t kvSplit;
  bool packGqa;
  /// wgmma_overlap = 1 (0, or no such knob).
  bool wgmmaOverlap;
  /// wgmma_pipeline = 1 (0, or no such knob).
  bool wgmmaPipeline;

  static AttentionSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kTileQ),
            s.get(kTileKv),
            s.get(kWaves),
            MmaInstruction::parse(s.get(kMma)),
            s.get(kStages),
            s.get(kKvSplit),
            s.get(kPackGqa),
            s.getOr(kWgmmaOverlap, false),
            s.getOr(kWgmmaPipeline, false)};
  }

  /// Bytes of one workgroup's partial in the kv_split workspace: per query
  /// row its O (Dv rounded up to whole 8-column tiles) and, per lane of the
  /// row's quad, its row max and partial row sum, in f32.
  /// LDS buffers of V: one more than `stages` when the key loop is
  /// pipelined (wgmma_pipeline).
  int64_t valueStages() const { return stages + (wgmmaPipeline ? 1 : 0); }

  static int64_t partialBytes(int64_t tileQ, int64_t dv) {
    return tileQ * (8 * ((dv + 7) / 8) + 8) * 4;
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_ATTENTIONSCHEDULE_H
