//===- Pipelines.h - hkg's codegen pipelines --------------------*- C++ -*-===//
//
// hkg-to-rocdl / hkg-to-nvvm take hkg ops (with schedules) to gpu.binary ops
// holding AMD code objects or PTX/cubin. hkg-gpu-to-rocdl / hkg-gpu-to-nvvm
// are their gpu-dialect-onward halves. docs/Pipeline.md lists the passes.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_PIPELINES_PIPELINES_H
#define HKG_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/Error.h"

namespace mlir::hkg {

/// Options of hkg-to-rocdl and hkg-gpu-to-rocdl.
struct HkgToROCDLPipelineOptions
    : public PassPipelineOptions<HkgToROCDLPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("AMD chip (gfx90a, gfx942, gfx950, "
                     "gfx1100, gfx1151, gfx1201, gfx1250)"),
      llvm::cl::init("gfx942")};
  PassOptions::Option<bool> allowHostOps{
      *this, "allow-host-ops",
      llvm::cl::desc("Leave ops no hkg kernel computes to the caller (a "
                     "remark each) instead of refusing them "
                     "(hkg-reject-host-ops)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu.binary contents: isa (assembly), bin (code object, "
                     "hsaco), llvm (offloading bitcode)"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("ROCm-layout toolkit directory (amdgcn/bitcode, "
                     "llvm/bin/ld.lld); default: found or prepared by hkg"),
      llvm::cl::init("")};
  PassOptions::Option<bool> useDpp{
      *this, "use-dpp",
      llvm::cl::desc("Lower subgroup reductions with DPP (else shuffles)"),
      llvm::cl::init(true)};
};

/// Options of hkg-to-nvvm and hkg-gpu-to-nvvm.
struct HkgToNVVMPipelineOptions
    : public PassPipelineOptions<HkgToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA chip (sm_80, sm_90)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (e.g. +ptx80); default: the lowest PTX "
                     "version for the chip"),
      llvm::cl::init("")};
  PassOptions::Option<bool> allowHostOps{
      *this, "allow-host-ops",
      llvm::cl::desc("Leave ops no hkg kernel computes to the caller (a "
                     "remark each) instead of refusing them "
                     "(hkg-reject-host-ops)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu.binary contents: isa (PTX), bin (cubin, needs "
                     "ptxas), fatbin (needs ptxas and fatbinary), llvm"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit directory (nvvm/libdevice, bin/ptxas); "
                     "default: found or prepared by hkg"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> ptxasOptions{
      *this, "ptxas-options",
      llvm::cl::desc("Extra ptxas command-line options (format=bin|fatbin)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> indexBitwidth{
      *this, "index-bitwidth",
      llvm::cl::desc("Width of `index` in the kernels (convert-gpu-to-nvvm): "
                     "64 (default) or 32. Only correct when every index "
                     "value fits in 31 bits: hkg-compile picks 32 only for "
                     "kernels that pass hkg::canUse32BitIndices"),
      llvm::cl::init(64)};
};

/// Whether the kernels of `gpuModule` may be lowered with 32-bit `index`:
/// every memref in them has a static shape of at most 2^30 elements (so
/// element offsets, and the linear indices computed one step past a row or
/// a vector group, stay far below 2^31), and none uses nvgpu ops (whose
/// conversion assumes a 64-bit index). Byte addresses stay 64-bit: the
/// i32 element offset is sign-extended by the getelementptr.
bool canUse32BitIndices(Operation *gpuModule);

/// Adds the gpu-dialect-onward AMD passes: gpu.module kernels to gpu.binary.
/// Fails (with a one-line message naming the package to install) when the
/// toolkit pieces are missing or the chip is not an AMD chip hkg knows.
llvm::Error buildHkgGPUToROCDLPipeline(OpPassManager &pm,
                                       const HkgToROCDLPipelineOptions &opts);

/// Adds the gpu-dialect-onward NVIDIA passes.
llvm::Error buildHkgGPUToNVVMPipeline(OpPassManager &pm,
                                      const HkgToNVVMPipelineOptions &opts);

/// Adds the hkg-dialect part shared by both full pipelines: the refusal of
/// ops no kernel computes (unless `allowHostOps`), schedule verification
/// and lowering to the gpu dialect.
void buildHkgToGPUPipeline(OpPassManager &pm, llvm::StringRef chip,
                           bool allowHostOps = false);

/// hkg ops to gpu.binary for AMD: buildHkgToGPUPipeline + the ROCDL part.
llvm::Error buildHkgToROCDLPipeline(OpPassManager &pm,
                                    const HkgToROCDLPipelineOptions &opts);

/// hkg ops to gpu.binary for NVIDIA: buildHkgToGPUPipeline + the NVVM part.
llvm::Error buildHkgToNVVMPipeline(OpPassManager &pm,
                                   const HkgToNVVMPipelineOptions &opts);

/// Adds the program-level passes that come before schedules: linalg on
/// tensors raised to hkg ops (hkg-raise-linalg; nothing to do without
/// linalg), the reductions and maps that spell softmax, log_softmax and
/// RMSNorm replaced by the named ops (hkg-match-row-ops), then elementwise
/// ops folded into the matmul and reduction epilogues they follow
/// (hkg-fuse). hkg-compile runs it first.
void buildHkgFromLinalgPipeline(OpPassManager &pm);

/// Registers hkg-from-linalg, hkg-to-rocdl, hkg-to-nvvm, hkg-gpu-to-rocdl,
/// hkg-gpu-to-nvvm.
void registerHkgPipelines();

} // namespace mlir::hkg

#endif // HKG_PIPELINES_PIPELINES_H
