//===- MatmulW4A16Tiled.cpp - W4A16 for large batches through LDS ---------===//
//
// hkg.matmul_w4a16 with `mma` = mma_16x8x16 and `stages` > 0: the
// large-batch kernel (Marlin-style). y = x W^T is an ordinary GEMM tile by
// tile: the activations are mma.sync's A operand (rows m, K contiguous),
// the weights, dequantized, its B operand (columns n = weight rows).
//
// - Grid: x over tiles of `tile_m` activation rows (the tiles that read the
//   same weights are neighbours in the launch order), y over `split_k`
//   slices of K, z over tiles of tile_n = rows_per_wave x waves / waves_m
//   weight rows. Block: waves_m x (waves / waves_m) waves, each owning a
//   (tile_m / waves_m) x rows_per_wave warp tile of m16 x n8 f32
//   accumulators.
// - LDS: `stages` buffers of both operands per K step of 64: the
//   activations as tile_m rows of 128 bytes, 16-byte chunks XOR-swizzled by
//   row (conflict-free ldmatrix), the packed weights as tile_n rows of 32
//   bytes padded to 48 (the 8 rows of an n8 tile read distinct banks). Both
//   are copied with 16-byte cp.async (TileCopy.h); an activation chunk past
//   M or K is zero-filled, weight rows past N are read clamped.
// - K loop: the GEMM's cp.async pipeline (MatmulTilePipeline.cpp): stages -
//   1 steps in flight, one barrier a step, the stage freed by the previous
//   step refilled. Per k16 a wave loads its A fragments with ldmatrix.x4
//   (MatrixCore.h) and, per n8 tile, 8 bytes of its weight row g = lane / 4
//   (k16 of the row, shared by the 4 lanes of the row): byte t = lane % 4 of
//   each 32-bit word holds k = 2t, 2t + 1 (low, high nibble), so
//   prmt(w, w >> 4: bytes t, -, 4 + t, -) & 0x000F000F | magic is the pair
//   of 16-bit floats (magic + q[2t], magic + q[2t + 1]) the B fragment's
//   register wants (word 0: b0 b1, word 1: b2 b3). Minus the pair (magic +
//   z) it is q - z exactly, times the scale pair: one rounding, the bf16 /
//   f16 weight, as in MatmulW4A16MatrixCore.cpp. The scales and zero points
//   of the next step are loaded (loop-carried) during the current one.
//   Each weight is dequantized by the waves_m waves that share its column.
// - split_k > 1: the partials meet in a workspace global of the kernel's
//   module and the last workgroup of a tile sums them in rank order, as in
//   MatmulW4A16MatrixCore.cpp.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "Matmul.h"
#include "MatrixCore.h"
#include "PtxBitOps.h"
#include "TileCopy.h"
#include "TileIndexing.h"
#include "Workspace.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulW4A16Schedule.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;

