//===- MathRewrites.cpp - cheaper exact forms of activation math ----------===//
//
// 1 + tanh(y) = 2 / (1 + exp(-2 y)) exactly. Computed as written in a GELU
// body, tanh costs libdevice's (or OCML's) tanhf, ~15 instructions with a
// branchless select of two ranges, and the sum then loses the low bits of
// small results (tanh near -1). The rewritten form has one exp2 and one
// division, both allowed to use the hardware approximations (`afn`): their
// errors are a few ulp of f32, no more than those of tanhf, and the result
// has no cancellation. Limits: exp2 overflows to +inf for y < -44.4 and the
// quotient is then 0 (the exact value is below 2^-127); NaN propagates.
//
//===----------------------------------------------------------------------===//

#include "MathRewrites.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <cmath>

using namespace mlir;

namespace {
/// addf(1.0, tanh(y)) or addf(tanh(y), 1.0) on f32 scalars.
struct OnePlusTanhToSigmoid final : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not an f32 scalar add");
    math::TanhOp tanh;
    for (int i = 0; i < 2; ++i) {
      auto t = op->getOperand(i).getDefiningOp<math::TanhOp>();
      if (t && matchPattern(op->getOperand(1 - i), m_OneFloat())) {
        tanh = t;
        break;
      }
    }
    if (!tanh)
      return rewriter.notifyMatchFailure(op, "not 1 + tanh(y)");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto cst = [&](double v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getFloatAttr(f32, v));
    };
    auto afn = arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                             arith::FastMathFlags::afn);
    Value arg = arith::MulFOp::create(rewriter, loc, tanh.getOperand(),
                                      cst(-2.0 / std::log(2.0)));
    Value e = math::Exp2Op::create(rewriter, loc, arg, afn);
    Value den = arith::AddFOp::create(rewriter, loc, cst(1.0), e);
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, cst(2.0), den, afn);
    if (tanh->use_empty())
      rewriter.eraseOp(tanh);
    return success();
  }
};
/// arith.divf without `afn`: f32 gains the flag; bf16 / f16 is computed as
/// an f32 `afn` division of the widened operands, then narrowed.
struct QuotientRoundedToHalf final : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type || !(type.isF32() || type.getWidth() == 16))
      return rewriter.notifyMatchFailure(op, "not an f32 or 16-bit scalar");
    arith::FastMathFlags flags = op.getFastmath();
    if (bitEnumContainsAll(flags, arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "already afn");
    auto afn = arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                             flags | arith::FastMathFlags::afn);
    if (type.isF32()) {
      rewriter.modifyOpInPlace(op, [&] { op.setFastmathAttr(afn); });
      return success();
    }
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value lhs = arith::ExtFOp::create(rewriter, loc, f32, op.getLhs());
    Value rhs = arith::ExtFOp::create(rewriter, loc, f32, op.getRhs());
    Value q = arith::DivFOp::create(rewriter, loc, lhs, rhs, afn);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, q);
    return success();
  }
};
} // namespace

void mlir::hkg::applyHalfResultDivisionRewrites(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  patterns.add<QuotientRoundedToHalf>(root->getContext());
  walkAndApplyPatterns(root, std::move(patterns));
}

void mlir::hkg::populateActivationRewritePatterns(
    RewritePatternSet &patterns) {
  patterns.add<OnePlusTanhToSigmoid>(patterns.getContext());
}

void mlir::hkg::applyActivationRewrites(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populateActivationRewritePatterns(patterns);
  walkAndApplyPatterns(root, std::move(patterns));
}
