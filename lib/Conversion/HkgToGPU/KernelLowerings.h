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

/// Whether an op's lowering reads operand #i, a slice view, as the strided
/// memref `view` in its `kc.args` (KernelLowerings.def).
using SliceViewSupportRegistry =
    ::hkg::OpRegistry<bool(Operation *, unsigned, MemRefType)>;

/// Every family's slice-view support (KernelLowerings.def).
const SliceViewSupportRegistry &getSliceViewSupport();

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_KERNELLOWERINGS_H
