//===- RaiseLinalg.cpp - hkg-raise-linalg: linalg on tensors to hkg ops ---===//
//
// The driver: generalize named linalg ops, rebuild the ops torch decomposed
// (RoPE, attention: Compositions.h), fuse elementwise producers into
// their consumers (upstream linalg fusion, steered so that a contraction
// takes only transposes and broadcasts), then raise each linalg.generic to
// one hkg op (Raise.h). A generic no raiser takes stays, with a remark that
// says why; hkg-reject-host-ops then refuses it, so nothing is dropped.
//
//===----------------------------------------------------------------------===//

#include "Compositions.h"
#include "Raise.h"

#include "hkg/Conversion/Passes.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// A generic that widens its one input's elements (arith.extf), perhaps
/// moving them too: torch's bf16 Linear upcasts both operands to f32 before
/// the matmul.
static bool isWidening(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1)
    return false;
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 2)
    return false;
  auto ext = dyn_cast<arith::ExtFOp>(body.front());
  return ext && ext.getIn() == body.getArgument(0) &&
         body.getTerminator()->getOperand(0) == ext.getResult();
}

/// A contraction by its loops, whatever its body has become: reduction
/// loops, and no input read at every loop (a reduction reads its input at
/// every loop; a matmul's operands each miss the other's parallel dim).
/// The body is not asked: a widening fused into a matmul's operand no
/// longer reads as linalg's multiply-accumulate template.
static bool isContractionLike(linalg::GenericOp generic) {
  if (generic.getNumReductionLoops() == 0)
    return false;
  unsigned numLoops = generic.getNumLoops();
  return llvm::none_of(generic.getDpsInputOperands(), [&](OpOperand *in) {
    return generic.getMatchingIndexingMap(in).getNumResults() == numLoops;
  });
}

/// Whether `generic` reads (through reshapes) the result of a reduction.
static bool readsReduction(linalg::GenericOp generic) {
  return llvm::any_of(generic.getDpsInputs(), [](Value v) {
    auto g = skipReshapes(v).getDefiningOp<linalg::GenericOp>();
    return g && g.getNumReductionLoops() > 0;
  });
}

/// Which elementwise producers are fused into a consumer: into a map or a
/// reduction (whose prologue it becomes) a producer with one user, or one
/// that moves or widens elements or is a step of a normalization (below);
/// into a contraction only those
/// that move or widen elements, which become its operands' layout and its
/// multiply's operand type (a bf16 matmul accumulating in f32). Arithmetic
/// before a matmul would be recomputed for every element of the other
/// operand's dims.
static bool shouldFuse(OpOperand *fused) {
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  if (!producer || !consumer)
    return false;
  if (isContractionLike(consumer))
    return isDataMovement(producer) || isWidening(producer);
  if (producer->hasOneUse() || isDataMovement(producer) || isWidening(producer))
    return true;
  // A producer with several users is recomputed in each it is fused into:
  // worth it for a step of a normalization (exp(x - max) feeds both the
  // sum and the divide of a softmax), not for a value the program keeps
  // (a residual stream feeds a norm and the next residual add: it is
  // written once, and the norm stays recognizable).
  return readsReduction(producer);
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

/// Replaces `wide` (an f64 reduction's result, or an i1 all / any, read
/// only as inputs of linalg.generic ops) by `narrow` (its f32 raise): each
/// consumer reads `narrow` and converts the element at the top of its body
/// (widened to f64; an all / any's 0.0 or 1.0 compared with 0). Then erases
/// the op defining `wide`.
static void widenInConsumers(RewriterBase &rewriter, Value wide, Value narrow) {
  Type narrowElem = cast<ShapedType>(narrow.getType()).getElementType();
  for (OpOperand &use : llvm::make_early_inc_range(wide.getUses())) {
    auto consumer = cast<linalg::GenericOp>(use.getOwner());
    BlockArgument arg = consumer.getMatchingBlockArgument(&use);
    Type wideElem = arg.getType();
    rewriter.modifyOpInPlace(consumer, [&] {
      use.set(narrow);
      arg.setType(narrowElem);
    });
    rewriter.setInsertionPointToStart(arg.getOwner());
    Operation *converted;
    if (wideElem.isInteger(1)) {
      Value zero = arith::ConstantOp::create(
          rewriter, arg.getLoc(), rewriter.getFloatAttr(narrowElem, 0.0));
      converted = arith::CmpFOp::create(rewriter, arg.getLoc(),
                                        arith::CmpFPredicate::UNE, arg, zero);
    } else {
      converted = arith::ExtFOp::create(rewriter, arg.getLoc(), wideElem, arg);
    }
    rewriter.replaceAllUsesExcept(arg, converted->getResult(0), converted);
  }
  rewriter.eraseOp(wide.getDefiningOp());
}

/// Erases the ops nothing reads any more among those the raise leaves
/// behind: generics a recognized composition replaced, their views, inits
/// and constants.
static void eraseDeadOps(RewriterBase &rewriter, Operation *root) {
  root->walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
    if (isa<linalg::GenericOp, linalg::FillOp, tensor::EmptyOp,
            tensor::CollapseShapeOp, tensor::ExpandShapeOp,
            tensor::ExtractSliceOp, tensor::ConcatOp, arith::ConstantOp>(op) &&
        isOpTriviallyDead(op))
      rewriter.eraseOp(op);
  });
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

    // 2. The compositions torch decomposed (RoPE, attention, cross-entropy)
    // back to the
    // hkg op, before fusion merges their steps.
    // RoPE first: attention then sees its rotated q and k as the transposes
    // of token-major tensors (layout(bshd)).
    int rebuilt = recognizeRope(rewriter, root);
    rebuilt += recognizeAttention(rewriter, root);
    rebuilt += recognizeCrossEntropy(rewriter, root);
    if (rebuilt)
      eraseDeadOps(rewriter, root);

    // 3. Elementwise producers into their consumers. Only the generics are
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

    // 4. Each generic to one hkg op, in program order.
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
        if (result.replacement.getType() != generic.getResult(0).getType())
          widenInConsumers(rewriter, generic.getResult(0), result.replacement);
        else
          rewriter.replaceOp(generic, result.replacement);
        continue;
      }
      generic->emitRemark("this linalg.generic is not raised to an hkg op: ")
          << result.why;
    }

    // 5. The inits and constants nothing reads any more.
    eraseDeadOps(rewriter, root);
  }
};
} // namespace
} // namespace mlir::hkg
