//===- Passes.h - hkg dialect passes ----------------------------*- C++ -*-===//

#ifndef HKG_DIALECT_HKG_TRANSFORMS_PASSES_H
#define HKG_DIALECT_HKG_TRANSFORMS_PASSES_H

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hkg {

#define GEN_PASS_DECL
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"

/// Finds the target for `op`: `chip` when non-empty, else the nearest
/// `hkg.target` attribute on `op` or an enclosing op. Emits an error on `op`
/// naming the problem when there is none or the chip is unknown.
FailureOr<const TargetInfo *> getTargetFor(Operation *op, StringRef chip);

/// Whether `op`, at the top level of a function, is computed by hkg's
/// kernels (an hkg kernel op) or needs no computing (func.return, a scalar
/// arith.constant, a tensor.expand_shape / tensor.collapse_shape: a view of
/// the same bytes; a static tensor.extract_slice read by kernels only: a
/// view kernels read in place, SliceViews.h). hkg-reject-host-ops refuses
/// the others.
bool isComputedByKernels(Operation *op);

/// The ops at the top level of the module's functions that no kernel
/// computes, in order.
SmallVector<Operation *> getHostOps(ModuleOp module);

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_TRANSFORMS_PASSES_H
