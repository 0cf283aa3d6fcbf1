//===- MatmulMmaSync.h - the mma.sync families' accumulators ----*- C++ -*-===//
//
// What the two mma.sync families of the matmul kernel share: a warp tile of
// m16 x n8 tiles, one vector<4xf32> accumulator each in mma.sync's C layout
// (c0, c1 at row lane / 4, columns 2 (lane % 4) + {0, 1}; c2, c3 8 rows
// below), the same for m16n8k16 on 16-bit operands (MatmulMmaSync.cpp) and
// m16n8k8 on tf32 (MatmulMmaSyncTf32x3.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_MATMULMMASYNC_H
#define HKG_LIB_CONVERSION_HKGTOGPU_MATMULMMASYNC_H

#include "MatmulTilePipeline.h"

namespace mlir::hkg::matmul {

/// The accumulators of an mma.sync warp tile; the family supplies the
/// inner product.
class MmaSyncTileCore : public MatrixCore {
public:
  using MatrixCore::MatrixCore;

  SmallVector<Value> initAccumulators() override;
  void forEachResultRun(ValueRange acc, ResultRunFn fn) override;

protected:
  /// m16 tiles along M and n8 tiles along N of the warp tile; accumulator
  /// i * nTiles() + j is m16 tile i, n8 tile j.
  int64_t mTiles() const { return (t.tm / t.wm) / 16; }
  int64_t nTiles() const { return (t.tn / t.wn) / 8; }
};

} // namespace mlir::hkg::matmul

#endif // HKG_LIB_CONVERSION_HKGTOGPU_MATMULMMASYNC_H
