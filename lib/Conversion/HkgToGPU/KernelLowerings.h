//===- KernelLowerings.h - the registry of kernel lowerings -----*- C++ -*-===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_KERNELLOWERINGS_H
#define HKG_LIB_CONVERSION_HKGTOGPU_KERNELLOWERINGS_H

#include "GPUBuildingBlocks.h"

#include "hkg/Support/OpRegistry.h"

namespace mlir::hkg {

/// Fills the body of an op's gpu.func (KernelContext) or emits an error on
/// the op.
using KernelLoweringRegistry =
    ::hkg::OpRegistry<LogicalResult(Operation *, KernelContext &)>;

/// Every family's lowering (KernelLowerings.def).
const KernelLoweringRegistry &getKernelLowerings();

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_KERNELLOWERINGS_H
