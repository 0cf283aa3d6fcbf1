//===- RaiseLinalg.cpp - hkg-raise-linalg: linalg on tensors to hkg ops ---===//
//
// The driver: generalize named linalg ops, fuse elementwise producers into
// their consumers (upstream linalg fusion, steered so that a contraction
// takes only transposes and broadcasts), then raise each linalg.generic to
// one hkg op (Raise.h). A generic no raiser takes stays, with a remark that
// says why; hkg-reject-host-ops then refuses it, so nothing is dropped.
//
//===----------------------------------------------------------------------===//

#include "Raise.h"

#include "hkg/Conversion/Passes.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "hkg-raise-linalg"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGRAISELINALGPASS
#include "hkg/Conversion/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

/// A generic that only moves elements (a transpose, a broadcast, a copy):
/// one input whose element it yields unchanged.
static bool isDataMovement(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1)
    return false;
  Block &body = generic.getRegion().front();
  return body.getOperations().size() == 1 &&
         body.getTerminator()->getOperand(0) == body.getArgument(0);
}

/// Which elementwise producers are fused into a consumer: any into a map or
/// a reduction (whose prologue it becomes); into a contraction only those
/// that move elements, which become its operands' layout. Arithmetic
/// before a matmul would be recomputed for every element of the other
/// operand's dims.
static bool shouldFuse(OpOperand *fused) {
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  if (!producer || !consumer)
    return false;
  if (linalg::isaContractionOpInterface(consumer))
    return isDataMovement(producer);
  return true;
}

/// Runs the verifier of the op a raiser built: on failure the op (and the
/// view of its result) is erased and its first diagnostic becomes the
/// reason the generic stays.
static LogicalResult verifyRaised(RewriterBase &rewriter, RaiseResult &result) {
  std::string message;
  LogicalResult verified = success();
  {
    ScopedDiagnosticHandler capture(rewriter.getContext(),
                                    [&](Diagnostic &diag) {
                                      if (message.empty())
                                        message = diag.str();
                                      return success();
                                    });
    verified = verify(result.op);
  }
  if (succeeded(verified))
    return success();
  if (Operation *view = result.replacement.getDefiningOp();
      view && view != result.op)
    rewriter.eraseOp(view);
  rewriter.eraseOp(result.op);
  result.why = "the hkg op it would become is invalid: " + message;
  return failure();
}

namespace mlir::hkg {
namespace {
struct HkgRaiseLinalgPass final
    : impl::HkgRaiseLinalgPassBase<HkgRaiseLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    IRRewriter rewriter(ctx);

    // 1. Every named op as a linalg.generic (fills stay: they are inits).
    SmallVector<linalg::LinalgOp> named;
    root->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp, linalg::FillOp>(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op)))
        op->emitRemark("'")
            << op->getName() << "' cannot be generalized; it stays as it is";
    }

    // 2. Elementwise producers into their consumers. Only the generics are
    // rewritten, without folding: the greedy driver would otherwise hoist
    // the constants of hkg bodies (not isolated from above) out of them.
    SmallVector<Operation *> generics;
    root->walk([&](linalg::GenericOp g) { generics.push_back(g); });
    if (generics.empty())
      return;
    RewritePatternSet fusion(ctx);
    linalg::populateElementwiseOpsFusionPatterns(fusion, shouldFuse);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(fusion);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
        .enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyOpPatternsGreedily(generics, std::move(fusion), config))) {
      root->emitError("hkg-raise-linalg: linalg fusion did not converge");
      return signalPassFailure();
    }

    // 3. Each generic to one hkg op, in program order.
    SmallVector<linalg::GenericOp> remaining;
    root->walk([&](linalg::GenericOp g) { remaining.push_back(g); });
    for (linalg::GenericOp generic : remaining) {
      RaiseResult result;
      for (auto raiser : {raiseContraction, raiseReduction, raiseElementwise}) {
        result = raiser(rewriter, generic);
        if (result.applies)
          break;
      }
      if (result.op && failed(verifyRaised(rewriter, result)))
        result.op = nullptr;
      if (result.op) {
        rewriter.replaceOp(generic, result.replacement);
        continue;
      }
      generic->emitRemark("this linalg.generic is not raised to an hkg op: ")
          << result.why;
    }

    // 4. The inits and constants nothing reads any more.
    root->walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (isa<linalg::FillOp, tensor::EmptyOp, tensor::CollapseShapeOp,
              arith::ConstantOp>(op) &&
          isOpTriviallyDead(op))
        rewriter.eraseOp(op);
    });
  }
};
} // namespace
} // namespace mlir::hkg
