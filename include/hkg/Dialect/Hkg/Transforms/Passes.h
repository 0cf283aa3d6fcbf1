//===- Passes.h - hkg dialect passes ----------------------------*- C++ -*-===//

#ifndef HKG_DIALECT_HKG_TRANSFORMS_PASSES_H
#define HKG_DIALECT_HKG_TRANSFORMS_PASSES_H

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

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

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_TRANSFORMS_PASSES_H
