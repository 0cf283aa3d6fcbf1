//===- MatmulMmaSync.cpp - matmul inner product with mma.sync -------------===//
//
// mma = mma_16x8x16 (NVIDIA sm_80+): each wave's warp tile is m16 x n8
// tiles, one vector<4xf32> accumulator each (MatmulMmaSync.h, shared with
// the 3xTF32 family). The A and B fragments come from LDS by nvgpu.ldmatrix
// (x4 / x2, .trans for an operand whose LDS rows run along M or N) and feed
// m16n8k16 (MatrixCore.h).
//
//===----------------------------------------------------------------------===//

#include "MatmulMmaSync.h"
#include "MatrixCore.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

namespace {

class MmaSyncCore final : public MmaSyncTileCore {
public:
  using MmaSyncTileCore::MmaSyncTileCore;

  SmallVector<Value> computeStage(Value stage, ValueRange acc) override;

private:
  /// ldmatrix: lane l gives the row address of 8x8 matrix l / 8 = j, row
  /// l % 8 = r8 of it; jLow = j % 2, jHigh = j / 2.
  struct LdMatrixLane {
    Value r8, j, jLow, jHigh;
  };
  /// The A fragments (ldmatrix.x4) of the warp tile's m16 tiles at K offset
  /// kk of the stage.
  SmallVector<Value> loadAFragments(const LdMatrixLane &l, Value stage,
                                    int64_t kk);
  /// The B fragments of its n8 tiles, two per ldmatrix.x4.
  SmallVector<Value> loadBFragments(const LdMatrixLane &l, Value stage,
                                    int64_t kk);
};

} // namespace

SmallVector<Value> MmaSyncTileCore::initAccumulators() {
  // vector<4xf32> per m16n8 tile (1-D: n-D loop-carried vectors do not
  // convert to LLVM).
  auto vt = VectorType::get({4}, b.getF32Type());
  SmallVector<Value> acc;
  for (int64_t i = 0; i < mTiles() * nTiles(); ++i)
    acc.push_back(arith::ConstantOp::create(b, loc, vt, b.getZeroAttr(vt)));
  return acc;
}

void MmaSyncTileCore::forEachResultRun(ValueRange acc, ResultRunFn fn) {
  auto extract = [&](Value v, ArrayRef<int64_t> pos) -> Value {
    return vector::ExtractOp::create(b, loc, v, pos);
  };
  int64_t nt = nTiles();
  Value g = div(t.lane, 4), t2 = mul(rem(t.lane, 4), 2);
  for (auto [idx, v] : llvm::enumerate(acc)) {
    int64_t i = idx / nt, jn = idx % nt;
    Value row = add(add(t.waveRow, i * 16), g);
    Value col = add(add(t.waveCol, jn * 8), t2);
    for (int64_t h = 0; h < 2; ++h)
      fn(add(row, h * 8), col, {extract(v, {2 * h}), extract(v, {2 * h + 1})});
  }
}

SmallVector<Value> MmaSyncCore::loadAFragments(const LdMatrixLane &l,
                                               Value stage, int64_t kk) {
  int64_t mt = mTiles();
  Value r8 = l.r8, jLow = l.jLow, jHigh = l.jHigh;
  auto aType = VectorType::get({4, 2}, t.elemT);
  SmallVector<Value> aFrag;
  for (int64_t i = 0; i < mt; ++i) {
    Value mBase = add(t.waveRow, i * 16);
    // Matrices: (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15),
    // (m 8-15, k 8-15).
    Value row, col;
    if (!t.transA) {
      row = add(add(mBase, r8), mul(jLow, 8));
      col = add(mul(jHigh, 8), kk);
    } else {
      row = add(add(c(kk), r8), mul(jHigh, 8));
      col = add(mBase, mul(jLow, 8));
    }
    aFrag.push_back(nvgpu::LdMatrixOp::create(
        b, loc, aType, t.ldsA.buf,
        ValueRange{stage, row, t.physCol(t.ldsA, row, col)}, t.transA, 4));
  }
  return aFrag;
}

SmallVector<Value> MmaSyncCore::loadBFragments(const LdMatrixLane &l,
                                               Value stage, int64_t kk) {
  int64_t nt = nTiles();
  Value r8 = l.r8, j = l.j, jLow = l.jLow, jHigh = l.jHigh;
  auto bPairType = VectorType::get({4, 2}, t.elemT);
  auto bType = VectorType::get({2, 2}, t.elemT);
  SmallVector<Value> bFrag;
  for (int64_t jn = 0; jn < nt; jn += 2) {
    Value nBase = add(t.waveCol, jn * 8);
    bool pair = jn + 1 < nt;
    // Matrices: (n 0-7, k 0-7), (n 0-7, k 8-15) [, (n 8-15, k 0-7),
    // (n 8-15, k 8-15)].
    Value jl = pair ? jLow : rem(j, 2);
    Value jh = pair ? jHigh : c(0);
    Value row, col;
    if (t.transB) {
      row = add(add(nBase, r8), mul(jh, 8));
      col = add(mul(jl, 8), kk);
    } else {
      row = add(add(c(kk), r8), mul(jl, 8));
      col = add(nBase, mul(jh, 8));
    }
    Value v = nvgpu::LdMatrixOp::create(
        b, loc, pair ? bPairType : bType, t.ldsB.buf,
        ValueRange{stage, row, t.physCol(t.ldsB, row, col)}, !t.transB,
        pair ? 4 : 2);
    if (!pair) {
      bFrag.push_back(v);
      continue;
    }
    auto [first, second] = splitLdMatrixX4(b, loc, v);
    bFrag.push_back(first);
    bFrag.push_back(second);
  }
  return bFrag;
}

SmallVector<Value> MmaSyncCore::computeStage(Value stage, ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  int64_t mt = mTiles(), nt = nTiles();
  LdMatrixLane l;
  l.r8 = rem(t.lane, 8);
  l.j = div(t.lane, 8);
  l.jLow = rem(l.j, 2);
  l.jHigh = div(l.j, 2);
  for (int64_t kk = 0; kk < t.tk; kk += 16) {
    SmallVector<Value> aFrag = loadAFragments(l, stage, kk);
    SmallVector<Value> bFrag = loadBFragments(l, stage, kk);
    for (int64_t i = 0; i < mt; ++i)
      for (int64_t jn = 0; jn < nt; ++jn) {
        Value &accV = acc[i * nt + jn];
        accV = mmaSyncM16N8K16(b, loc, aFrag[i], bFrag[jn], accV);
      }
  }
  return acc;
}

std::unique_ptr<MatrixCore>
mlir::hkg::matmul::createMmaSyncCore(KernelState &t) {
  return std::make_unique<MmaSyncCore>(t);
}
