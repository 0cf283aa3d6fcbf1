//===- NVVMDynamicSharedMemory.cpp - .extern .shared for dynamic LDS ------===//
//
// Gives the zero-size shared-memory globals that gpu.dynamic_shared_memory
// lowers to external linkage, so that NVPTX declares them as PTX's dynamic
// shared memory (`.extern .shared .b8 name[]`) instead of demoting them to
// a 1-byte `.shared` variable.
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGNVVMDYNAMICSHAREDMEMORYPASS
#include "hkg/Target/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;

namespace mlir::hkg {
namespace {
struct HkgNVVMDynamicSharedMemoryPass final
    : impl::HkgNVVMDynamicSharedMemoryPassBase<HkgNVVMDynamicSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    // wgmma kernels (hkg.arch_specific) read LDS in the 128-byte swizzle,
    // which repeats every 1024 bytes: their buffers start 1024-aligned.
    bool archSpecific = false;
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>())
      archSpecific |= func->hasAttr("hkg.arch_specific");
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        continue;
      global.setLinkage(LLVM::Linkage::External);
      global.setDsoLocal(false);
      if (archSpecific)
        global.setAlignment(std::max<uint64_t>(global.getAlignment().value_or(1), 1024));
    }
  }
};
} // namespace
} // namespace mlir::hkg
