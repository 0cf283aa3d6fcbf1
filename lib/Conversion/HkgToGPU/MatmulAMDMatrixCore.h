//===- MatmulAMDMatrixCore.h - matmul on AMD matrix cores -------*- C++ -*-===//
//
// What MFMA (CDNA) and WMMA (RDNA) share in the matmul kernel: each lane
// reads its documented operand fragments from LDS with vector loads along K
// (the LDS tiles hold K contiguous), the wave's warp tile is M x N
// instruction tiles with one vector<M * N / wave size x f32> accumulator
// each. MatmulMFMA.cpp and MatmulWMMA.cpp supply the operand and result
// layouts and the instruction.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_MATMULAMDMATRIXCORE_H
#define HKG_LIB_CONVERSION_HKGTOGPU_MATMULAMDMATRIXCORE_H

#include "MatmulTilePipeline.h"

namespace mlir::hkg::matmul {

class AMDMatrixCore : public MatrixCore {
public:
  using MatrixCore::MatrixCore;

  bool wantsKContiguousLds() const override { return true; }
  SmallVector<Value> initAccumulators() override;
  SmallVector<Value> computeStage(Value stage, ValueRange acc) override;
  void forEachResultRun(ValueRange acc, ResultRunFn fn) override;

protected:
  /// This lane's first K index in an instruction's K (`kLane`) and the K
  /// values it holds (`kPer`) of each operand fragment.
  struct LaneK {
    Value kLane;
    int64_t kPer;
  };
  virtual LaneK laneK() = 0;
  /// One instruction: acc += a x b.
  virtual Value multiply(Value a, Value b, Value acc) = 0;
  /// The row in its instruction tile of accumulator element `e` of this
  /// lane, `g` = lane / N.
  virtual Value resultRow(Value g, int64_t e) = 0;
};

} // namespace mlir::hkg::matmul

#endif // HKG_LIB_CONVERSION_HKGTOGPU_MATMULAMDMATRIXCORE_H
