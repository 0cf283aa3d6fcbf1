//===- AttentionSplitKv.h - kv_split's combine of attention -----*- C++ -*-===//
//
// The combine step of flash-decoding (AttentionSplitKv.cpp), called by the
// attention kernel (Attention.cpp) after its key loop when kv_split > 1.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_ATTENTIONSPLITKV_H
#define HKG_LIB_CONVERSION_HKGTOGPU_ATTENTIONSPLITKV_H

#include "GPUBuildingBlocks.h"

namespace mlir::hkg {

/// The attention kernel's per-lane state after its key loop: rowGroups x nd
/// vectors of O (perTile f32 each; elements [r perTile / rowsPerLane,
/// (r + 1) perTile / rowsPerLane) of a vector are row r of the lane's rows:
/// in the m16n8 accumulator layout 2r and 2r + 1), then rowGroups x
/// rowsPerLane row maxima m (-inf for a row that saw no key; in the log2
/// domain, or with a mask in natural units: `mToLog2` converts their
/// differences), then as many partial row sums l (this lane's share of its
/// row).
struct AttentionLaneLayout {
  int64_t rowGroups;
  int64_t nd;
  int64_t perTile;
  int64_t rowsPerLane;
  /// Threads of the workgroup.
  int64_t threads;
  /// The factor that takes a difference of m to the log2 domain: 1, or
  /// log2(e) when m is in natural units.
  double mToLog2 = 1.0;
};

/// kv_split > 1: the `kvSplit` workgroups of query tile `tileIndex` (of
/// `numTiles`), this one split `split`, each hold the softmax state of
/// their share of the key/value blocks (`state`, laid out as `layout`
/// says). Each publishes it to a workspace (a global of the kernel's
/// module) and counts its arrival; the last to arrive combines the splits'
/// partials, in split order, into the state of the whole key sequence and
/// calls `store` with it (in that workgroup only). Rows where
/// rowValid(group, row) is false (a partial query tile's rows past the
/// last; null: always valid) are neither published nor combined.
void combineKvSplitsAndStore(KernelContext &kc,
                             const AttentionLaneLayout &layout, Value tid,
                             Value tileIndex, int64_t numTiles, Value split,
                             int64_t kvSplit, ArrayRef<Value> state,
                             function_ref<Value(int64_t, int64_t)> rowValid,
                             function_ref<void(ArrayRef<Value>)> store);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_ATTENTIONSPLITKV_H
