//===- MatmulLdsTile.cpp - the matmul kernel's state and LDS tile reads ---===//
//
// The kernel state shared by the tile pipeline and the matrix-core families
// (decoded from the schedule once), and the reads of the LDS operand tiles:
// row padding, the XOR swizzle of 16-byte chunks and wgmma's panels.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "MatmulTilePipeline.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

KernelState::KernelState(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
                         const MatmulSchedule &s, const TargetInfo &target)
    : IndexArith(b, op.getLoc()), kernel(kernel), op(op), target(target) {
  tm = s.tileM;
  tn = s.tileN;
  tk = s.tileK;
  wm = s.wavesM;
  wn = s.wavesN;
  stages = s.stages;
  vw = s.vectorWidth;
  pad = s.ldsPad;
  swizzle = s.ldsSwizzle;
  unroll = s.unroll;
  groupM = s.groupM;
  splitK = s.splitK;
  splitKWorkspace = s.splitKWorkspace;
  wgmmaPending = s.wgmmaPending;
  persistent = s.persistent;
  epilogueLds = s.epilogueLds;
  tf32Split = s.tf32Split;
  wgmmaPromote = s.wgmmaPromote;
  mma = s.mma;
  mmaM = mma.m;
  mmaN = mma.n;
  mmaK = mma.k;
  waveSize = target.waveSize;
  // With wgmma, waves_m x waves_n count warpgroups of 4 waves.
  threads = wm * wn * mma.wavesPerInstruction() * waveSize;
  elemT = op.getLhs().getType().getElementType();
  resT = op.getResult().getType().getElementType();
  accT = op.getAccumulatorType();
  batch = op.getBatchSize();
  m = op.getM();
  n = op.getN();
  k = op.getK();
  transA = op.readsLhsTransposed();
  transB = op.readsRhsTransposed();
  elemBytes = elemT.getIntOrFloatBitWidth() / 8;
  // cp.async moves 4, 8 or 16 bytes.
  async = target.isNVIDIA() && vw * elemBytes >= 4;
}

llvm::MaybeAlign KernelState::align(int64_t len, Type elem) {
  return llvm::MaybeAlign(vectorAlignment(elem, len));
}

/// With the swizzle on, 16-byte chunk j of LDS row r lives at chunk
/// j ^ phase(r), where phase cycles through the chunks of a 128-byte line
/// every 128 bytes of rows: 8 consecutive rows read at the same logical
/// chunk (an ldmatrix, a column of a fragment) hit 8 distinct bank groups.
Value KernelState::physCol(const LdsTile &t, Value row, Value col) {
  if (!t.swizzle)
    return col;
  int64_t chunks = t.cols / t.chunkElems;
  int64_t rowsPerLine = std::max<int64_t>(1, 8 / chunks);
  int64_t phases = std::min<int64_t>(chunks, 8);
  Value phase = rem(div(row, rowsPerLine), phases);
  Value chunk = div(col, t.chunkElems);
  Value within = rem(col, t.chunkElems);
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, phase);
  return add(mul(swizzled, t.chunkElems), within);
}

std::pair<Value, Value> KernelState::ldsIndex(const LdsTile &t, Value row,
                                              Value col) {
  if (t.kRowsInterleaved) {
    // K row 8q + r at 8q + 2 (r % 4) + r / 4.
    Value r = rem(row, 8);
    row = add(add(mul(div(row, 8), 8), mul(rem(r, 4), 2)), div(r, 4));
  }
  if (t.panelCols) {
    row = add(mul(div(col, t.panelCols), t.tileRows()), row);
    col = rem(col, t.panelCols);
  }
  return {row, physCol(t, row, col)};
}

Value KernelState::loadLds(const LdsTile &t, Value stage, Value row, Value col,
                           int64_t len) {
  Value pc = physCol(t, row, col);
  if (len == 1)
    return memref::LoadOp::create(b, loc, t.buf, ValueRange{stage, row, pc});
  auto vt = VectorType::get({len}, elemT);
  return vector::LoadOp::create(b, loc, vt, t.buf, ValueRange{stage, row, pc},
                                /*nontemporal=*/false, align(len, elemT));
}

Value KernelState::loadAlongK(const LdsTile &t, bool kContiguous, Value stage,
                              Value mn, Value k0, int64_t len) {
  auto vt = VectorType::get({len}, elemT);
  if (kContiguous) {
    // Split at 16-byte chunks (the swizzle unit).
    int64_t piece = std::min(len, t.chunkElems);
    if (piece == len)
      return loadLds(t, stage, mn, k0, len);
    // Concatenate the chunks with shuffles (insert_strided_slice has no
    // direct LLVM lowering in the GPU conversions).
    SmallVector<Value> parts;
    for (int64_t i = 0; i < len; i += piece)
      parts.push_back(loadLds(t, stage, mn, add(k0, i), piece));
    while (parts.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i < parts.size(); i += 2) {
        int64_t w = cast<VectorType>(parts[i].getType()).getNumElements();
        SmallVector<int64_t> mask =
            llvm::to_vector(llvm::seq<int64_t>(0, 2 * w));
        next.push_back(
            vector::ShuffleOp::create(b, loc, parts[i], parts[i + 1], mask));
      }
      parts = std::move(next);
    }
    return parts.front();
  }
  SmallVector<Value> elems;
  for (int64_t i = 0; i < len; ++i)
    elems.push_back(loadLds(t, stage, add(k0, i), mn, 1));
  return vector::FromElementsOp::create(b, loc, vt, elems);
}
