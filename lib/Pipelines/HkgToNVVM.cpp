//===- HkgToNVVM.cpp - gpu dialect to PTX and cubin -----------------------===//
//
// The NVIDIA half of hkg's codegen: gpu.module kernels to gpu.binary ops
// holding PTX (format=isa) or cubin (format=bin, through ptxas).
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Target/Passes.h"
#include "hkg/Target/Toolkit.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::hkg;

/// The equivalent hkg-opt command line (sm_90, the CUDA toolkit found by hkg
/// in place of <toolkit>):
///
///   hkg-opt in.mlir --pass-pipeline='builtin.module(
///       hkg-check-gpu-targets{kind=nvvm},
///       hkg-check-gpu-limits{chip=sm_90},
///       nvvm-attach-target{chip=sm_90 O=3},
///       gpu.module(
///         hkg-lower-subgroup-ops{chip=sm_90},
///         convert-vector-to-scf, convert-scf-to-cf,
///         expand-strided-metadata, lower-affine,
///         convert-nvgpu-to-nvvm,
///         convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true
///                            index-bitwidth=64|32},
///         hkg-nvvm-streaming-access, hkg-nvvm-dynamic-shared-memory,
///         canonicalize, cse, reconcile-unrealized-casts),
///       gpu-module-to-binary{format=isa toolkit=<toolkit>})'
llvm::Error
mlir::hkg::buildHkgGPUToNVVMPipeline(OpPassManager &pm,
                                     const HkgToNVVMPipelineOptions &opts) {
  const TargetInfo *target = lookupTarget(opts.chip);
  if (!target || !target->isNVIDIA()) {
    std::string known;
    for (const TargetInfo &t : getAllTargets())
      if (t.isNVIDIA())
        known += (known.empty() ? "" : ", ") + t.chip.str();
    return llvm::createStringError("hkg: '%s' is not an NVIDIA chip hkg "
                                   "knows; expected one of: %s",
                                   opts.chip.getValue().c_str(), known.c_str());
  }
  llvm::Expected<CUDAToolkit> toolkit = getCUDAToolkit(opts.toolkit);
  if (!toolkit)
    return toolkit.takeError();
  StringRef format = opts.format;
  if (toolkit->ptxas.empty() && (format == "bin" || format == "binary" ||
                                 format == "fatbin" || format == "fatbinary"))
    return llvm::createStringError(
        "hkg: format=%s needs ptxas, which was not found; install Debian "
        "package 'nvidia-cuda-toolkit' or CUDA, or use format=isa (PTX)",
        format.str().c_str());

  HkgCheckGPUTargetsPassOptions check;
  check.kind = "nvvm";
  pm.addPass(createHkgCheckGPUTargetsPass(check));
  HkgCheckGPULimitsPassOptions limits;
  limits.chip = opts.chip;
  pm.addPass(createHkgCheckGPULimitsPass(limits));
  GpuNVVMAttachTargetOptions attach;
  attach.chip = opts.chip;
  // PTX ISA 7.4 at least: the default load cache policy of the streaming
  // kernels (createpolicy, .L2::cache_hint; docs/Lowering.md) needs it, and
  // sm_80's lowest version is 7.0 (sm_90's is 7.8).
  attach.features = opts.features.empty() && opts.chip == "sm_80"
                        ? std::string("+ptx74")
                        : opts.features.getValue();
  attach.optLevel = opts.optLevel;
  attach.cmdOptions = opts.ptxasOptions;
  pm.addPass(createGpuNVVMAttachTarget(attach));

  OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
  // wgmma kernels: the arch-specific target (sm_90a).
  gpm.addPass(createHkgNVVMArchSpecificTargetPass());
  HkgLowerSubgroupOpsPassOptions reduce;
  reduce.chip = opts.chip;
  gpm.addPass(createHkgLowerSubgroupOpsPass(reduce));
  gpm.addPass(createConvertVectorToSCFPass());
  gpm.addPass(createSCFToControlFlowPass());
  gpm.addPass(memref::createExpandStridedMetadataPass());
  gpm.addPass(createLowerAffinePass());
  gpm.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  if (opts.indexBitwidth != 64 && opts.indexBitwidth != 32)
    return llvm::createStringError("hkg: index-bitwidth must be 32 or 64, not "
                                   "%u",
                                   unsigned(opts.indexBitwidth));
  toNVVM.indexBitwidth = opts.indexBitwidth;
  gpm.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  gpm.addPass(createHkgLLVMLoopAnnotationsPass());
  // Nontemporal accesses as ld/st.global.cs (hkg.streaming_access) or loads
  // with a cache policy (hkg.load_eviction, the streaming kernels' default
  // on Hopper): NVPTX ignores the flag.
  gpm.addPass(createHkgNVVMStreamingAccessPass());
  // gpu.dynamic_shared_memory as PTX dynamic shared memory (.extern).
  gpm.addPass(createHkgNVVMDynamicSharedMemoryPass());
  gpm.addPass(createCanonicalizerPass());
  gpm.addPass(createCSEPass());
  gpm.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions toBinary;
  toBinary.toolkitPath = toolkit->dir;
  toBinary.compilationTarget = opts.format;
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
  return llvm::Error::success();
}

bool mlir::hkg::canUse32BitIndices(Operation *gpuModule) {
  constexpr int64_t kMaxElements = int64_t(1) << 30;
  auto fits = [&](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return true;
    return memref.hasStaticShape() && memref.getNumElements() <= kMaxElements;
  };
  WalkResult result = gpuModule->walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "nvgpu")
      return WalkResult::interrupt();
    // A global memref's address as `index` (a relaxed-load pointer, a bulk
    // copy's destination) needs all 64 bits; workgroup addresses fit 32.
    if (auto ptr = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op)) {
      auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
          ptr.getSource().getType().getMemorySpace());
      if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
        return WalkResult::interrupt();
    }
    if (auto global = dyn_cast<memref::GlobalOp>(op))
      if (!fits(global.getType()))
        return WalkResult::interrupt();
    for (Type t : op->getResultTypes())
      if (!fits(t))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!fits(arg.getType()))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

llvm::Error
mlir::hkg::buildHkgToNVVMPipeline(OpPassManager &pm,
                                  const HkgToNVVMPipelineOptions &opts) {
  buildHkgToGPUPipeline(pm, opts.chip, opts.allowHostOps);
  return buildHkgGPUToNVVMPipeline(pm, opts);
}
