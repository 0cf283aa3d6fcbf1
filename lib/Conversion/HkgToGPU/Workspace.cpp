//===- Workspace.cpp - global workspaces and arrival counters -------------===//

#include "Workspace.h"

#include "GPUBuildingBlocks.h"
#include "TileIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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

CombineWorkspace mlir::hkg::getCombineWorkspace(
    OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, StringRef tag,
    ArrayRef<int64_t> partialShape, ArrayRef<int64_t> counterShape) {
  auto global =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Global);
  std::string prefix = (kernel.getName() + "_" + tag).str();
  auto type = [&](ArrayRef<int64_t> shape, Type elem) {
    return MemRefType::get(shape, elem, MemRefLayoutAttrInterface(), global);
  };
  return {getModuleGlobal(b, loc, kernel, prefix + "_partials",
                          type(partialShape, b.getF32Type()), /*zero=*/false),
          getModuleGlobal(b, loc, kernel, prefix + "_arrivals",
                          type(counterShape, b.getI32Type()), /*zero=*/true)};
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

void mlir::hkg::sumSplitKPartials(KernelContext &kc, Value tid, int64_t threads,
                                  Value tileIndex, int64_t numTiles, Value rank,
                                  int64_t splitK, ArrayRef<Value> acc,
                                  function_ref<void(ArrayRef<Value>)> store) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  IndexArith ix(b, loc);
  auto accType = cast<VectorType>(acc.front().getType());
  int64_t width = accType.getNumElements();
  Type i32 = b.getI32Type();
  int64_t slot = static_cast<int64_t>(acc.size()) * width * threads;
  CombineWorkspace workspace = getCombineWorkspace(
      b, loc, kc.func, "split_k", {numTiles, splitK, slot}, {numTiles});
  Value ws = workspace.partials, arrivals = workspace.arrivals;
  Value isLastLds = kc.addLds({1}, i32, 4);
  auto elem = [&](int64_t i) {
    return ix.mul(ix.add(tid, i * threads), width);
  };
  auto align = llvm::MaybeAlign(std::min<int64_t>(16, 4 * width));
  for (int64_t i = 0, e = acc.size(); i < e; ++i)
    vector::StoreOp::create(b, loc, acc[i], ws,
                            ValueRange{tileIndex, rank, elem(i)},
                            /*nontemporal=*/false, align);
  Value isLast = arriveAndTestLast(
      b, loc, kc.target, tid, arrivals,
      [&]() -> SmallVector<Value> { return {tileIndex}; }, splitK, isLastLds);
  emitIfThen(b, loc, isLast, [&] {
    deviceFence(b, loc, kc.target, LLVM::AtomicOrdering::acquire);
    Value zero =
        arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType));
    SmallVector<Value> sums;
    for (int64_t i = 0, e = acc.size(); i < e; ++i) {
      Value at = elem(i);
      auto sumLoop = scf::ForOp::create(
          b, loc, ix.c(0), ix.c(splitK), ix.c(1), ValueRange{zero},
          [&](OpBuilder &nb, Location l, Value r, ValueRange sum) {
            Value v = vector::LoadOp::create(nb, l, accType, ws,
                                             ValueRange{tileIndex, r, at},
                                             /*nontemporal=*/false, align);
            scf::YieldOp::create(
                nb, l, ValueRange{arith::AddFOp::create(nb, l, sum[0], v)});
          });
      disableLLVMUnroll(sumLoop);
      sums.push_back(sumLoop.getResult(0));
    }
    store(sums);
  });
}
