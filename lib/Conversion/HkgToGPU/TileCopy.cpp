//===- TileCopy.cpp - cooperative global -> LDS tile copies ---------------===//
//
// See TileCopy.h.
//
//===----------------------------------------------------------------------===//

#include "TileCopy.h"
#include "GPUBuildingBlocks.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;

void mlir::hkg::forEachCopyChunk(IndexArith &ix, Value tid, int64_t threads,
                                 int64_t rows, int64_t cols, int64_t vw,
                                 ChunkRowIndexing indexing,
                                 function_ref<void(Value, Value)> fn) {
  int64_t chunksPerRow = cols / vw;
  int64_t total = rows * chunksPerRow;
  for (int64_t first = 0; first < total; first += threads) {
    Value row, col;
    if (first + threads > total) {
      Value id = arith::MinUIOp::create(ix.b, ix.loc, ix.add(tid, first),
                                        ix.c(total - 1));
      row = ix.div(id, chunksPerRow);
      col = ix.mul(ix.rem(id, chunksPerRow), vw);
    } else if (indexing == ChunkRowIndexing::RowOffset &&
               threads % chunksPerRow == 0) {
      row = ix.add(ix.div(tid, chunksPerRow), first / chunksPerRow);
      col = ix.mul(ix.rem(tid, chunksPerRow), vw);
    } else {
      Value id = ix.add(tid, first);
      row = ix.div(id, chunksPerRow);
      col = ix.mul(ix.rem(id, chunksPerRow), vw);
    }
    fn(row, col);
  }
}

Value mlir::hkg::asyncCopyChunk(OpBuilder &b, Location loc, Value dst,
                                ValueRange dstIndices, Value src,
                                ValueRange srcIndices, int64_t vw,
                                Value srcElements) {
  Type elem = cast<MemRefType>(dst.getType()).getElementType();
  bool wholeLine = vw * elem.getIntOrFloatBitWidth() / 8 == 16;
  return nvgpu::DeviceAsyncCopyOp::create(
      b, loc, dst, dstIndices, src, srcIndices, b.getIndexAttr(vw), srcElements,
      wholeLine ? b.getUnitAttr() : UnitAttr());
}

Value mlir::hkg::commitAsyncCopies(OpBuilder &b, Location loc,
                                   ValueRange tokens) {
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
}

Value mlir::hkg::loadChunk(OpBuilder &b, Location loc, Value src,
                           ValueRange indices, int64_t vw) {
  Type elem = cast<MemRefType>(src.getType()).getElementType();
  auto vt = VectorType::get({vw}, elem);
  return vector::LoadOp::create(b, loc, vt, src, indices,
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(vectorAlignment(elem, vw)));
}

void mlir::hkg::storeChunk(OpBuilder &b, Location loc, Value v, Value dst,
                           ValueRange indices) {
  auto vt = cast<VectorType>(v.getType());
  vector::StoreOp::create(b, loc, v, dst, indices, /*nontemporal=*/false,
                          llvm::MaybeAlign(vectorAlignment(
                              vt.getElementType(), vt.getNumElements())));
}
