//===- HkgInterfaces.h - HkgKernelOpInterface -------------------*- C++ -*-===//

#ifndef HKG_DIALECT_HKG_IR_HKGINTERFACES_H
#define HKG_DIALECT_HKG_IR_HKGINTERFACES_H

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/ScheduleSpace.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::hkg::detail {
/// Refuses a discardable attribute without a dialect prefix on a kernel op.
LogicalResult verifyKernelOpAttributes(Operation *op);
} // namespace mlir::hkg::detail

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h.inc"

namespace mlir::hkg {

/// Verifies `schedule` for `op` on `target`: every knob must be known to the
/// op, of the right kind and legal on the target, then the op's own
/// constraints must hold. Diagnostics go through `emitError` and name the knob
/// and its legal values.
LogicalResult verifySchedule(HkgKernelOpInterface op, ScheduleAttr schedule,
                             const TargetInfo &target,
                             llvm::function_ref<InFlightDiagnostic()> emitError);

/// Returns the schedule of `op` with defaults filled in for `target`.
/// Precondition: the op's schedule (if any) verified on `target`.
ResolvedSchedule resolveSchedule(HkgKernelOpInterface op,
                                 const TargetInfo &target);

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_HKGINTERFACES_H
