//===- Workspace.cpp - global workspaces and arrival counters -------------===//

#include "Workspace.h"

#include "GPUBuildingBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::hkg;

void mlir::hkg::deviceFence(OpBuilder &b, Location loc,
                            const TargetInfo &target,
                            LLVM::AtomicOrdering ordering) {
  LLVM::FenceOp::create(b, loc, ordering, target.isAMD() ? "agent" : "device");
}

Value mlir::hkg::getModuleGlobal(OpBuilder &b, Location loc,
                                 gpu::GPUFuncOp kernel, StringRef name,
                                 MemRefType type, bool zero) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    Attribute init = b.getUnitAttr();
    if (zero)
      init = DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), type.getElementType()),
          b.getZeroAttr(type.getElementType()));
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type,
                             init, /*constant=*/false, b.getI64IntegerAttr(16));
  }
  return memref::GetGlobalOp::create(b, loc, type, name);
}

Value mlir::hkg::arriveAndTestLast(OpBuilder &b, Location loc,
                                   const TargetInfo &target, Value tid,
                                   Value counters,
                                   function_ref<SmallVector<Value>()> indices,
                                   int64_t arrivals, Value flagLds) {
  auto i32Const = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  // Publish the partial before the arrival is counted.
  deviceFence(b, loc, target, LLVM::AtomicOrdering::release);
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> at = indices();
  Value zeroIndex = constIndex(b, loc, 0);
  Value isFirstThread =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zeroIndex);
  emitIfThen(b, loc, isFirstThread, [&] {
    Value before = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addi, i32Const(1), counters, at);
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, before,
                                       i32Const(arrivals - 1));
    // The last arrival leaves the counter at 0 for the next launch.
    emitIfThen(b, loc, last, [&] {
      memref::StoreOp::create(b, loc, i32Const(0), counters, at);
    });
    memref::StoreOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), last), flagLds,
        ValueRange{zeroIndex});
  });
  gpu::BarrierOp::create(b, loc);
  Value flag = memref::LoadOp::create(b, loc, flagLds, ValueRange{zeroIndex});
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flag,
                               i32Const(0));
}
