//===- MatmulAMDMatrixCore.cpp - matmul on AMD matrix cores ---------------===//
//
// See MatmulAMDMatrixCore.h.
//
//===----------------------------------------------------------------------===//

#include "MatmulAMDMatrixCore.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

SmallVector<Value> AMDMatrixCore::initAccumulators() {
  int64_t wtm = t.tm / t.wm, wtn = t.tn / t.wn;
  int64_t perLane = t.mmaM * t.mmaN / t.waveSize;
  auto vt = VectorType::get({perLane}, t.accT);
  SmallVector<Value> acc;
  for (int64_t i = 0; i < (wtm / t.mmaM) * (wtn / t.mmaN); ++i)
    acc.push_back(arith::ConstantOp::create(b, loc, vt, b.getZeroAttr(vt)));
  return acc;
}

SmallVector<Value> AMDMatrixCore::computeStage(Value stage, ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  int64_t mt = (t.tm / t.wm) / t.mmaM, nt = (t.tn / t.wn) / t.mmaN;
  auto [kLane, kPer] = laneK();
  Value rowLane = rem(t.lane, t.mmaM), colLane = rem(t.lane, t.mmaN);
  for (int64_t kk = 0; kk < t.tk; kk += t.mmaK) {
    Value k0 = add(kLane, kk);
    SmallVector<Value> aFrag, bFrag;
    for (int64_t i = 0; i < mt; ++i)
      aFrag.push_back(t.loadAlongK(t.ldsA, t.transA == t.ldsA.transposed, stage,
                                   add(add(t.waveRow, i * t.mmaM), rowLane), k0,
                                   kPer));
    for (int64_t jn = 0; jn < nt; ++jn)
      bFrag.push_back(t.loadAlongK(t.ldsB, t.transB != t.ldsB.transposed, stage,
                                   add(add(t.waveCol, jn * t.mmaN), colLane),
                                   k0, kPer));
    for (int64_t i = 0; i < mt; ++i)
      for (int64_t jn = 0; jn < nt; ++jn) {
        Value &accV = acc[i * nt + jn];
        accV = multiply(aFrag[i], bFrag[jn], accV);
      }
  }
  return acc;
}

void AMDMatrixCore::forEachResultRun(ValueRange acc, ResultRunFn fn) {
  int64_t nt = (t.tn / t.wn) / t.mmaN;
  int64_t perLane = t.mmaM * t.mmaN / t.waveSize;
  Value colLane = rem(t.lane, t.mmaN);
  Value g = div(t.lane, t.mmaN);
  for (auto [idx, v] : llvm::enumerate(acc)) {
    int64_t i = idx / nt, jn = idx % nt;
    Value tileRow = add(t.waveRow, i * t.mmaM);
    Value col = add(add(t.waveCol, jn * t.mmaN), colLane);
    for (int64_t e = 0; e < perLane; ++e) {
      Value r = resultRow(g, e);
      fn(add(tileRow, r), col,
         {vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e})});
    }
  }
}
