//===- ReductionsBulkStore.cpp - a row group's outputs in one bulk copy ---===//
//
// `bulk_store = 1` (sm_90): the output pass of a row op stages the group's
// rows in LDS (RowEmitter::storeRow); this copies them to the output, which
// holds them contiguously, with one cp.async.bulk from thread 0.
//
//===----------------------------------------------------------------------===//

#include "ReductionsRowEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::rowop;

void RowEmitter::flushBulkStore(Value outArg, bool reuse) {
  if (!bulkStore || !ldsOut)
    return;
  MLIRContext *ctx = b.getContext();
  // Bulk copies and proxy fences need PTX ISA 8.0
  // (hkg-nvvm-arch-specific-target).
  kc.func->setAttr("hkg.ptx80", b.getUnitAttr());
  // Each thread's LDS stores, then the async proxy's reads of them.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(b, loc);
  Type et = cast<MemRefType>(ldsOut.getType()).getElementType();
  int64_t rowBytes = len * (et.getIntOrFloatBitWidth() / 8);
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                        constIndex(b, loc, 0));
  emitIfThen(b, loc, isFirst, [&] {
    Value count = constIndex(b, loc, rpb);
    if (rows % rpb != 0)
      count = arith::MinUIOp::create(
          b, loc, count,
          arith::SubIOp::create(b, loc, constIndex(b, loc, rows),
                                groupFirstRow));
    Type i64 = b.getI64Type();
    auto asI64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(b, loc, i64, index);
    };
    Value bytes = arith::IndexCastOp::create(
        b, loc, b.getI32Type(),
        arith::MulIOp::create(b, loc, count, constIndex(b, loc, rowBytes)));
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, outArg);
    Value dstAddr = arith::AddIOp::create(
        b, loc, base,
        arith::MulIOp::create(b, loc, groupFirstRow,
                              constIndex(b, loc, rowBytes)));
    Value generic = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx), asI64(dstAddr));
    Value dst = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, 1), generic);
    Value src = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, 3),
        asI64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, ldsOut)));
    NVVM::CpAsyncBulkSharedCTAToGlobalOp::create(b, loc, dst, src, bytes,
                                                 /*l2CacheHint=*/Value(),
                                                 /*byteMask=*/Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, /*group=*/0,
                                         /*read=*/UnitAttr::get(ctx));
  });
  if (reuse)
    gpu::BarrierOp::create(b, loc);
}
