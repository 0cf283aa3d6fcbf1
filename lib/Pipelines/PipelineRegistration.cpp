//===- PipelineRegistration.cpp - register hkg's codegen pipelines --------===//
//
// Like upstream's PassPipelineRegistration, but the builders may fail (a
// missing toolkit piece, a chip of the wrong vendor): the failure is reported
// through the pipeline parser's error handler as one line.
//
//===----------------------------------------------------------------------===//

#include "hkg/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::hkg;

template <typename Options>
using FallibleBuilder = llvm::Error (*)(OpPassManager &, const Options &);

template <typename Options>
static void registerFalliblePipeline(StringRef arg, StringRef description,
                                     FallibleBuilder<Options> build) {
  registerPassPipeline(
      arg, description,
      [build](OpPassManager &pm, StringRef optionsStr,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        if (llvm::Error err = build(pm, options))
          return errorHandler(llvm::toString(std::move(err)));
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

void mlir::hkg::registerHkgPipelines() {
  PassPipelineRegistration<>(
      "hkg-from-linalg",
      "linalg on tensors (Torch-MLIR, IREE) to hkg ops, elementwise ops "
      "fused into epilogues",
      buildHkgFromLinalgPipeline);
  registerFalliblePipeline<HkgToROCDLPipelineOptions>(
      "hkg-to-rocdl", "hkg ops (with schedules) to gpu.binary AMD code objects",
      buildHkgToROCDLPipeline);
  registerFalliblePipeline<HkgToNVVMPipelineOptions>(
      "hkg-to-nvvm", "hkg ops (with schedules) to gpu.binary PTX or cubin",
      buildHkgToNVVMPipeline);
  registerFalliblePipeline<HkgToROCDLPipelineOptions>(
      "hkg-gpu-to-rocdl", "gpu.module kernels to gpu.binary AMD code objects",
      buildHkgGPUToROCDLPipeline);
  registerFalliblePipeline<HkgToNVVMPipelineOptions>(
      "hkg-gpu-to-nvvm", "gpu.module kernels to gpu.binary PTX or cubin",
      buildHkgGPUToNVVMPipeline);
}
