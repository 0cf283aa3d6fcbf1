//===- OutlineKernelOps.cpp - each hkg kernel op in a function of its own -===//
//
// A host that runs each hkg kernel op as one call of its own (IREE runs it
// as a custom dispatch, docs/IREE.md) and computes everything else itself
// needs the hkg ops apart from the rest: this pass moves each into a private
// function `@<function>_hkg_<n>` holding the static view ops of its operands
// (so the kernel reads the views' roots in place) and the op, and calls it.
// hkg-compile then writes a launch plan for each such function, which is
// all hkg ops.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/IR/SliceViews.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "hkg-outline-kernel-ops"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGOUTLINEKERNELOPSPASS
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;

/// Whether `op` is a view op of static shapes the outlined function can take
/// over: the kernel reads its root in place (or hkg-lower-to-gpu copies the
/// slice, inside the outlined function).
static bool isStaticViewOp(Operation *op) {
  if (!op || !isTensorViewOp(op) || op->getNumResults() != 1)
    return false;
  auto isStatic = [](Type t) {
    auto shaped = dyn_cast<RankedTensorType>(t);
    return shaped && shaped.hasStaticShape();
  };
  if (!isStatic(op->getResult(0).getType()) ||
      !isStatic(op->getOperand(0).getType()))
    return false;
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return slice.getOffsets().empty() && slice.getSizes().empty() &&
           slice.getStrides().empty() && slice.hasUnitStride();
  return true;
}

/// The view ops above `value`, root reader first, and the root (the first
/// value above them no static view op defines).
static Value collectViewChain(Value value, SmallVectorImpl<Operation *> &ops) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isStaticViewOp(def))
      break;
    ops.push_back(def);
    value = def->getOperand(0);
  }
  std::reverse(ops.begin(), ops.end());
  return value;
}

namespace mlir::hkg {
namespace {
struct HkgOutlineKernelOpsPass final
    : impl::HkgOutlineKernelOpsPassBase<HkgOutlineKernelOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal() ||
          func->hasAttr(HkgDialect::OutlinedAttrHelper::getNameStr()))
        continue;
      SmallVector<HkgKernelOpInterface> kernelOps;
      for (Block &block : func.getBody())
        for (Operation &op : block)
          if (auto kernel = dyn_cast<HkgKernelOpInterface>(&op))
            kernelOps.push_back(kernel);
      // The new functions follow `func`, in the order of its kernel ops.
      Operation *insertAfter = func;
      for (auto [n, kernel] : llvm::enumerate(kernelOps)) {
        FailureOr<func::FuncOp> outlined =
            outline(kernel, func, n, insertAfter, symbols);
        if (failed(outlined))
          return signalPassFailure();
        insertAfter = *outlined;
      }
    }
  }

  /// Moves `kernel` (the `n`th kernel op of `func`) into a new function,
  /// placed after `insertAfter`.
  FailureOr<func::FuncOp> outline(HkgKernelOpInterface kernel,
                                  func::FuncOp func, size_t n,
                                  Operation *insertAfter,
                                  SymbolTable &symbols) {
    Operation *op = kernel.getOperation();
    // Values the regions read from above: constants are copied, anything
    // else cannot move with the op.
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    for (Value v : above) {
      if (v.getDefiningOp<arith::ConstantOp>())
        continue;
      InFlightDiagnostic diag = op->emitOpError("has a region that reads ");
      if (auto arg = dyn_cast<BlockArgument>(v))
        diag << "argument #" << arg.getArgNumber() << " of its function";
      else
        diag << "the result of '" << v.getDefiningOp()->getName() << "'";
      diag << ", defined outside it and no constant: the op cannot move into "
              "a function of its own";
      return failure();
    }

    // The function's arguments: each operand's view root, once.
    SmallVector<Value> roots;
    SmallVector<SmallVector<Operation *>> chains;
    for (Value operand : op->getOperands()) {
      SmallVector<Operation *> chain;
      Value root = collectViewChain(operand, chain);
      if (!llvm::is_contained(roots, root))
        roots.push_back(root);
      chains.push_back(std::move(chain));
    }

    OpBuilder builder(func);
    builder.setInsertionPointAfter(insertAfter);
    auto type = builder.getFunctionType(ValueRange(roots).getTypes(),
                                        op->getResultTypes());
    std::string name = (func.getSymName() + "_hkg_" + llvm::Twine(n)).str();
    auto outlined = func::FuncOp::create(builder, op->getLoc(), name, type);
    outlined.setPrivate();
    outlined->setAttr(HkgDialect::OutlinedAttrHelper::getNameStr(),
                      builder.getUnitAttr());
    symbols.insert(outlined); // renames on a clash

    Block *body = outlined.addEntryBlock();
    builder.setInsertionPointToStart(body);
    IRMapping mapping;
    for (auto [root, arg] : llvm::zip(roots, body->getArguments()))
      mapping.map(root, arg);
    for (Value v : above)
      builder.clone(*v.getDefiningOp(), mapping);
    for (ArrayRef<Operation *> chain : chains)
      for (Operation *view : chain)
        if (!mapping.contains(view->getResult(0)))
          builder.clone(*view, mapping);
    Operation *cloned = builder.clone(*op, mapping);
    func::ReturnOp::create(builder, op->getLoc(), cloned->getResults());

    builder.setInsertionPoint(op);
    auto call = func::CallOp::create(builder, op->getLoc(), outlined, roots);
    op->replaceAllUsesWith(call.getResults());
    op->erase();
    // View ops only the op read are gone with it (users before the views
    // they read; chains may share ops).
    llvm::SetVector<Operation *> views;
    for (ArrayRef<Operation *> chain : chains)
      views.insert(chain.begin(), chain.end());
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *view : views) {
        if (!view->use_empty())
          continue;
        views.remove(view);
        view->erase();
        erased = true;
        break;
      }
    }
    return outlined;
  }
};
} // namespace
} // namespace mlir::hkg
