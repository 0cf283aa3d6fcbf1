//===- NVVMArchSpecificTarget.cpp - sm_90a for wgmma kernels --------------===//
//
// Hopper's warpgroup MMA (wgmma) exists only in the arch-specific PTX
// target (sm_90a, PTX ISA 8.0). hkg-lower-to-gpu marks kernels that use it
// `hkg.arch_specific`; this pass moves the NVVM target of their gpu.module
// to the arch-specific chip, so that every NVVM pipeline (hkg-compile,
// hkg-opt's hkg-to-nvvm / hkg-gpu-to-nvvm) emits PTX that ptxas accepts.
// Kernels marked `hkg.ptx80` (bulk copies and proxy fences, which sm_90
// has but PTX ISA 7.8 lacks) keep their chip and get PTX ISA 8.0.
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGNVVMARCHSPECIFICTARGETPASS
#include "hkg/Target/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;

/// `features` with a PTX version of at least 8.0 (`+ptx80`), which wgmma
/// needs; a higher `+ptxNN` is kept.
static std::string withPtx80(StringRef features) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string out;
  bool hasPtx = false;
  for (StringRef f : parts) {
    unsigned version = 0;
    if (f.consume_front("+ptx") && !f.getAsInteger(10, version)) {
      hasPtx = true;
      if (version < 80)
        version = 80;
      out += (out.empty() ? "" : ",") + ("+ptx" + Twine(version)).str();
      continue;
    }
    out += (out.empty() ? "" : ",") + f.str();
  }
  if (!hasPtx)
    out += (out.empty() ? "" : ",") + std::string("+ptx80");
  return out;
}

namespace mlir::hkg {
namespace {
struct HkgNVVMArchSpecificTargetPass final
    : impl::HkgNVVMArchSpecificTargetPassBase<HkgNVVMArchSpecificTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    bool archSpecific = false, ptx80 = false;
    module.walk([&](Operation *op) {
      if (isa<gpu::GPUFuncOp, LLVM::LLVMFuncOp>(op)) {
        archSpecific |= op->hasAttr("hkg.arch_specific");
        ptx80 |= op->hasAttr("hkg.ptx80");
      }
    });
    ArrayAttr targets = module.getTargetsAttr();
    if (!(archSpecific || ptx80) || !targets)
      return;
    SmallVector<Attribute> updated;
    for (Attribute attr : targets) {
      auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!nvvm) {
        updated.push_back(attr);
        continue;
      }
      StringRef chip = nvvm.getChip();
      std::string newChip = archSpecific && !chip.ends_with("a")
                                ? (chip + "a").str()
                                : chip.str();
      updated.push_back(NVVM::NVVMTargetAttr::get(
          &getContext(), nvvm.getO(), nvvm.getTriple(), newChip,
          withPtx80(nvvm.getFeatures()), nvvm.getFlags(), nvvm.getLink(),
          nvvm.getVerifyTarget()));
    }
    module.setTargetsAttr(ArrayAttr::get(&getContext(), updated));
  }
};
} // namespace
} // namespace mlir::hkg
