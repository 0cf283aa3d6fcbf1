//===- HkgToGPU.cpp - the hkg-dialect part of the codegen pipelines -------===//

#include "hkg/Conversion/Passes.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Target/Passes.h"

using namespace mlir;
using namespace mlir::hkg;

/// The equivalent hkg-opt command line:
///
///   hkg-opt --hkg-raise-linalg --hkg-match-row-ops --hkg-fuse
void mlir::hkg::buildHkgFromLinalgPipeline(OpPassManager &pm) {
  pm.addPass(createHkgRaiseLinalgPass());
  pm.addPass(createHkgMatchRowOpsPass());
  pm.addPass(createHkgFusePass());
}

/// The equivalent hkg-opt command line:
///
///   hkg-opt --hkg-reject-host-ops='allow-host-ops=<allowHostOps>'
///           --hkg-check-gpu-limits='chip=<chip>'
///           --hkg-verify-schedule='chip=<chip> require-schedule=1'
///           --hkg-lower-to-gpu='chip=<chip>'
void mlir::hkg::buildHkgToGPUPipeline(OpPassManager &pm, StringRef chip,
                                      bool allowHostOps) {
  // No op left out of the kernels unnoticed.
  HkgRejectHostOpsPassOptions host;
  host.allowHostOps = allowHostOps;
  pm.addPass(createHkgRejectHostOpsPass(host));
  HkgCheckGPULimitsPassOptions limits;
  limits.chip = chip.str();
  pm.addPass(createHkgCheckGPULimitsPass(limits));
  HkgVerifySchedulePassOptions verify;
  verify.chip = chip.str();
  verify.requireSchedule = true;
  pm.addPass(createHkgVerifySchedulePass(verify));
  HkgLowerToGPUPassOptions lower;
  lower.chip = chip.str();
  pm.addPass(createHkgLowerToGPUPass(lower));
}
