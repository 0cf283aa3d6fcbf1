//===- MatmulW4A16MatrixCore.cpp - W4A16 on matrix cores ------------------===//
//
// hkg.matmul_w4a16 with `mma` = mma_16x8x16 (NVIDIA mma.sync),
// mfma_16x16x16 (CDNA) or wmma_16x16x16 (gfx12): the weights, dequantized
// in registers, are the instruction's A operand (16 weight rows = 16
// output columns), the activations its B operand (the instruction's N
// activation rows), so out^T = W x^T is accumulated in f32 and the result
// stored transposed. No LDS for the weights: every lane loads its own
// 16-byte chunks of the packed weights from global memory and turns them
// into A fragments.
//
// The K permutation. A matrix instruction sums over its K slots in any
// order, so the kernel maps its K slots to the packed bytes as they lie:
// the lanes sharing a weight row along K (`kGroups`: lane % 4 on mma.sync,
// lane / 16 on MFMA and WMMA) each load 16 contiguous bytes (32 k values)
// of the row, at k = span * spanK + 32 t, spanK = 32 kGroups (128, or 64
// for wave32 WMMA). Word j of a chunk holds k = 8j + i in nibble i, so
//
//   (word >> 4i) & 0x000F000F | magic        (i = 0..3)
//
// is a pair of 16-bit floats (magic + q[8j + i], magic + q[8j + i + 4]):
// bf16 0x4300 = 128 (ulp 1 up to 255), f16 0x6400 = 1024 (ulp 1). The
// pair minus (magic + z) is q - z exactly, times the scale (packed 16-bit
// math, one rounding: the bf16 / f16 weight). Pair p = 4j + i of a chunk
// holds k offsets (8j + i, 8j + i + 4); instruction s of a span takes the
// lane's pairs s * P .. s * P + P - 1 (P = 2 k-pairs per row and lane on
// mma.sync and MFMA, 4 on WMMA) for its K slots, so every lane of a K
// group uses the same permutation. The activations are loaded with it: 64
// contiguous bytes of the lane's activation row at the same k, and one
// shuffle of each 16-byte piece (elements 0 4 1 5 2 6 3 7) gives the pairs.
//
// Scales after the product (mma.sync, groups that are whole spans: G a
// multiple of 128). A span's K slots then lie in one group, so every
// product of the span shares its row's scale: the instructions multiply
// q - z (small integers, exact in 16 bits), a span's products are summed
// into accumulators of their own (f32), and those are added to the running
// ones times the scale by one fma per element. That saves the 16-bit
// multiply of every weight pair (a quarter of the dequantization: 8 fmas a
// span against 64 multiplies for 32 weight rows) and rounds nothing but
// the f32 sums (the dequantized weight is no longer rounded to 16 bits).
// Chunks past K or the slice then enter the product as zeros (their words
// and zero points selected), not through a zero scale: the scale multiplies
// every lane's products of the span.
//
// - Grid: x over tiles of `tile_m` activation rows (tile_m / N instruction
//   tiles), so the tiles that read the same weights run together; y over
//   `split_k` slices of K; z over groups of `threads / wave` waves, each
//   wave owning `rows_per_wave` weight rows (rows_per_wave / 16 instruction
//   tiles). Each wave walks its slice of K one span
//   per lane chunk, `unroll` spans a step; the next step's weight chunks,
//   scales and zero points are loaded (loop-carried registers) before the
//   current step is dequantized and multiplied.
// - Edges: weight rows past N and activation rows past M are read clamped
//   and not stored; a chunk past K (or past the slice) is read clamped and
//   multiplied with a zero scale.
// - split_k > 1: each workgroup stores its f32 accumulators to a workspace
//   global of the kernel's module, counts its arrival, and the last of the
//   tile's split_k workgroups sums the partials in rank order (deterministic)
//   and stores the result (Workspace.h; docs/ABI.md, "Module globals").
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "Matmul.h"
#include "MatrixCore.h"
#include "PtxBitOps.h"
#include "Workspace.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulW4A16Schedule.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;

