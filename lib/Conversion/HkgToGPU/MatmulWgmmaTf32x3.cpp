//===- MatmulWgmmaTf32x3.cpp - f32 matmul on tf32 warpgroup MMA (3xTF32) -===//
//
// mma = wgmma_64xNx8_tf32x3 (sm_90a, f32 operands, tf32_split = trunc):
// 3xTF32 (MatmulMmaSyncTf32x3.cpp) on warpgroup MMA, whose operands come
// from LDS: each step's products are a_small b_big + a_big b_small + a_big
// b_big, three wgmma.mma_async .tf32 per instruction K, the small terms
// first.
//
// The big terms are the staged f32 tiles themselves: tensor cores read an
// f32 operand as tf32 by dropping its low 13 bits, so big = x truncated.
// Once a step's tiles have arrived, the workgroup writes the small terms,
// small = x - big rounded to tf32 by an add and mask (x - big is exact in
// f32), into LDS tiles of the same 128-byte-swizzle layout: for a K-major
// tile (A, B as [N, K]) an element-wise pass over its bytes. wgmma reads
// tf32 operands K-major only, so a B as [K, N] (staged MN-major, in panels
// of 32 columns) is transposed by the same pass into K-major big and small
// tiles: each thread reads 4 K rows of one column (32 lanes: 32 columns of
// a row, distinct banks) and writes one 16-byte chunk of each (8 lanes
// of a phase: 8 rows whose swizzle puts the chunk in 8 distinct bank
// groups).
//
// The written tiles have two slots, by the step's parity: with
// wgmma_pending = 1 the previous step's MMAs still read the other slot
// while this step's are written, and the slot of step kt - 2 is free once
// every warpgroup waited for its MMAs before this step's barrier. A
// fence.proxy.async and a barrier publish the small terms to the MMAs.
//
// Tensor cores add into their accumulators in fewer bits than f32 (the
// mma.sync kernel measured it: MatmulMmaSyncTf32x3.cpp), so the default
// schedule promotes each step's sum into f32 (wgmma_promote = 1).
//
//===----------------------------------------------------------------------===//

#include "MatmulWgmma.h"
#include "MatrixCore.h"
#include "Wgmma.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

namespace {

/// f32 elements of a 16-byte chunk, and of a 128-byte row.
constexpr int64_t kChunk = 4, kRow = 32;

class WgmmaTf32x3Core final : public WgmmaCore {
public:
  using WgmmaCore::WgmmaCore;

  void placeWave(Value wave) override;
  SmallVector<Value> computeStage(Value stage, ValueRange acc) override;

protected:
  SmallVector<Operands> stageOperands(Value stage) override;

private:
  /// An LDS buffer memref<2 x rows x 32 x f32> of 1024-byte alignment.
  Value allocSlots(int64_t rows);
  /// The small terms of `xs` (a vector of f32): x - trunc(x), rounded.
  Value smallTerms(Value xs);
  /// 16-byte chunks: ld.shared.v4 / st.shared.v4.
  static llvm::MaybeAlign chunkAlign() { return llvm::MaybeAlign(16); }
  /// Stores the chunk `xs` at (slot, row, col) of `buf`.
  void store(Value xs, Value buf, Value slot, Value row, Value col) {
    vector::StoreOp::create(b, loc, xs, buf, ValueRange{slot, row, col},
                            /*nontemporal=*/false, chunkAlign());
  }
  /// Calls `body(i)` for chunks i = tid, tid + threads, ... below `chunks`.
  void forEachChunk(int64_t chunks, function_ref<void(Value)> body);
  /// Writes the small terms of K-major tile `tile` (stage `stage`) into
  /// slot `slot` of `dst`, which has its layout.
  void splitKMajor(const LdsTile &tile, Value stage, Value dst, Value slot);
  /// Writes B's MN-major tile (stage `stage`) transposed into slot `slot`
  /// of bigB and smallB.
  void splitMnMajorB(Value stage, Value slot);

  /// The small terms of A and B, B's big terms when B is staged MN-major.
  Value smallA, smallB, bigB;
  /// The step's slot (0 or 1), set by computeStage.
  Value slot;
};

} // namespace

Value WgmmaTf32x3Core::allocSlots(int64_t rows) {
  return addWorkgroupBuffer(b, loc, t.kernel, {2, rows, kRow}, b.getF32Type(),
                            ldsAlignment());
}

void WgmmaTf32x3Core::placeWave(Value wave) {
  WgmmaCore::placeWave(wave);
  smallA = allocSlots(t.tm);
  smallB = allocSlots(t.tn);
  if (!t.transB)
    bigB = allocSlots(t.tn);
}

