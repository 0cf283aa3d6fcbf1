//===- MatmulMmaSyncTf32x3.cpp - f32 matmul on tf32 mma.sync (3xTF32) -----===//
//
// mma = mma_16x8x8_tf32x3 (NVIDIA sm_80+, f32 operands): f32 products on
// tf32 tensor cores at about f32's accuracy. Each operand element x is split
// into big = tf32(x) (cvt.rna.tf32.f32: round to nearest, ties away) and
// small = tf32(x - big) (x - big is exact in f32: a multiple of x's f32 ulp
// below 2^12 of them), or, with tf32_split = fast, big by an integer add
// and mask and small truncated (4 instructions an element instead of 9;
// ptxas expands each cvt.rna.tf32.f32 to 4, its inf / NaN guard
// included); each m16 x n8 x k8 product is three mma.sync
// m16n8k8 .tf32 into the f32 accumulator, the small terms first:
// a_small b_big, a_big b_small, then a_big b_big. a_small b_small (below
// 2^-22 |a b|) is left out. docs/Matmul.md ("3xTF32") bounds the error.
//
// The accumulators are the mma.sync warp tile's (MatmulMmaSync.h). The
// fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8", .tf32; g = lane /
// 4, t = lane % 4): A a0 (row g, k t), a1 (row g + 8, k t), a2 (row g,
// k t + 4), a3 (row g + 8, k t + 4); B b0 (k t, column g), b1 (k t + 4,
// column g). Each element is one 4-byte LDS load (ldmatrix's .trans moves
// 16-bit elements), split in registers: per k8 a warp tile of mt x nt
// tiles loads and splits 4 mt + 2 nt values per lane for 3 mt nt MMAs.
//
// LDS layout: with lds_swizzle = 1 and lds_pad = 0 (the defaults) every
// fragment load is free of bank conflicts. One load of a K-contiguous tile
// (A as [M, K], B as [N, K]) reads 8 rows (g) x 4 K columns (t): one
// 16-byte chunk per row, which the XOR swizzle puts in 8 distinct bank
// groups. One load of a tile whose rows run along K (B as [K, N], A as
// [K, M]) reads 4 K rows (t) x 8 columns (g), two 16-byte chunks c, c + 1
// per row: the swizzle phases of 4 consecutive rows, 0..3, map the pair
// onto the same 4 chunks (2-way conflicts). So those tiles keep their K
// rows interleaved in LDS (LdsTile::kRowsInterleaved: K rows r and r + 4 of
// each 8 on adjacent rows 2r, 2r + 1, the copies write them there): the 4
// rows of one load are LDS rows of one parity, phases {0, 2, 4, 6} or
// {1, 3, 5, 7}, which keep c and c + 1 apart (8 distinct bank groups; for
// rows of at least 32 floats, where the swizzle has 8 phases). lds_pad = 4
// without the swizzle (the FMA kernel's layout) is conflict-free too: rows
// 4 banks apart, and the interleaved K rows of a load 2 rows, 8 banks,
// apart.
//
//===----------------------------------------------------------------------===//

#include "MatmulMmaSync.h"
#include "MatrixCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

namespace {

/// A fragment's tf32 terms: vector<len x 1 x f32> each.
struct SplitFragment {
  Value big, small;
};

class MmaSyncTf32x3Core final : public MmaSyncTileCore {
public:
  using MmaSyncTileCore::MmaSyncTileCore;

  bool interleavesKRows() const override { return true; }
  SmallVector<Value> computeStage(Value stage, ValueRange acc) override;

private:
  /// Element (mn, k) of an operand tile of `stage`; `kRows`: the tile's
  /// rows run along K.
  Value loadElement(const LdsTile &tile, bool kRows, Value stage, Value mn,
                    Value k);
  /// The fragment of f32 values `xs` as its two tf32 terms.
  SplitFragment split(ArrayRef<Value> xs);
  /// The A fragments of the warp tile's m16 tiles, the B fragments of its
  /// n8 tiles, at K offset kk of the stage; lane coordinates g and t.
  SmallVector<SplitFragment> loadAFragments(Value stage, Value g, Value tq,
                                            int64_t kk);
  SmallVector<SplitFragment> loadBFragments(Value stage, Value g, Value tq,
                                            int64_t kk);
};

} // namespace

Value MmaSyncTf32x3Core::loadElement(const LdsTile &tile, bool kRows,
                                     Value stage, Value mn, Value k) {
  auto [row, col] = kRows ? t.ldsIndex(tile, k, mn) : t.ldsIndex(tile, mn, k);
  return memref::LoadOp::create(b, loc, tile.buf, ValueRange{stage, row, col});
}