namespace {

/// One wave's view of the instruction: where this lane's weight rows,
/// activation row and K group sit in an instruction tile, and where its
/// accumulator elements land.
struct W4A16Lanes {
  OpBuilder &b;
  Location loc;
  MmaInstruction mma;
  int64_t wave;
  /// Lanes sharing a weight row along K, k-pairs per row and lane of one
  /// instruction, weight rows per lane of a tile (mma.sync: g and g + 8),
  /// f32 accumulator elements per lane.
  int64_t kGroups, pairs, rowsPerLane, accPer;
  /// This lane's K group, its first weight row and its activation row in
  /// an instruction tile.
  Value t, row, col;

  W4A16Lanes(OpBuilder &b, Location loc, const MmaInstruction &mma,
             int64_t wave, Value lane)
      : b(b), loc(loc), mma(mma), wave(wave) {
    kGroups = w4a16KGroups(mma, wave);
    pairs = mma.k / kGroups / 2;
    accPer = w4a16AccPerInstruction(mma, wave);
    if (isMmaSync()) {
      rowsPerLane = 2;
      t = rem(lane, 4);
      row = div(lane, 4);
      col = row;
    } else {
      rowsPerLane = 1;
      t = div(lane, 16);
      row = rem(lane, 16);
      col = row;
    }
  }

  bool isMmaSync() const { return mma.family == MmaFamily::MmaSync; }
  Value c(int64_t v) { return constIndex(b, loc, v); }
  Value add(Value x, int64_t v) {
    return arith::AddIOp::create(b, loc, x, c(v));
  }
  Value rem(Value x, int64_t v) {
    return arith::RemUIOp::create(b, loc, x, c(v));
  }
  Value div(Value x, int64_t v) {
    return arith::DivUIOp::create(b, loc, x, c(v));
  }
  Value mul(Value x, int64_t v) {
    return arith::MulIOp::create(b, loc, x, c(v));
  }

  /// The weight row (in its tile) and the activation row (in its tile) of
  /// accumulator element `e`: mma.sync C[g + 8 (e / 2)][2t + e % 2]; MFMA
  /// C[4 (l / 16) + e][l % 16]; gfx12 WMMA C[e + 8 (l / 16)][l % 16].
  std::pair<Value, Value> result(int64_t e) {
    if (isMmaSync())
      return {add(row, 8 * (e / 2)), add(mul(t, 2), e % 2)};
    if (mma.family == MmaFamily::Mfma)
      return {add(mul(t, 4), e), col};
    return {add(mul(t, 8), e), col};
  }

  /// acc += a x b.
  Value multiply(Value a, Value bv, Value acc) {
    if (isMmaSync())
      return mmaSyncM16N8K16(b, loc, a, bv, acc);
    if (mma.family == MmaFamily::Mfma)
      return amdgpu::MFMAOp::create(b, loc, acc.getType(), mma.m, mma.n, mma.k,
                                    /*blocks=*/1, a, bv, acc);
    return amdgpu::WMMAOp::create(b, loc, acc.getType(), mma.m, mma.n, mma.k, a,
                                  bv, acc);
  }
};

/// Concatenates 1-D vectors of one element type.
Value concat(OpBuilder &b, Location loc, ArrayRef<Value> parts) {
  Value v = parts.front();
  for (Value p : parts.drop_front()) {
    int64_t n0 = cast<VectorType>(v.getType()).getNumElements();
    int64_t n1 = cast<VectorType>(p.getType()).getNumElements();
    SmallVector<int64_t> mask;
    for (int64_t i = 0; i < n0 + n1; ++i)
      mask.push_back(i);
    v = vector::ShuffleOp::create(b, loc, v, p, mask);
  }
  return v;
}

/// A vector<R x 2 x T> of R pairs (mma.sync's fragment type).
Value pairRows(OpBuilder &b, Location loc, ArrayRef<Value> pairs) {
  Type elemT = cast<VectorType>(pairs.front().getType()).getElementType();
  auto type = VectorType::get({static_cast<int64_t>(pairs.size()), 2}, elemT);
  Value v = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  for (auto [i, p] : llvm::enumerate(pairs))
    v = vector::InsertOp::create(b, loc, p, v, static_cast<int64_t>(i));
  return v;
}

/// Elements [at, at + len) of a 1-D vector.
Value slice(OpBuilder &b, Location loc, Value v, int64_t at, int64_t len) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < len; ++i)
    mask.push_back(at + i);
  return vector::ShuffleOp::create(b, loc, v, v, mask);
}

} // namespace

