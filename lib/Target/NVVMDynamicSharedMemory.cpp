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
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        continue;
      global.setLinkage(LLVM::Linkage::External);
      global.setDsoLocal(false);
    }
  }
};
} // namespace
} // namespace mlir::hkg
