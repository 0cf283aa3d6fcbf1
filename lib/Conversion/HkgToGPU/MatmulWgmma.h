//===- MatmulWgmma.h - matmul inner product with warpgroup MMA --*- C++ -*-===//
//
// The wgmma family of the matmul kernel (MatmulWgmma.cpp), and the hook
// through which 3xTF32 (MatmulWgmmaTf32x3.cpp) names the LDS tiles each of
// a step's products reads.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_MATMULWGMMA_H
#define HKG_LIB_CONVERSION_HKGTOGPU_MATMULWGMMA_H

#include "MatmulTilePipeline.h"

namespace mlir::hkg::matmul {

class WgmmaCore : public MatrixCore {
public:
  using MatrixCore::MatrixCore;

  /// wgmma's 128-byte swizzle repeats every 1024 bytes.
  int64_t ldsAlignment() const override { return 1024; }
  /// An MN-major B ([K, N]) in 128-byte-wide panels.
  int64_t panelColsOfB() const override {
    return t.transB ? 0 : 128 / t.elemBytes;
  }
  void placeWave(Value wave) override;
  SmallVector<Value> initAccumulators() override;
  SmallVector<Value> computeStage(Value stage, ValueRange acc) override;
  void forEachResultRun(ValueRange acc, ResultRunFn fn) override;
  void afterKLoopUnrolled(ArrayRef<scf::ForOp> loops) override;
  /// wgmma reads LDS through the async proxy: this thread's cp.async
  /// writes become visible to it before the barrier.
  void beforeStageBarrier() override;
  /// With wgmma_pending = 1 the last step's MMAs are still in flight.
  SmallVector<Value> finishKLoop(SmallVector<Value> acc) override;

protected:
  /// The operands of one product of a step: the shared addresses (i64) of
  /// this warpgroup's first row of its A tile and of its B tile (K-major
  /// 128-byte rows, or with `bMnMajor` B's panels of 128-byte rows).
  struct Operands {
    Value a, b;
    bool bMnMajor = false;
  };
  /// The products of stage `stage`, summed in this order for each
  /// instruction K: the stage's A and B tiles.
  virtual SmallVector<Operands> stageOperands(Value stage);
  /// The shared address (i64) of row `row` of stage `stage` of the LDS
  /// buffer `buf` of `rows` 128-byte rows per stage.
  Value rowAddress(Value buf, Value stage, int64_t rows, Value row);

  /// The warpgroup's first row and column in the tile.
  Value wgRow, wgCol;

private:
  /// The LLVM struct of the thread's wgmma accumulators.
  Type wgmmaAccType();
  /// Inline PTX `text` that reads and rewrites the accumulator struct `acc`
  /// in place (its registers tied), so that nothing moves the accumulators
  /// across it: wgmma.fence / wait_group.
  Value accumulatorAsm(StringRef text, Value acc);
  /// running + step, element by element (f32, round to nearest).
  Value addStepSum(Value running, Value step);
};

} // namespace mlir::hkg::matmul

#endif // HKG_LIB_CONVERSION_HKGTOGPU_MATMULWGMMA_H
