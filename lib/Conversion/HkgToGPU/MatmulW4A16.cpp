//===- MatmulW4A16.cpp - hkg.matmul_w4a16 as a weight-streaming kernel ----===//
//
// y[m, n] = sum_k x[m, k] * (q[n, k] - z[n, k / G]) * s[n, k / G] with the
// int4 weights q packed two per byte along K (docs/ABI.md, "Packed int4
// weights"). Bound by reading the weights once for decode batches: the
// kernel streams them and dequantizes in registers.
//
// - Grid: x over groups of `threads / wave` waves, each wave owning
//   `rows_per_wave` consecutive weight rows (output columns); y over tiles
//   of `tile_m` activation rows.
// - A lane walks its rows' K in 16-byte chunks (32 int4 values, all in one
//   quantization group since groups are 32, 64 or 128 long): chunk
//   c = (step * unroll + u) * wave + lane, so a wave's loads of one row are
//   contiguous (coalesced). Each step loads `unroll` chunks of every row,
//   their scales and zero points, then dequantizes each 32-bit word of a
//   chunk (8 values, nibble j at bits [4j, 4j + 4) is k = 8 * word + j) with
//   integer ops into f32: (0x4B000000 | q) is the float 2^23 + q, so
//   subtracting 2^23 + z (also exact) gives q - z, times the scale. The
//   chunk's 32 activations of each of the tile's rows (four 16-byte loads,
//   L1/L2-resident: shared by every wave) are widened to f32 and
//   multiply-added into `tile_m x rows_per_wave` f32 accumulators.
// - A chunk past the end of the row (the last step's lanes when the row's
//   chunks are not a multiple of a step) loads the row's last chunk and
//   multiplies it with a zero scale; rows past N and activation rows past
//   M are read clamped and not stored.
// - At the end each accumulator is summed over the wave's lanes (shuffle
//   butterfly) and lane 0 stores the tile's outputs.
//
// This is the `mma = none` kernel (targets without an instruction of
// MatmulW4A16MatrixCore.cpp, and a tuning baseline); it does not split K.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "Matmul.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulW4A16Schedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::hkg;

/// min(v, hi) on index values.
static Value clampIndex(OpBuilder &b, Location loc, Value v, int64_t hi) {
  return arith::MinUIOp::create(b, loc, v, constIndex(b, loc, hi));
}

/// The 8 int4 values of the 32-bit word `word` (nibble j = bits [4j, 4j+4))
/// minus the zero point, as f32: (0x4B000000 | q) - (0x4B000000 | z).
/// `zeroBias` is the f32 2^23 + z.
static Value dequantWord(OpBuilder &b, Location loc, Value word, Value zeroBias,
                         Value scale) {
  auto i32x8 = VectorType::get({8}, b.getI32Type());
  auto f32x8 = VectorType::get({8}, b.getF32Type());
  SmallVector<int32_t> shifts = {0, 4, 8, 12, 16, 20, 24, 28};
  Value shiftV = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(i32x8, ArrayRef<int32_t>(shifts)));
  Value splat = vector::BroadcastOp::create(b, loc, i32x8, word);
  Value q = arith::ShRUIOp::create(b, loc, splat, shiftV);
  q = arith::AndIOp::create(
      b, loc, q,
      arith::ConstantOp::create(b, loc,
                                DenseIntElementsAttr::get(i32x8, int32_t(15))));
  q = arith::OrIOp::create(
      b, loc, q,
      arith::ConstantOp::create(
          b, loc, DenseIntElementsAttr::get(i32x8, int32_t(0x4B000000))));
  Value qf = arith::BitcastOp::create(b, loc, f32x8, q);
  Value diff = arith::SubFOp::create(
      b, loc, qf, vector::BroadcastOp::create(b, loc, f32x8, zeroBias));
  return arith::MulFOp::create(
      b, loc, diff, vector::BroadcastOp::create(b, loc, f32x8, scale));
}

