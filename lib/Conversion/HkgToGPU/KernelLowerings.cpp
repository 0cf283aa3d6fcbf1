//===- KernelLowerings.cpp - the table of kernel lowerings ----------------===//
//
// Builds the registries hkg-lower-to-gpu dispatches through from
// KernelLowerings.def: adding an op family adds one line there.
//
//===----------------------------------------------------------------------===//

#include "KernelLowerings.h"
#include "SliceViews.h"

using namespace mlir;
using namespace mlir::hkg;

namespace mlir::hkg {
#define HKG_KERNEL_LOWERING(OP, FN, VIEWS)                                     \
  LogicalResult FN(OP op, KernelContext &kc);
#include "KernelLowerings.def"
} // namespace mlir::hkg

const KernelLoweringRegistry &mlir::hkg::getKernelLowerings() {
  static const KernelLoweringRegistry registry = [] {
    KernelLoweringRegistry r;
#define HKG_KERNEL_LOWERING(OP, FN, VIEWS) r.add<OP>(FN);
#include "KernelLowerings.def"
    return r;
  }();
  return registry;
}

const SliceViewSupportRegistry &mlir::hkg::getSliceViewSupport() {
  static const SliceViewSupportRegistry registry = [] {
    SliceViewSupportRegistry r;
#define HKG_KERNEL_LOWERING(OP, FN, VIEWS)                                     \
  r.add<OP>([](OP op, unsigned operand, MemRefType view) {                     \
    return VIEWS(op, operand, view);                                           \
  });
#include "KernelLowerings.def"
    return r;
  }();
  return registry;
}
