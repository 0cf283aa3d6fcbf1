//===- CheckGPUTargets.cpp - no gpu.module compiled for two GPU kinds -----===//
//
// hkg-gpu-to-rocdl met a gpu.module already marked `#nvvm.target` by
// attaching a ROCDL target beside it, then failed in the NVVM serializer
// with a toolkit error, and exited 0. This pass refuses such a module up
// front (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGCHECKGPUTARGETSPASS
#include "hkg/Target/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;

namespace mlir::hkg {
namespace {
struct HkgCheckGPUTargetsPass final
    : impl::HkgCheckGPUTargetsPassBase<HkgCheckGPUTargetsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (kind != "rocdl" && kind != "nvvm") {
      getOperation().emitError("hkg-check-gpu-targets: kind '")
          << kind << "' is not rocdl or nvvm";
      return signalPassFailure();
    }
    bool rocdl = kind == "rocdl";
    WalkResult walk = getOperation().walk([&](gpu::GPUModuleOp module) {
      ArrayAttr targets = module.getTargetsAttr();
      if (!targets)
        return WalkResult::advance();
      for (Attribute target : targets) {
        bool foreign = rocdl ? isa<NVVM::NVVMTargetAttr>(target)
                             : isa<ROCDL::ROCDLTargetAttr>(target);
        if (!foreign)
          continue;
        module.emitError("gpu.module @")
            << module.getName() << " already targets " << target
            << "; the " << (rocdl ? "ROCDL" : "NVVM")
            << " pipeline compiles modules without a target or with "
            << (rocdl ? "#rocdl.target" : "#nvvm.target") << " ones only";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::hkg
