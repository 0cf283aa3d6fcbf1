//===- LLVMLoopAnnotations.cpp - loop annotations LLVM reads --------------===//
//
// convert-scf-to-cf leaves an scf.for's `llvm.loop_annotation` on the latch
// branch as a discardable attribute, which convert-cf-to-llvm copies to the
// llvm.br / llvm.cond_br; LLVM translation reads the branch's
// `loop_annotation` property only. This pass moves the one into the other.
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGLLVMLOOPANNOTATIONSPASS
#include "hkg/Target/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kDiscardable = "llvm.loop_annotation";

template <typename BranchOp> void moveAnnotation(BranchOp op) {
  auto annotation =
      op->template getAttrOfType<LLVM::LoopAnnotationAttr>(kDiscardable);
  if (!annotation)
    return;
  op.setLoopAnnotationAttr(annotation);
  op->removeAttr(kDiscardable);
}

struct LLVMLoopAnnotationsPass final
    : hkg::impl::HkgLLVMLoopAnnotationsPassBase<LLVMLoopAnnotationsPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        moveAnnotation(br);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        moveAnnotation(condBr);
    });
  }
};
} // namespace
