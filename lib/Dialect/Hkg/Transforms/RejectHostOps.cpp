//===- RejectHostOps.cpp - no op silently left out of the kernels ---------===//

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/IR/SliceViews.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/DenseSet.h"

#define DEBUG_TYPE "hkg-reject-host-ops"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGREJECTHOSTOPSPASS
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;

bool mlir::hkg::isComputedByKernels(Operation *op) {
  if (isa<HkgKernelOpInterface, func::ReturnOp>(op))
    return true;
  // Reshapes are views: the same bytes under a new shape, no computation
  // (the launch plan records them, docs/ABI.md).
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
    return true;
  // So are static slices that only kernels read: each kernel takes the
  // sliced buffer whole and views it in place (SliceViews.h).
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    std::string why;
    return succeeded(checkSliceView(slice, why));
  }
  // Scalar constants cost nothing and are no tensor to compute.
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return !isa<ShapedType>(c.getType());
  return false;
}

SmallVector<Operation *> mlir::hkg::getHostOps(ModuleOp module) {
  SmallVector<Operation *> hostOps;
  module.walk([&](func::FuncOp func) {
    for (Block &block : func.getBody())
      for (Operation &op : block)
        if (!isComputedByKernels(&op))
          hostOps.push_back(&op);
  });
  return hostOps;
}

/// Whether `op` only makes the inits of other host ops (a tensor.empty, or
/// a destination-style op such as linalg.fill read only as their
/// destinations): it is part of what they compute, and their errors name
/// them.
static bool onlyInitsHostOps(Operation *op,
                             const llvm::DenseSet<Operation *> &hostOps) {
  if (!isa<tensor::EmptyOp, DestinationStyleOpInterface>(op) || op->use_empty())
    return false;
  return llvm::all_of(op->getUses(), [&](OpOperand &use) {
    auto user = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    return user && hostOps.contains(user) && user.isDpsInit(&use);
  });
}

namespace mlir::hkg {
namespace {
struct HkgRejectHostOpsPass final
    : impl::HkgRejectHostOpsPassBase<HkgRejectHostOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> hostOps = getHostOps(getOperation());
    llvm::DenseSet<Operation *> hostSet(hostOps.begin(), hostOps.end());
    for (Operation *op : hostOps) {
      if (allowHostOps) {
        op->emitRemark("'") << op->getName()
                            << "' is left to the caller (allow-host-ops): no "
                               "hkg kernel computes it";
        continue;
      }
      if (onlyInitsHostOps(op, hostSet))
        continue;
      InFlightDiagnostic diag = op->emitError("'");
      diag << op->getName()
           << "' is not an hkg kernel op: no kernel computes it, and it would "
              "be missing from the compiled kernels; express it with hkg ops, "
              "or allow host ops (hkg-compile --allow-host-ops) to leave it to "
              "the caller";
      // A slice that is no view says why.
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
        std::string why;
        (void)checkSliceView(slice, why);
        diag << " (a slice is a view kernels read in place only when static "
                "and read by kernels alone; this one is not: "
             << why << ")";
      }
    }
    if (!allowHostOps && !hostOps.empty())
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::hkg