Value WgmmaTf32x3Core::smallTerms(Value xs) {
  Value big = maskToTf32(b, loc, xs, /*bias=*/0);
  Value rest = arith::SubFOp::create(b, loc, xs, big);
  return maskToTf32(b, loc, rest, /*bias=*/0x1000);
}

void WgmmaTf32x3Core::forEachChunk(int64_t chunks,
                                   function_ref<void(Value)> body) {
  for (int64_t j = 0; j * t.threads < chunks; ++j) {
    Value i = add(t.tid, j * t.threads);
    if ((j + 1) * t.threads <= chunks) {
      body(i);
      continue;
    }
    auto inBounds = scf::IfOp::create(b, loc, lt(i, chunks),
                                      /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(inBounds.thenBlock());
    body(i);
  }
}

void WgmmaTf32x3Core::splitKMajor(const LdsTile &tile, Value stage, Value dst,
                                  Value slot) {
  // Chunk i of the tile: row i / 8, chunk i % 8 (consecutive threads,
  // consecutive chunks of a row). The layouts match, so the swizzle does
  // not matter.
  auto vt = VectorType::get({kChunk}, b.getF32Type());
  forEachChunk(tile.rows * (kRow / kChunk), [&](Value i) {
    Value row = div(i, kRow / kChunk);
    Value col = mul(rem(i, kRow / kChunk), kChunk);
    Value xs = vector::LoadOp::create(b, loc, vt, tile.buf,
                                      ValueRange{stage, row, col},
                                      /*nontemporal=*/false, chunkAlign());
    store(smallTerms(xs), dst, slot, row, col);
  });
}

void WgmmaTf32x3Core::splitMnMajorB(Value stage, Value slot) {
  // Output chunk i: column n = i % tile_n (row n of the K-major tiles), K
  // values 4q .. 4q + 3 with q = i / tile_n.
  const LdsTile &src = t.ldsB;
  LdsTile dst;
  dst.rows = t.tn;
  dst.cols = kRow;
  dst.swizzle = true;
  dst.chunkElems = kChunk;
  auto vt = VectorType::get({kChunk}, b.getF32Type());
  forEachChunk(t.tn * (kRow / kChunk), [&](Value i) {
    Value n = rem(i, t.tn);
    Value k0 = mul(div(i, t.tn), kChunk);
    SmallVector<Value> xs;
    for (int64_t e = 0; e < kChunk; ++e) {
      auto [row, col] = t.ldsIndex(src, add(k0, e), n);
      xs.push_back(
          memref::LoadOp::create(b, loc, src.buf, ValueRange{stage, row, col}));
    }
    Value big = vector::FromElementsOp::create(b, loc, vt, xs);
    auto [row, col] = t.ldsIndex(dst, n, k0);
    store(big, bigB, slot, row, col);
    store(smallTerms(big), smallB, slot, row, col);
  });
}

SmallVector<Value> WgmmaTf32x3Core::computeStage(Value stage,
                                                 ValueRange accIn) {
  slot = rem(t.kStepIndex, 2);
  splitKMajor(t.ldsA, stage, smallA, slot);
  if (t.transB)
    splitKMajor(t.ldsB, stage, smallB, slot);
  else
    splitMnMajorB(stage, slot);
  // The generic-proxy writes, visible to wgmma's async proxy, then to every
  // warpgroup.
  wgmma::sideEffectAsm(b, loc, "fence.proxy.async.shared::cta;");
  gpu::BarrierOp::create(b, loc);
  return WgmmaCore::computeStage(stage, accIn);
}

SmallVector<WgmmaCore::Operands> WgmmaTf32x3Core::stageOperands(Value stage) {
  // The staged tiles are the big terms; a B as [K, N] has its K-major big
  // tile in the slot.
  Operands staged = WgmmaCore::stageOperands(stage).front();
  Value aSmall = rowAddress(smallA, slot, t.tm, wgRow);
  Value bBig = t.transB ? staged.b : rowAddress(bigB, slot, t.tn, wgCol);
  Value bSmall = rowAddress(smallB, slot, t.tn, wgCol);
  return {{aSmall, bBig}, {staged.a, bSmall}, {staged.a, bBig}};
}

std::unique_ptr<MatrixCore>
mlir::hkg::matmul::createWgmmaTf32x3Core(KernelState &t) {
  return std::make_unique<WgmmaTf32x3Core>(t);
}