LogicalResult mlir::hkg::lowerMatmulW4A16MatrixCore(MatmulW4A16Op op,
                                                    KernelContext &kc) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  MatmulW4A16Schedule s = MatmulW4A16Schedule::decode(kc.schedule);
  int64_t m = op.getM(), n = op.getN(), k = op.getK();
  int64_t groupSize = op.getGroupSize();
  int64_t wave = kc.waveSize();
  int64_t waves = s.threads / wave;
  const MmaInstruction &mma = s.mma;
  int64_t spanK = w4a16SpanValues(mma, wave);
  int64_t spans = llvm::divideCeil(k, spanK);
  int64_t perSplit = llvm::divideCeil(spans, s.splitK);
  int64_t unroll = s.unroll;
  int64_t steps = llvm::divideCeil(perSplit, unroll);
  int64_t mTiles = s.rowsPerWave / mma.m, nTiles = s.tileM / mma.n;
  int64_t gridX = llvm::divideCeil(n, s.rowsPerWave * waves);
  int64_t gridZ = llvm::divideCeil(m, s.tileM);
  // The activation tiles of one weight-row group are neighbours in the
  // launch order (x), so a weight chunk read by the first comes from L2 for
  // the others.
  kc.grid = {gridZ, s.splitK, gridX};
  kc.block = {s.threads, 1, 1};

  Type elemT = op.getInput().getType().getElementType();
  Type resultType = op.getResult().getType().getElementType();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value x = kc.args[0], w = kc.args[1], scales = kc.args[2], zeros = kc.args[3],
        out = kc.args[4];
  // The weights are read once (unless several activation tiles read them):
  // loads that need not stay in the caches.
  bool streamWeights = gridZ == 1;

  Value tid = threadIdX(b, loc);
  Value lane = arith::RemUIOp::create(b, loc, tid, constIndex(b, loc, wave));
  Value waveId = arith::DivUIOp::create(b, loc, tid, constIndex(b, loc, wave));
  W4A16Lanes L(b, loc, mma, wave, lane);
  Value bz = blockIdX(b, loc);
  Value rank = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value rowBase = L.mul(arith::AddIOp::create(b, loc, L.mul(bx, waves), waveId),
                        s.rowsPerWave);
  Value mBase = L.mul(bz, s.tileM);
  Value firstSpan = L.mul(rank, perSplit);
  auto clampIdx = [&](Value v, int64_t hi) -> Value {
    return arith::MinUIOp::create(b, loc, v, L.c(hi));
  };

  // This lane's weight rows (tile i, row rho of the lane) and activation
  // rows (tile cc), clamped for the loads.
  SmallVector<Value> wRows, xRows;
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t rho = 0; rho < L.rowsPerLane; ++rho)
      wRows.push_back(
          clampIdx(L.add(arith::AddIOp::create(b, loc, rowBase, L.row),
                         16 * i + 8 * rho),
                   n - 1));
  for (int64_t cc = 0; cc < nTiles; ++cc)
    xRows.push_back(clampIdx(
        L.add(arith::AddIOp::create(b, loc, mBase, L.col), cc * mma.n), m - 1));
  int64_t nRows = wRows.size();

  // The lane's k of span `local` (of its slice), whether it is in the
  // slice and in K, and the k its loads use (clamped).
  Value lane32 = L.mul(L.t, kW4A16ChunkValues);
  auto laneK = [&](Value step, int64_t u) {
    Value local = L.add(L.mul(step, unroll), u);
    Value kk = arith::AddIOp::create(
        b, loc, L.mul(arith::AddIOp::create(b, loc, firstSpan, local), spanK),
        lane32);
    Value valid = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, local,
                              L.c(perSplit)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, kk, L.c(k)));
    return std::make_pair(valid, clampIdx(kk, k - kW4A16ChunkValues));
  };

  // One step's weight chunks, scales and zero points, as loop-carried
  // values: unroll x rows words (vector<4xi32>), then scales, then zeros.
  auto i32x4 = VectorType::get({4}, i32);
  auto loadStep = [&](Value step) {
    SmallVector<Value> words, sc, zs;
    for (int64_t u = 0; u < unroll; ++u) {
      Value kk = laneK(step, u).second;
      Value byte = L.div(kk, 2);
      Value group = L.div(kk, groupSize);
      for (Value r : wRows) {
        Value v = loadVector(b, loc, w, {r, byte}, kW4A16ChunkBytes, 16,
                             streamWeights);
        words.push_back(vector::BitCastOp::create(b, loc, i32x4, v));
        sc.push_back(memref::LoadOp::create(b, loc, scales, {r, group}));
        zs.push_back(memref::LoadOp::create(b, loc, zeros, {r, group}));
      }
    }
    SmallVector<Value> all = words;
    llvm::append_range(all, sc);
    llvm::append_range(all, zs);
    return all;
  };
  int64_t perStep = unroll * nRows;

  auto accType = VectorType::get({L.accPer}, f32);
  Value zeroAcc = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  SmallVector<Value> init(mTiles * nTiles, zeroAcc);
  int64_t numAcc = init.size();
  llvm::append_range(init, loadStep(L.c(0)));

  bool isBf16 = elemT.isBF16();
  int64_t magic = isBf16 ? 0x4300 : 0x6400;
  auto pairType = VectorType::get({2}, elemT);
  Value zeroT = arith::ConstantOp::create(b, loc, b.getZeroAttr(elemT));
  // Scales after the product (see the top of the file); chunks can fall
  // past K or the slice only where spans, splits and unroll leave a rest.
  // One activation tile a lane (tile_m <= 8): with two the span sums
  // would crowd the registers (128 and 4 bytes of spills at batch 16).
  bool scaleAfter = L.isMmaSync() && groupSize % spanK == 0 && nTiles == 1;
  bool everyChunkValid =
      k % spanK == 0 && spans % s.splitK == 0 && perSplit % unroll == 0;

  auto loop = scf::ForOp::create(
      b, loc, L.c(0), L.c(steps), L.c(1), init,
      [&](OpBuilder &nb, Location l, Value step, ValueRange iter) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        SmallVector<Value> acc(iter.begin(), iter.begin() + numAcc);
        ValueRange raw = iter.drop_front(numAcc);
        // The next step's loads first (the last step reloads its own
        // chunks: clamped, never used).
        Value next = clampIdx(L.add(step, 1), steps - 1);
        SmallVector<Value> nextRaw = loadStep(next);

        for (int64_t u = 0; u < unroll; ++u) {
          auto [valid, kk] = laneK(step, u);
          // Activation pairs: xp[cc][j] = the 4 pairs of word j of row cc
          // (elements 8j + {0 4 1 5 2 6 3 7} of the lane's 32).
          SmallVector<SmallVector<Value>> xp(nTiles);
          for (int64_t cc = 0; cc < nTiles; ++cc)
            for (int64_t j = 0; j < 4; ++j) {
              Value v =
                  loadVector(b, l, x, {xRows[cc], L.add(kk, 8 * j)}, 8, 16);
              xp[cc].push_back(vector::ShuffleOp::create(
                  b, l, v, v, ArrayRef<int64_t>{0, 4, 1, 5, 2, 6, 3, 7}));
            }
          // Per weight row: the scale (zero past K or the slice) and
          // magic + zero point as 16-bit pairs.
          SmallVector<Value> scale2, scale32, zero2, words;
          bool maskChunks = scaleAfter && !everyChunkValid;
          for (int64_t r = 0; r < nRows; ++r) {
            Value sc = raw[perStep + u * nRows + r];
            if (scaleAfter) {
              scale32.push_back(arith::ExtFOp::create(b, l, f32, sc));
            } else {
              sc = arith::SelectOp::create(b, l, valid, sc, zeroT);
              scale2.push_back(vector::BroadcastOp::create(b, l, pairType, sc));
            }
            Value z = arith::ExtUIOp::create(b, l, i32,
                                             raw[2 * perStep + u * nRows + r]);
            z = arith::AndIOp::create(b, l, z, constI32(b, l, 15));
            // A chunk past K: q = z = 0, so every pair is magic - magic.
            if (maskChunks)
              z = arith::SelectOp::create(b, l, valid, z, constI32(b, l, 0));
            z = arith::OrIOp::create(b, l, z, constI32(b, l, magic));
            z = arith::MulIOp::create(b, l, z, constI32(b, l, 0x10001));
            zero2.push_back(vector::BitCastOp::create(
                b, l, pairType,
                vector::BroadcastOp::create(b, l, VectorType::get({1}, i32),
                                            z)));
            Value word = raw[u * nRows + r];
            if (maskChunks)
              word = arith::SelectOp::create(
                  b, l, valid, word,
                  arith::ConstantOp::create(b, l, b.getZeroAttr(i32x4)));
            words.push_back(word);
          }
          // dq: the pairs (8j + i, 8j + i + 4), i = 0..3, of word j of
          // weight row r, dequantized (q - z, times the scale unless it
          // comes after the product).
          auto dequant = [&](int64_t r, int64_t j) {
            SmallVector<Value> dq;
            Value word = vector::ExtractOp::create(b, l, words[r], j);
            for (int64_t i = 0; i < 4; ++i) {
              Value q = word;
              if (i)
                q = arith::ShRUIOp::create(b, l, q, constI32(b, l, 4 * i));
              if (L.isMmaSync()) {
                q = andOr(b, l, q, 0x000F000F, magic * 0x10001);
              } else {
                q = arith::AndIOp::create(b, l, q, constI32(b, l, 0x000F000F));
                q = arith::OrIOp::create(b, l, q,
                                         constI32(b, l, magic * 0x10001));
              }
              Value p = vector::BitCastOp::create(
                  b, l, pairType,
                  vector::BroadcastOp::create(b, l, VectorType::get({1}, i32),
                                              q));
              p = arith::SubFOp::create(b, l, p, zero2[r]);
              if (!scaleAfter)
                p = arith::MulFOp::create(b, l, p, scale2[r]);
              dq.push_back(p);
            }
            return dq;
          };
          // The instruction of word j's pairs p0 .. p0 + P - 1 for weight
          // tile i (its rows' dq: mma.sync rows g and g + 8, else one),
          // into accs[cc].
          auto multiplyPairs = [&](int64_t j, int64_t p0,
                                   ArrayRef<SmallVector<Value>> dq,
                                   MutableArrayRef<Value> accs) {
            Value a;
            if (L.isMmaSync()) {
              // a0a1: row g, first pair; a2a3: row g + 8; a4..a7: the
              // second pair of each.
              a = pairRows(
                  b, l, {dq[0][p0], dq[1][p0], dq[0][p0 + 1], dq[1][p0 + 1]});
            } else {
              SmallVector<Value> parts;
              for (int64_t p = p0; p < p0 + L.pairs; ++p)
                parts.push_back(dq[0][p]);
              a = concat(b, l, parts);
            }
            for (int64_t cc = 0; cc < nTiles; ++cc) {
              Value bv;
              if (L.isMmaSync())
                bv = pairRows(b, l,
                              {slice(b, l, xp[cc][j], 2 * p0, 2),
                               slice(b, l, xp[cc][j], 2 * p0 + 2, 2)});
              else
                bv = slice(b, l, xp[cc][j], 2 * p0, 2 * L.pairs);
              accs[cc] = L.multiply(a, bv, accs[cc]);
            }
          };
          auto tileDequant = [&](int64_t i, int64_t j) {
            SmallVector<SmallVector<Value>> dq;
            for (int64_t rho = 0; rho < L.rowsPerLane; ++rho)
              dq.push_back(dequant(i * L.rowsPerLane + rho, j));
            return dq;
          };
          // Scales after the product: the span's products into span sums
          // of their own, then acc += span sums x scale (element e of tile
          // i is weight row g + 8 (e / 2), the lane's row 2 i + e / 2).
          SmallVector<Value> spanAcc(numAcc, zeroAcc);
          MutableArrayRef<Value> target = scaleAfter ? spanAcc : acc;
          for (int64_t j = 0; j < 4; ++j) {
            SmallVector<SmallVector<SmallVector<Value>>> dq;
            for (int64_t i = 0; i < mTiles; ++i)
              dq.push_back(tileDequant(i, j));
            for (int64_t p0 = 0; p0 < 4; p0 += L.pairs)
              for (int64_t i = 0; i < mTiles; ++i)
                multiplyPairs(j, p0, dq[i], target.slice(i * nTiles, nTiles));
          }
          if (!scaleAfter)
            continue;
          for (int64_t i = 0; i < mTiles; ++i) {
            SmallVector<Value> perElem;
            for (int64_t e = 0; e < L.accPer; ++e)
              perElem.push_back(scale32[i * L.rowsPerLane + e / 2]);
            Value sv = vector::FromElementsOp::create(b, l, accType, perElem);
            for (int64_t cc = 0; cc < nTiles; ++cc) {
              Value &av = acc[i * nTiles + cc];
              av = math::FmaOp::create(b, l, spanAcc[i * nTiles + cc], sv, av);
            }
          }
        }
        SmallVector<Value> yield = acc;
        llvm::append_range(yield, nextRaw);
        scf::YieldOp::create(b, l, yield);
      });

  SmallVector<Value> acc(loop.getResults().begin(),
                         loop.getResults().begin() + numAcc);
  auto store = [&](ArrayRef<Value> sums) {
    for (int64_t i = 0; i < mTiles; ++i)
      for (int64_t cc = 0; cc < nTiles; ++cc)
        for (int64_t e = 0; e < L.accPer; ++e) {
          auto [wr, xr] = L.result(e);
          Value nr = arith::AddIOp::create(b, loc, L.add(rowBase, 16 * i), wr);
          Value mr =
              arith::AddIOp::create(b, loc, L.add(mBase, cc * mma.n), xr);
          Value ok = arith::AndIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, nr,
                                    L.c(n)),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, mr,
                                    L.c(m)));
          Value v = fromF32(
              b, loc,
              vector::ExtractOp::create(b, loc, sums[i * nTiles + cc], e),
              resultType);
          emitIfThen(b, loc, ok, [&] {
            memref::StoreOp::create(b, loc, v, out, {mr, nr});
          });
        }
  };
  if (s.splitK == 1) {
    store(acc);
    return success();
  }

  // Split-K: partials through a workspace global, summed in rank order by
  // the last workgroup of the tile (Workspace.h).
  sumSplitKPartials(kc, tid, s.threads,
                    arith::AddIOp::create(b, loc, bx, L.mul(bz, gridX)),
                    gridX * gridZ, rank, s.splitK, acc, store);
  return success();
}
