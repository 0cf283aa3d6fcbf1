//===- MatmulFMA.cpp - matmul inner product with FMAs ---------------------===//
//
// mma = none (every target, every float type): the lanes of a wave form a
// ly x lx grid over its warp tile (8 x 8 on wave64, 4 x 8 on wave32); a lane
// owns rows r0 + i * ly and the contiguous columns c0 .. c0 + rn of it, one
// vector<rn x f32> accumulator per row, and each K step is rank-1 updates
// (vector.fma) of A's column and B's row read from LDS. 8-bit float
// operands are widened to f32 (Float8.h); i8 operands are sign-extended and
// multiplied and added in i32 (exact).
//
//===----------------------------------------------------------------------===//

#include "Float8.h"
#include "MatmulTilePipeline.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

namespace {

class FmaCore final : public MatrixCore {
public:
  using MatrixCore::MatrixCore;

  SmallVector<Value> initAccumulators() override;
  SmallVector<Value> computeStage(Value stage, ValueRange acc) override;
  void forEachResultRun(ValueRange acc, ResultRunFn fn) override;

private:
  /// `v` (an element or vector of operand elements) in the accumulators'
  /// type.
  Value widen(Value v);
  /// Lanes of a wave as rows x columns of FMA micro-tiles.
  std::pair<int64_t, int64_t> laneGrid() const {
    return t.waveSize == 64 ? std::make_pair<int64_t, int64_t>(8, 8)
                            : std::make_pair<int64_t, int64_t>(4, 8);
  }
};

} // namespace

SmallVector<Value> FmaCore::initAccumulators() {
  int64_t wtm = t.tm / t.wm, wtn = t.tn / t.wn;
  auto [ly, lx] = laneGrid();
  auto vt = VectorType::get({wtn / lx}, t.accT);
  SmallVector<Value> acc;
  for (int64_t i = 0; i < wtm / ly; ++i)
    acc.push_back(arith::ConstantOp::create(b, loc, vt, b.getZeroAttr(vt)));
  return acc;
}

Value FmaCore::widen(Value v) {
  Type elemT = t.elemT;
  if (elemT == t.accT)
    return v;
  Type to = t.accT;
  if (auto vt = dyn_cast<VectorType>(v.getType()))
    to = VectorType::get(vt.getShape(), t.accT);
  if (elemT.isInteger(8))
    return arith::ExtSIOp::create(b, loc, to, v);
  if (elemT.getIntOrFloatBitWidth() == 8)
    return extendFloat8ToF32(b, loc, v);
  return arith::ExtFOp::create(b, loc, to, v);
}

SmallVector<Value> FmaCore::computeStage(Value stage, ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  auto [ly, lx] = laneGrid();
  int64_t rm = (t.tm / t.wm) / ly, rn = (t.tn / t.wn) / lx;
  Value laneY = div(t.lane, lx), laneX = rem(t.lane, lx);
  Value rowBase = add(t.waveRow, laneY);
  Value colBase = add(t.waveCol, mul(laneX, rn));
  Type elemT = t.elemT;
  auto accType = VectorType::get({rn}, t.accT);
  bool integer = t.accT.isInteger(32);
  for (int64_t kk = 0; kk < t.tk; ++kk) {
    Value kv = c(kk);
    // B(kk, colBase .. colBase + rn), widened to f32.
    Value bRow;
    if (t.transB) {
      SmallVector<Value> elems;
      for (int64_t j = 0; j < rn; ++j)
        elems.push_back(t.loadLds(t.ldsB, stage, add(colBase, j), kv, 1));
      bRow = vector::FromElementsOp::create(
          b, loc, VectorType::get({rn}, elemT), elems);
    } else {
      bRow = t.loadAlongK(t.ldsB, /*kContiguous=*/true, stage, kv, colBase, rn);
    }
    // One column per lane (rn = 1) loads a scalar.
    if (!isa<VectorType>(bRow.getType()))
      bRow = vector::FromElementsOp::create(
          b, loc, VectorType::get({rn}, elemT), ValueRange{bRow});
    bRow = widen(bRow);
    for (int64_t i = 0; i < rm; ++i) {
      Value row = add(rowBase, i * ly);
      Value a = t.transA ? t.loadLds(t.ldsA, stage, kv, row, 1)
                         : t.loadLds(t.ldsA, stage, row, kv, 1);
      a = widen(a);
      Value aSplat = vector::BroadcastOp::create(b, loc, accType, a);
      if (integer)
        acc[i] = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, aSplat, bRow), acc[i]);
      else
        acc[i] = vector::FMAOp::create(b, loc, aSplat, bRow, acc[i]);
    }
  }
  return acc;
}

void FmaCore::forEachResultRun(ValueRange acc, ResultRunFn fn) {
  auto [ly, lx] = laneGrid();
  int64_t rn = (t.tn / t.wn) / lx;
  Value rowBase = add(t.waveRow, div(t.lane, lx));
  Value col = add(t.waveCol, mul(rem(t.lane, lx), rn));
  for (auto [i, v] : llvm::enumerate(acc)) {
    SmallVector<Value> vals;
    for (int64_t jj = 0; jj < rn; ++jj)
      vals.push_back(
          vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{jj}));
    fn(add(rowBase, static_cast<int64_t>(i) * ly), col, vals);
  }
}

std::unique_ptr<MatrixCore> mlir::hkg::matmul::createFmaCore(KernelState &t) {
  return std::make_unique<FmaCore>(t);
}