/// Concatenates 1-D vectors of one element type.
static Value concatVectors(OpBuilder &b, Location loc, ArrayRef<Value> parts) {
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

LogicalResult mlir::hkg::lowerMatmulW4A16Tiled(MatmulW4A16Op op,
                                               KernelContext &kc) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  MatmulW4A16Schedule s = MatmulW4A16Schedule::decode(kc.schedule);
  if (!w4a16HasTiledKernel(s.mma))
    return op.emitOpError("schedule knob 'stages' = ")
           << s.stages << " needs a matrix-core mma";
  bool nv = s.mma.family == MmaFamily::MmaSync;
  if (!nv && s.stages != 2)
    return op.emitOpError("schedule knob 'stages' = ")
           << s.stages << " on AMD, expected 2 (register-staged double buffer)";
  IndexArith ix(b, loc);
  int64_t m = op.getM(), n = op.getN(), k = op.getK();
  int64_t groupSize = op.getGroupSize();
  int64_t wave = kc.waveSize();
  int64_t waves = s.threads / wave;
  int64_t wavesN = waves / s.wavesM;
  int64_t tm = s.tileM, tn = s.tileN(wave), tk = kW4A16TileK;
  int64_t warpM = tm / s.wavesM, warpN = s.rowsPerWave;
  int64_t mmaN = s.mma.n;
  int64_t mTiles = warpM / 16, nTiles = warpN / mmaN;
  // AMD: k values a lane holds of one instruction's row, and f32
  // accumulator elements a lane holds of one tile.
  int64_t kPer = nv ? 0 : 256 / wave;
  int64_t accPer = nv ? 4 : 256 / wave;
  int64_t stages = s.stages;
  int64_t numK = llvm::divideCeil(k, tk);
  int64_t perSplit = llvm::divideCeil(numK, s.splitK);
  int64_t tilesM = llvm::divideCeil(m, tm), tilesN = llvm::divideCeil(n, tn);
  kc.grid = {tilesM, s.splitK, tilesN};
  kc.block = {s.threads, 1, 1};

  Type elemT = op.getInput().getType().getElementType();
  Type resultType = op.getResult().getType().getElementType();
  Type f32 = b.getF32Type(), i32 = b.getI32Type(), i8 = b.getI8Type();
  int64_t elemBytes = elemT.getIntOrFloatBitWidth() / 8;
  int64_t xVw = 16 / elemBytes;
  Value x = kc.args[0], w = kc.args[1], scales = kc.args[2], zeros = kc.args[3],
        out = kc.args[4];

  // LDS: activations [stages][tm][tk] (16-byte chunks swizzled by row),
  // packed weights [stages][tn][tk / 2 + pad] bytes.
  int64_t wRowBytes = tk / 2 + kW4A16WeightRowPad;
  Value xs = kc.addLds({stages, tm, tk}, elemT);
  Value ws = kc.addLds({stages, tn, wRowBytes}, i8);
  int64_t xChunks = tk / xVw;
  auto swizzle = [&](Value row, Value col) {
    // The 16-byte chunk of `col` XOR the row's phase (row % chunks a row).
    Value chunk = ix.div(col, xVw);
    Value phys = arith::XOrIOp::create(b, loc, chunk, ix.rem(row, xChunks));
    return ix.add(ix.mul(phys, xVw), ix.rem(col, xVw));
  };

  Value tid = threadIdX(b, loc);
  Value lane = ix.rem(tid, wave);
  Value waveId = ix.div(tid, wave);
  Value waveRow = ix.mul(ix.div(waveId, wavesN), warpM);
  Value waveCol = ix.mul(ix.rem(waveId, wavesN), warpN);
  Value mTile = blockIdX(b, loc);
  Value rank = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value nTile = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value m0 = ix.mul(mTile, tm), n0 = ix.mul(nTile, tn);
  Value firstStep = ix.mul(rank, perSplit);
  Value zero = ix.c(0);

  // Which bounds a copy must check: activation rows past M, k past K (K
  // not a multiple of the step, or a slice running past the last step),
  // weight rows past N. Unchecked ones cost no per-step index math.
  bool checkM = m % tm != 0, checkN = n % tn != 0;
  bool checkK = k % tk != 0 || perSplit * s.splitK != numK;
  auto chunkValid = [&](Value gm, Value gk) {
    return ix.andI(checkM ? ix.lt(gm, m) : Value(),
                   checkK ? ix.lt(gk, k) : Value());
  };
  auto weightIndices = [&](Value row, Value col, Value k0) {
    Value gn = ix.add(n0, row);
    if (checkN)
      gn = arith::MinUIOp::create(b, loc, gn, ix.c(n - 1));
    Value gb = ix.add(ix.div(k0, 2), col);
    if (checkK)
      gb = arith::MinUIOp::create(b, loc, gb, ix.c(k / 2 - 16));
    return SmallVector<Value>{gn, gb};
  };

  // cp.async of K step `kt` (global, possibly past K) into `stage`.
  auto issueCopies = [&](Value kt, Value stage) {
    SmallVector<Value> tokens;
    Value k0 = ix.mul(kt, tk);
    forEachCopyChunk(ix, tid, s.threads, tm, tk, xVw,
                     ChunkRowIndexing::RowOffset, [&](Value row, Value col) {
                       Value gm = ix.add(m0, row), gk = ix.add(k0, col);
                       Value valid = chunkValid(gm, gk);
                       Value srcElements;
                       if (valid) {
                         srcElements = ix.select(valid, ix.c(xVw), zero);
                         gm = ix.select(valid, gm, zero);
                         gk = ix.select(valid, gk, zero);
                       }
                       tokens.push_back(asyncCopyChunk(
                           b, loc, xs,
                           ValueRange{stage, row, swizzle(row, col)}, x,
                           ValueRange{gm, gk}, xVw, srcElements));
                     });
    forEachCopyChunk(ix, tid, s.threads, tn, tk / 2, 16,
                     ChunkRowIndexing::RowOffset, [&](Value row, Value col) {
                       tokens.push_back(asyncCopyChunk(
                           b, loc, ws, ValueRange{stage, row, col}, w,
                           weightIndices(row, col, k0), 16));
                     });
    return commitAsyncCopies(b, loc, tokens);
  };
  // AMD: step `kt`'s chunks into registers (zero past M or K), then into
  // `stage`.
  auto loadToRegisters = [&](Value kt) {
    SmallVector<Value> regs;
    Value k0 = ix.mul(kt, tk);
    forEachCopyChunk(
        ix, tid, s.threads, tm, tk, xVw, ChunkRowIndexing::RowOffset,
        [&](Value row, Value col) {
          Value gm = ix.add(m0, row), gk = ix.add(k0, col);
          Value valid = chunkValid(gm, gk);
          if (!valid) {
            regs.push_back(loadChunk(b, loc, x, ValueRange{gm, gk}, xVw));
            return;
          }
          Value v = loadChunk(b, loc, x,
                              ValueRange{ix.select(valid, gm, zero),
                                         ix.select(valid, gk, zero)},
                              xVw);
          Value z = arith::ConstantOp::create(b, loc, v.getType(),
                                              b.getZeroAttr(v.getType()));
          regs.push_back(arith::SelectOp::create(b, loc, valid, v, z));
        });
    forEachCopyChunk(
        ix, tid, s.threads, tn, tk / 2, 16, ChunkRowIndexing::RowOffset,
        [&](Value row, Value col) {
          regs.push_back(loadChunk(b, loc, w, weightIndices(row, col, k0), 16));
        });
    return regs;
  };
  auto storeRegisters = [&](ArrayRef<Value> regs, Value stage) {
    unsigned i = 0;
    forEachCopyChunk(ix, tid, s.threads, tm, tk, xVw,
                     ChunkRowIndexing::RowOffset, [&](Value row, Value col) {
                       storeChunk(b, loc, regs[i++], xs,
                                  ValueRange{stage, row, swizzle(row, col)});
                     });
    forEachCopyChunk(
        ix, tid, s.threads, tn, tk / 2, 16, ChunkRowIndexing::RowOffset,
        [&](Value row, Value col) {
          storeChunk(b, loc, regs[i++], ws, ValueRange{stage, row, col});
        });
  };

  // This lane's weight rows (one per n8 tile: row g), clamped, and the
  // scales and zero points of step `kt`: per n8 tile, per k16 slice's
  // group (tk / G groups a step, at least 1).
  // mma.sync: g = lane / 4 (the lane's B column, its C row), t = lane % 4;
  // AMD: g = lane % 16 (its A row, B column and C column), t = lane / 16
  // (its k group and C row group).
  Value g = nv ? ix.div(lane, 4) : ix.rem(lane, 16);
  Value t = nv ? ix.rem(lane, 4) : ix.div(lane, 16);
  SmallVector<Value> gRows;
  for (int64_t j = 0; j < nTiles; ++j)
    gRows.push_back(arith::MinUIOp::create(
        b, loc, ix.add(ix.add(ix.add(n0, waveCol), g), mmaN * j), ix.c(n - 1)));
  int64_t groupsPerStep = std::max<int64_t>(1, tk / groupSize);
  int64_t numGroups = k / groupSize;
  auto loadScales = [&](Value kt) {
    SmallVector<Value> sc, zs;
    for (int64_t q = 0; q < groupsPerStep; ++q) {
      Value grp = arith::MinUIOp::create(
          b, loc, ix.add(ix.div(ix.mul(kt, tk), groupSize), q),
          ix.c(numGroups - 1));
      for (Value r : gRows) {
        sc.push_back(memref::LoadOp::create(b, loc, scales, {r, grp}));
        zs.push_back(memref::LoadOp::create(b, loc, zeros, {r, grp}));
      }
    }
    llvm::append_range(sc, zs);
    return sc;
  };
  int64_t numScales = groupsPerStep * nTiles;

  auto accType = VectorType::get({accPer}, f32);
  Value zeroAcc =
      arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType));
  int64_t numAcc = mTiles * nTiles;

  // Prologue: steps 0 .. stages - 2 in flight.
  int64_t ahead = stages - 1;
  Value token;
  if (nv) {
    for (int64_t st = 0; st < ahead; ++st)
      token = issueCopies(
          ix.add(firstStep, std::min<int64_t>(st, perSplit - 1)), ix.c(st));
  } else {
    storeRegisters(loadToRegisters(firstStep), zero);
    gpu::BarrierOp::create(b, loc);
  }
  SmallVector<Value> init(numAcc, zeroAcc);
  llvm::append_range(init, loadScales(firstStep));

  bool isBf16 = elemT.isBF16();
  int64_t magic = isBf16 ? 0x4300 : 0x6400;
  auto pairType = VectorType::get({2}, elemT);
  auto i32x1 = VectorType::get({1}, i32);
  auto toPair = [&](Value word) -> Value {
    return vector::BitCastOp::create(
        b, loc, pairType, vector::BroadcastOp::create(b, loc, i32x1, word));
  };
  // AMD: the word of the k16 slice's 8 bytes that holds the lane's kPer / 2
  // bytes (from byte kPer t / 2), and the first one's bit offset in it.
  // prmt selector: byte 0 = byte t of the word, byte 2 = byte t of the
  // word >> 4 (the high nibble in the low half of the byte).
  Value prmtSel = arith::IndexCastOp::create(
      b, loc, i32, ix.add(t, ix.mul(ix.add(t, 4), 256)));
  Value laneByte = ix.div(ix.mul(t, std::max<int64_t>(kPer, 1)), 2);
  Value wordOfLane = ix.div(laneByte, 4);
  Value shiftOfLane =
      arith::IndexCastOp::create(b, loc, i32, ix.mul(ix.rem(laneByte, 4), 8));
  auto aType = VectorType::get({4, 2}, elemT);
  auto bType = VectorType::get({2, 2}, elemT);
  Value r8 = ix.rem(lane, 8), jm = ix.div(lane, 8);
  Value jLow = ix.rem(jm, 2), jHigh = ix.div(jm, 2);

  auto loop = scf::ForOp::create(
      b, loc, zero, ix.c(perSplit), ix.c(1), init,
      [&](OpBuilder &nb, Location l, Value kt, ValueRange iter) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        SmallVector<Value> acc(iter.begin(), iter.begin() + numAcc);
        ValueRange raw = iter.drop_front(numAcc);
        Value step = ix.add(firstStep, kt);
        // The next step's scales and zero points (clamped past the end).
        SmallVector<Value> nextRaw = loadScales(
            ix.add(firstStep, arith::MinUIOp::create(b, l, ix.add(kt, 1),
                                                     ix.c(perSplit - 1))));
        Value stage = ix.rem(kt, stages);
        SmallVector<Value> nextRegs;
        if (!nv) {
          // The next step's chunks, in flight while this one is multiplied.
          nextRegs = loadToRegisters(
              ix.add(firstStep, arith::MinUIOp::create(b, l, ix.add(kt, 1),
                                                       ix.c(perSplit - 1))));
        } else if (stages > 1) {
          nvgpu::DeviceAsyncWaitOp::create(b, l, token,
                                           b.getI32IntegerAttr(ahead - 1));
          gpu::BarrierOp::create(b, l);
          Value next = ix.add(kt, ahead);
          Value tile = arith::MinUIOp::create(b, l, next, ix.c(perSplit - 1));
          issueCopies(ix.add(firstStep, tile), ix.rem(next, stages));
        } else {
          gpu::BarrierOp::create(b, l);
          Value tok = issueCopies(step, zero);
          nvgpu::DeviceAsyncWaitOp::create(b, l, tok, b.getI32IntegerAttr(0));
          gpu::BarrierOp::create(b, l);
        }

        // Per group of the step: the scale pairs and the (magic + zero)
        // pairs of the lane's rows.
        SmallVector<Value> scale2, zero2;
        for (int64_t q = 0; q < numScales; ++q) {
          scale2.push_back(vector::BroadcastOp::create(b, l, pairType, raw[q]));
          Value z = arith::ExtUIOp::create(b, l, i32, raw[numScales + q]);
          z = arith::OrIOp::create(
              b, l, arith::AndIOp::create(b, l, z, constI32(b, l, 15)),
              constI32(b, l, magic));
          z = arith::MulIOp::create(b, l, z, constI32(b, l, 0x10001));
          zero2.push_back(toPair(z));
        }
        Value mask = constI32(b, l, 0xF), maskHigh = constI32(b, l, 0xF0000);
        Value magic2 = constI32(b, l, magic * 0x10001);
        Value twelve = constI32(b, l, 12);
        // mma.sync: one prmt gathers the lane's two nibbles (k = 2t, 2t + 1)
        // into the two halves: (magic + q[2t], magic + q[2t + 1]).
        Value four = constI32(b, l, 4);
        auto dequantPrmt = [&](Value word, int64_t q) -> Value {
          Value hi = arith::ShRUIOp::create(b, l, word, four);
          Value d = permuteBytes(b, l, word, hi, prmtSel);
          Value p = andOr(b, l, d, 0x000F000F, magic * 0x10001);
          Value h = arith::SubFOp::create(b, l, toPair(p), zero2[q]);
          return arith::MulFOp::create(b, l, h, scale2[q]);
        };
        auto dequant = [&](Value word, Value sh, int64_t q) -> Value {
          Value v = arith::ShRUIOp::create(b, l, word, sh);
          Value lo = arith::AndIOp::create(b, l, v, mask);
          Value hi = arith::AndIOp::create(
              b, l, arith::ShLIOp::create(b, l, v, twelve), maskHigh);
          Value p = arith::OrIOp::create(
              b, l, arith::OrIOp::create(b, l, lo, hi), magic2);
          Value h = arith::SubFOp::create(b, l, toPair(p), zero2[q]);
          return arith::MulFOp::create(b, l, h, scale2[q]);
        };

        for (int64_t kk = 0; kk < tk && !nv; kk += 16) {
          int64_t grp = groupsPerStep > 1 ? kk / groupSize : 0;
          // A: kPer k of activation row g of each m16 tile, one LDS read.
          SmallVector<Value> aFrag;
          Value col = ix.add(ix.mul(t, kPer), kk);
          for (int64_t i = 0; i < mTiles; ++i) {
            Value row = ix.add(ix.add(waveRow, 16 * i), g);
            aFrag.push_back(vector::LoadOp::create(
                b, l, VectorType::get({kPer}, elemT), xs,
                ValueRange{stage, row, swizzle(row, col)},
                /*nontemporal=*/false, llvm::MaybeAlign(kPer * elemBytes)));
          }
          for (int64_t j = 0; j < nTiles; ++j) {
            // B: the same k of weight row g of n16 tile j: the 32-bit word
            // holding them, a pair a byte.
            Value row = ix.add(ix.add(waveCol, mmaN * j), g);
            Value bytes = vector::LoadOp::create(
                b, l, VectorType::get({4}, i8), ws,
                ValueRange{stage, row, ix.add(ix.mul(wordOfLane, 4), kk / 2)},
                /*nontemporal=*/false, llvm::MaybeAlign(4));
            Value word = vector::ExtractOp::create(
                b, l,
                vector::BitCastOp::create(b, l, VectorType::get({1}, i32),
                                          bytes),
                0);
            int64_t q = grp * nTiles + j;
            SmallVector<Value> pairs;
            for (int64_t p = 0; p < kPer / 2; ++p)
              pairs.push_back(
                  dequant(word,
                          p ? arith::AddIOp::create(b, l, shiftOfLane,
                                                    constI32(b, l, 8 * p))
                                  .getResult()
                            : shiftOfLane,
                          q));
            Value bv = concatVectors(b, l, pairs);
            for (int64_t i = 0; i < mTiles; ++i) {
              Value &av = acc[i * nTiles + j];
              if (s.mma.family == MmaFamily::Mfma)
                av = amdgpu::MFMAOp::create(b, l, accType, s.mma.m, s.mma.n,
                                            s.mma.k, /*blocks=*/1, aFrag[i], bv,
                                            av);
              else
                av = amdgpu::WMMAOp::create(b, l, accType, s.mma.m, s.mma.n,
                                            s.mma.k, aFrag[i], bv, av);
            }
          }
        }
        for (int64_t kk = 0; kk < tk && nv; kk += 16) {
          int64_t grp = groupsPerStep > 1 ? kk / groupSize : 0;
          // A: the wave's m16 tiles, ldmatrix.x4 (matrices: m 0-7 / 8-15
          // x k 0-7 / 8-15).
          SmallVector<Value> aFrag;
          for (int64_t i = 0; i < mTiles; ++i) {
            Value row =
                ix.add(ix.add(ix.add(waveRow, 16 * i), r8), ix.mul(jLow, 8));
            Value col = ix.add(ix.mul(jHigh, 8), kk);
            aFrag.push_back(nvgpu::LdMatrixOp::create(
                b, l, aType, xs, ValueRange{stage, row, swizzle(row, col)},
                /*transpose=*/false, 4));
          }
          for (int64_t j = 0; j < nTiles; ++j) {
            // B: 8 bytes (k16) of weight row g of n8 tile j.
            Value row = ix.add(ix.add(waveCol, 8 * j), g);
            Value bytes = vector::LoadOp::create(
                b, l, VectorType::get({8}, i8), ws,
                ValueRange{stage, row, ix.c(kk / 2)}, /*nontemporal=*/false,
                llvm::MaybeAlign(8));
            Value words = vector::BitCastOp::create(
                b, l, VectorType::get({2}, i32), bytes);
            int64_t q = grp * nTiles + j;
            Value p0 =
                dequantPrmt(vector::ExtractOp::create(b, l, words, 0), q);
            Value p1 =
                dequantPrmt(vector::ExtractOp::create(b, l, words, 1), q);
            Value bf =
                arith::ConstantOp::create(b, l, bType, b.getZeroAttr(bType));
            bf = vector::InsertOp::create(b, l, p0, bf, 0);
            bf = vector::InsertOp::create(b, l, p1, bf, 1);
            for (int64_t i = 0; i < mTiles; ++i) {
              Value &av = acc[i * nTiles + j];
              av = mmaSyncM16N8K16(b, l, aFrag[i], bf, av);
            }
          }
        }
        if (!nv) {
          // The next step into the other buffer (read by no wave during
          // this step), published by the step's one barrier.
          storeRegisters(nextRegs, ix.rem(ix.add(kt, 1), stages));
          gpu::BarrierOp::create(b, l);
        }
        SmallVector<Value> yield = acc;
        llvm::append_range(yield, nextRaw);
        scf::YieldOp::create(b, l, yield);
      });
  if (nv && stages > 1)
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(0));
  SmallVector<Value> acc(loop.getResults().begin(),
                         loop.getResults().begin() + numAcc);

  // Stores: c0 c1 at (row g, columns 2t, 2t + 1) of the m16 x n8 tile, c2
  // c3 8 rows below; a pair in one access when the tile is in bounds.
  bool aligned = m % tm == 0 && n % tn == 0;
  Value t2 = ix.mul(t, 2);
  // AMD: element e at row accPer t + e, column g of the 16 x 16 tile.
  auto storeAmd = [&](ArrayRef<Value> sums) {
    for (int64_t i = 0; i < mTiles; ++i)
      for (int64_t j = 0; j < nTiles; ++j)
        for (int64_t e = 0; e < accPer; ++e) {
          Value gm = ix.add(ix.add(ix.add(m0, waveRow), ix.mul(t, accPer)),
                            16 * i + e);
          Value gn = ix.add(ix.add(ix.add(n0, waveCol), g), mmaN * j);
          Value v = fromF32(
              b, loc,
              vector::ExtractOp::create(b, loc, sums[i * nTiles + j], e),
              resultType);
          if (aligned) {
            memref::StoreOp::create(b, loc, v, out, {gm, gn});
            continue;
          }
          emitIfThen(b, loc, ix.andI(ix.lt(gm, m), ix.lt(gn, n)), [&] {
            memref::StoreOp::create(b, loc, v, out, {gm, gn});
          });
        }
  };
  auto store = [&](ArrayRef<Value> sums) {
    if (!nv)
      return storeAmd(sums);
    for (int64_t i = 0; i < mTiles; ++i)
      for (int64_t j = 0; j < nTiles; ++j)
        for (int64_t h = 0; h < 2; ++h) {
          Value gm = ix.add(ix.add(ix.add(m0, waveRow), g), 16 * i + 8 * h);
          Value gn = ix.add(ix.add(ix.add(n0, waveCol), t2), 8 * j);
          SmallVector<Value> vals;
          for (int64_t e = 0; e < 2; ++e)
            vals.push_back(fromF32(b, loc,
                                   vector::ExtractOp::create(
                                       b, loc, sums[i * nTiles + j], 2 * h + e),
                                   resultType));
          if (aligned) {
            auto vt = VectorType::get({2}, resultType);
            Value v = vector::FromElementsOp::create(b, loc, vt, vals);
            // gn is even and so is N: the pair is aligned to its size.
            vector::StoreOp::create(
                b, loc, v, out, ValueRange{gm, gn}, /*nontemporal=*/false,
                llvm::MaybeAlign(2 * resultType.getIntOrFloatBitWidth() / 8));
            continue;
          }
          for (int64_t e = 0; e < 2; ++e) {
            Value gne = ix.add(gn, e);
            Value ok = ix.andI(ix.lt(gm, m), ix.lt(gne, n));
            emitIfThen(b, loc, ok, [&] {
              memref::StoreOp::create(b, loc, vals[e], out, {gm, gne});
            });
          }
        }
  };
  if (s.splitK == 1) {
    store(acc);
    return success();
  }

  // Split-K: partials through a workspace global, summed in rank order by
  // the last workgroup of the tile (Workspace.h).
  sumSplitKPartials(kc, tid, s.threads, ix.add(mTile, ix.mul(nTile, tilesM)),
                    tilesM * tilesN, rank, s.splitK, acc, store);
  return success();
}
