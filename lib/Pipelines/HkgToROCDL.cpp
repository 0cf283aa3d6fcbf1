//===- HkgToROCDL.cpp - gpu dialect to AMD code objects -------------------===//
//
// The AMD half of hkg's codegen: gpu.module kernels (as hkg-lower-to-gpu
// writes them) to gpu.binary ops holding amdgcn code objects.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Target/Passes.h"
#include "hkg/Target/Toolkit.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::hkg;

/// The equivalent hkg-opt command line (gfx942, the default toolkit found by
/// hkg in place of <toolkit>):
///
///   hkg-opt in.mlir --pass-pipeline='builtin.module(
///       hkg-check-gpu-targets{kind=rocdl},
///       hkg-check-gpu-limits{chip=gfx942},
///       rocdl-attach-target{chip=gfx942 O=3 wave64=true},
///       convert-math-to-rocdl{chipset=gfx942},
///       gpu.module(
///         hkg-lower-subgroup-ops{chip=gfx942 use-dpp=true},
///         convert-vector-to-scf, convert-scf-to-cf,
///         expand-strided-metadata, lower-affine,
///         convert-gpu-to-rocdl{chipset=gfx942 runtime=HIP
///                              use-bare-ptr-memref-call-conv=true},
///         canonicalize, cse, reconcile-unrealized-casts),
///       gpu-module-to-binary{format=bin toolkit=<toolkit>})'
///
/// (wave64=false for the wave32 RDNA chips.)
llvm::Error
mlir::hkg::buildHkgGPUToROCDLPipeline(OpPassManager &pm,
                                      const HkgToROCDLPipelineOptions &opts) {
  const TargetInfo *target = lookupTarget(opts.chip);
  if (!target || !target->isAMD()) {
    std::string known;
    for (const TargetInfo &t : getAllTargets())
      if (t.isAMD())
        known += (known.empty() ? "" : ", ") + t.chip.str();
    return llvm::createStringError("hkg: '%s' is not an AMD chip hkg knows; "
                                   "expected one of: %s",
                                   opts.chip.getValue().c_str(), known.c_str());
  }
  llvm::Expected<ROCmToolkit> toolkit = getROCmToolkit(opts.toolkit);
  if (!toolkit)
    return toolkit.takeError();

  HkgCheckGPUTargetsPassOptions check;
  check.kind = "rocdl";
  pm.addPass(createHkgCheckGPUTargetsPass(check));
  HkgCheckGPULimitsPassOptions limits;
  limits.chip = opts.chip;
  pm.addPass(createHkgCheckGPULimitsPass(limits));
  GpuROCDLAttachTargetOptions attach;
  attach.chip = opts.chip;
  attach.optLevel = opts.optLevel;
  attach.wave64Flag = target->waveSize == 64;
  pm.addPass(createGpuROCDLAttachTarget(attach));
  // Math ops with no AMDGPU instruction (tanh, erf, ...) become OCML calls,
  // resolved by ocml.bc at link time; convert-gpu-to-rocdl alone would leave
  // llvm.intr.tanh, which the backend cannot select ("no libcall available
  // for ftanh"). The pass is module-anchored: it declares the OCML functions
  // in each gpu.module.
  ConvertMathToROCDLOptions mathToROCDL;
  mathToROCDL.chipset = opts.chip;
  pm.addPass(createConvertMathToROCDL(mathToROCDL));

  OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
  HkgLowerSubgroupOpsPassOptions reduce;
  reduce.chip = opts.chip;
  reduce.useDpp = opts.useDpp;
  gpm.addPass(createHkgLowerSubgroupOpsPass(reduce));
  gpm.addPass(createConvertVectorToSCFPass());
  gpm.addPass(createSCFToControlFlowPass());
  gpm.addPass(memref::createExpandStridedMetadataPass());
  gpm.addPass(createLowerAffinePass());
  ConvertGpuOpsToROCDLOpsOptions toROCDL;
  toROCDL.chipset = opts.chip;
  toROCDL.useBarePtrCallConv = true;
  toROCDL.runtime = gpu::amd::Runtime::HIP;
  gpm.addPass(createConvertGpuOpsToROCDLOps(toROCDL));
  gpm.addPass(createHkgLLVMLoopAnnotationsPass());
  gpm.addPass(createCanonicalizerPass());
  gpm.addPass(createCSEPass());
  gpm.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions toBinary;
  toBinary.toolkitPath = toolkit->dir;
  toBinary.compilationTarget = opts.format;
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
  return llvm::Error::success();
}

llvm::Error
mlir::hkg::buildHkgToROCDLPipeline(OpPassManager &pm,
                                   const HkgToROCDLPipelineOptions &opts) {
  buildHkgToGPUPipeline(pm, opts.chip, opts.allowHostOps);
  return buildHkgGPUToROCDLPipeline(pm, opts);
}