LogicalResult mlir::hkg::lowerMatmulW4A16(MatmulW4A16Op op, KernelContext &kc) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  MatmulW4A16Schedule s = MatmulW4A16Schedule::decode(kc.schedule);
  if (!s.mma.isNone())
    return lowerMatmulW4A16MatrixCore(op, kc);
  int64_t m = op.getM(), n = op.getN(), k = op.getK();
  int64_t groupSize = op.getGroupSize();
  int64_t wave = kc.waveSize();
  if (s.threads % wave != 0)
    return op.emitOpError("schedule knob 'threads' = ")
           << s.threads << " is not a multiple of the wave size " << wave;
  int64_t waves = s.threads / wave;
  int64_t rows = s.rowsPerWave, tileM = s.tileM, unroll = s.unroll;
  int64_t chunks = k / kW4A16ChunkValues;
  int64_t perStep = unroll * wave;
  int64_t steps = llvm::divideCeil(chunks, perStep);
  kc.grid = {static_cast<int64_t>(llvm::divideCeil(n, rows * waves)),
             static_cast<int64_t>(llvm::divideCeil(m, tileM)), 1};
  kc.block = {s.threads, 1, 1};

  Type resultType = op.getResult().getType().getElementType();
  Type f32 = b.getF32Type();
  Value x = kc.args[0], w = kc.args[1], scales = kc.args[2], zeros = kc.args[3],
        out = kc.args[4];

  Value tid = threadIdX(b, loc);
  Value lane = arith::RemUIOp::create(b, loc, tid, constIndex(b, loc, wave));
  Value waveId = arith::DivUIOp::create(b, loc, tid, constIndex(b, loc, wave));
  Value firstRow = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc,
                            arith::MulIOp::create(b, loc, blockIdX(b, loc),
                                                  constIndex(b, loc, waves)),
                            waveId),
      constIndex(b, loc, rows));
  Value firstM = arith::MulIOp::create(
      b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::y),
      constIndex(b, loc, tileM));

  // Weight rows and activation rows, clamped for the loads.
  SmallVector<Value> rowIdx, mIdx;
  for (int64_t r = 0; r < rows; ++r)
    rowIdx.push_back(clampIndex(
        b, loc, arith::AddIOp::create(b, loc, firstRow, constIndex(b, loc, r)),
        n - 1));
  for (int64_t i = 0; i < tileM; ++i)
    mIdx.push_back(clampIndex(
        b, loc, arith::AddIOp::create(b, loc, firstM, constIndex(b, loc, i)),
        m - 1));

  auto i32x4 = VectorType::get({4}, b.getI32Type());
  Value zeroF = constF32(b, loc, 0.0);
  // Accumulators of `accWidth` lanes (32 f32 registers in all, at most 8
  // lanes): independent multiply-add chains for small tiles, summed at the
  // end.
  int64_t accWidth = std::clamp<int64_t>(32 / (tileM * rows), 1, 8);
  auto accType = VectorType::get({accWidth}, f32);
  auto slice = [&](Value v, int64_t at) -> Value {
    if (accWidth == 8)
      return v;
    SmallVector<int64_t> mask;
    for (int64_t e = 0; e < accWidth; ++e)
      mask.push_back(at + e);
    return vector::ShuffleOp::create(b, loc, v, v, mask);
  };
  SmallVector<Value> init(
      tileM * rows,
      arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0))));
  auto loop = scf::ForOp::create(
      b, loc, constIndex(b, loc, 0), constIndex(b, loc, steps),
      constIndex(b, loc, 1), init,
      [&](OpBuilder &nb, Location l, Value step, ValueRange accIn) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        SmallVector<Value> acc(accIn.begin(), accIn.end());
        Value stepBase =
            arith::MulIOp::create(b, l, step, constIndex(b, l, perStep));
        // Loads first: every chunk of the step, its scale and zero point.
        struct Chunk {
          Value c, valid;
          SmallVector<Value> words, scale, zeroBias;
        };
        SmallVector<Chunk> cs(unroll);
        for (int64_t u = 0; u < unroll; ++u) {
          Chunk &ch = cs[u];
          Value c = arith::AddIOp::create(
              b, l, stepBase,
              arith::AddIOp::create(b, l, constIndex(b, l, u * wave), lane));
          ch.valid = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, c,
                                           constIndex(b, l, chunks));
          ch.c = clampIndex(b, l, c, chunks - 1);
          Value byte = arith::MulIOp::create(
              b, l, ch.c, constIndex(b, l, kW4A16ChunkBytes));
          Value group = arith::DivUIOp::create(
              b, l,
              arith::MulIOp::create(b, l, ch.c,
                                    constIndex(b, l, kW4A16ChunkValues)),
              constIndex(b, l, groupSize));
          for (int64_t r = 0; r < rows; ++r) {
            Value v =
                loadVector(b, l, w, {rowIdx[r], byte}, kW4A16ChunkBytes, 16);
            ch.words.push_back(vector::BitCastOp::create(b, l, i32x4, v));
            Value sc = toF32(
                b, l, memref::LoadOp::create(b, l, scales, {rowIdx[r], group}));
            ch.scale.push_back(
                arith::SelectOp::create(b, l, ch.valid, sc, zeroF));
            Value z = memref::LoadOp::create(b, l, zeros, {rowIdx[r], group});
            Value zi = arith::AndIOp::create(
                b, l, arith::ExtUIOp::create(b, l, b.getI32Type(), z),
                constI32(b, l, 15));
            ch.zeroBias.push_back(arith::BitcastOp::create(
                b, l, f32,
                arith::OrIOp::create(b, l, zi, constI32(b, l, 0x4B000000))));
          }
        }
        for (Chunk &ch : cs) {
          Value kBase = arith::MulIOp::create(
              b, l, ch.c, constIndex(b, l, kW4A16ChunkValues));
          for (int64_t word = 0; word < 4; ++word) {
            SmallVector<Value> dq;
            for (int64_t r = 0; r < rows; ++r)
              dq.push_back(dequantWord(
                  b, l, vector::ExtractOp::create(b, l, ch.words[r], word),
                  ch.zeroBias[r], ch.scale[r]));
            Value kk =
                arith::AddIOp::create(b, l, kBase, constIndex(b, l, 8 * word));
            for (int64_t i = 0; i < tileM; ++i) {
              Value xv = toF32(b, l, loadVector(b, l, x, {mIdx[i], kk}, 8, 16));
              for (int64_t r = 0; r < rows; ++r) {
                Value &a = acc[i * rows + r];
                for (int64_t e = 0; e < 8; e += accWidth)
                  a = vector::FMAOp::create(b, l, slice(xv, e), slice(dq[r], e),
                                            a);
              }
            }
          }
        }
        scf::YieldOp::create(b, l, acc);
      });

  SmallVector<Value> laneSums;
  for (Value a : loop.getResults())
    laneSums.push_back(
        vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, a));
  SmallVector<Value> sums = subgroupReduce(
      b, loc, laneSums, makeCombiner(ReduceKind::Sum), wave, wave);
  Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        constIndex(b, loc, 0));
  emitIfThen(b, loc, isLane0, [&] {
    for (int64_t i = 0; i < tileM; ++i) {
      Value mi = arith::AddIOp::create(b, loc, firstM, constIndex(b, loc, i));
      Value mOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, mi,
                                        constIndex(b, loc, m));
      for (int64_t r = 0; r < rows; ++r) {
        Value nr =
            arith::AddIOp::create(b, loc, firstRow, constIndex(b, loc, r));
        Value nOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, nr,
                                          constIndex(b, loc, n));
        Value ok = arith::AndIOp::create(b, loc, mOk, nOk);
        Value v = fromF32(b, loc, sums[i * rows + r], resultType);
        emitIfThen(b, loc, ok, [&] {
          memref::StoreOp::create(b, loc, v, out, {mi, nr});
        });
      }
    }
  });
  return success();
}