/// tf32(x) in an f32 register: x rounded to 10 fraction bits, to nearest
/// with ties away from zero (cvt.rna.tf32.f32), the low 13 bits zero.
static Value roundToTf32(OpBuilder &b, Location loc, Value x) {
  Value bits = NVVM::ConvertFloatToTF32Op::create(
      b, loc, b.getI32Type(), x, NVVM::FPRoundingMode::RNA,
      NVVM::SaturationMode::NONE, /*relu=*/false);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

SplitFragment MmaSyncTf32x3Core::split(ArrayRef<Value> xs) {
  SmallVector<Value> big, small;
  for (Value x : xs) {
    // rna: both rounded; fast: big rounded, small truncated; trunc: big
    // truncated, small rounded (by an add and mask).
    Value hi = t.tf32Split == Tf32Split::Rna
                   ? roundToTf32(b, loc, x)
                   : maskToTf32(b, loc, x,
                                t.tf32Split == Tf32Split::Fast ? 0x1000 : 0);
    big.push_back(hi);
    Value lo = arith::SubFOp::create(b, loc, x, hi);
    small.push_back(
        t.tf32Split == Tf32Split::Rna
            ? roundToTf32(b, loc, lo)
            : maskToTf32(b, loc, lo,
                         t.tf32Split == Tf32Split::Trunc ? 0x1000 : 0));
  }
  auto type =
      VectorType::get({static_cast<int64_t>(xs.size()), 1}, b.getF32Type());
  return {vector::FromElementsOp::create(b, loc, type, big),
          vector::FromElementsOp::create(b, loc, type, small)};
}

SmallVector<SplitFragment>
MmaSyncTf32x3Core::loadAFragments(Value stage, Value g, Value tq, int64_t kk) {
  Value k0 = add(tq, kk), k1 = add(tq, kk + 4);
  SmallVector<SplitFragment> frags;
  for (int64_t i = 0; i < mTiles(); ++i) {
    Value r0 = add(add(t.waveRow, i * 16), g), r1 = add(r0, 8);
    auto a = [&](Value m, Value k) {
      return loadElement(t.ldsA, t.transA, stage, m, k);
    };
    frags.push_back(split({a(r0, k0), a(r1, k0), a(r0, k1), a(r1, k1)}));
  }
  return frags;
}

SmallVector<SplitFragment>
MmaSyncTf32x3Core::loadBFragments(Value stage, Value g, Value tq, int64_t kk) {
  Value k0 = add(tq, kk), k1 = add(tq, kk + 4);
  SmallVector<SplitFragment> frags;
  for (int64_t jn = 0; jn < nTiles(); ++jn) {
    Value n = add(add(t.waveCol, jn * 8), g);
    auto bElem = [&](Value k) {
      return loadElement(t.ldsB, !t.transB, stage, n, k);
    };
    frags.push_back(split({bElem(k0), bElem(k1)}));
  }
  return frags;
}

SmallVector<Value> MmaSyncTf32x3Core::computeStage(Value stage,
                                                   ValueRange accIn) {
  // The stage's MMAs accumulate from zero and their sum is added to the
  // running accumulators in f32 (round to nearest) at the end: the tensor
  // cores truncate each addition into the accumulator, and into the running
  // sum over all of K that bias reached 26x the FMA kernel's error at
  // K = 4096 (docs/Matmul.md, utils/lowering-check/tf32x3_error_model.py).
  SmallVector<Value> acc = initAccumulators();
  int64_t mt = mTiles(), nt = nTiles();
  Value g = div(t.lane, 4), tq = rem(t.lane, 4);
  // Which terms of A and B each of the three MMAs multiplies: the small
  // terms first, so that they are added while the accumulator holds the
  // least.
  static constexpr std::pair<bool, bool> kTerms[] = {
      {/*aBig=*/false, /*bBig=*/true}, {true, false}, {true, true}};
  for (int64_t kk = 0; kk < t.tk; kk += 8) {
    SmallVector<SplitFragment> aFrag = loadAFragments(stage, g, tq, kk);
    SmallVector<SplitFragment> bFrag = loadBFragments(stage, g, tq, kk);
    // Term by term over the whole warp tile: the three dependent MMAs of
    // an accumulator are mt x nt instructions apart.
    for (auto [aBig, bBig] : kTerms)
      for (int64_t i = 0; i < mt; ++i)
        for (int64_t jn = 0; jn < nt; ++jn) {
          Value a = aBig ? aFrag[i].big : aFrag[i].small;
          Value bv = bBig ? bFrag[jn].big : bFrag[jn].small;
          Value &accV = acc[i * nt + jn];
          accV = mmaSyncM16N8K8Tf32(b, loc, a, bv, accV);
        }
  }
  for (auto [running, part] : llvm::zip(accIn, acc))
    part = arith::AddFOp::create(b, loc, running, part);
  return acc;
}

std::unique_ptr<MatrixCore>
mlir::hkg::matmul::createMmaSyncTf32x3Core(KernelState &t) {
  return std::make_unique<MmaSyncTf32x3Core>(t);
}
