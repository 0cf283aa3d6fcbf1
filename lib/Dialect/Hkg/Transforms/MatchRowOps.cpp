//===- MatchRowOps.cpp - softmax and RMSNorm spelled as reduce + map ------===//
//
// hkg-match-row-ops: frameworks spell softmax, log_softmax and RMSNorm as
// reductions and maps (torch's decompositions, raised by hkg-raise-linalg);
// each composition reads the input two or three times. The named op reads
// it once. The patterns here recognize the compositions by the expressions
// their bodies compute, looking through float conversions.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#define DEBUG_TYPE "hkg-match-row-ops"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGMATCHROWOPSPASS
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;

/// `v` without the float conversions around it.
static Value stripCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The op defining `v` (through float conversions), if it is an `OpTy`.
template <typename OpTy> static OpTy defOf(Value v) {
  return stripCasts(v).getDefiningOp<OpTy>();
}

/// The tensor `v` views (through reshapes).
static Value stripViews(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The float constant `v` is (through conversions).
static std::optional<double> constantOf(Value v) {
  FloatAttr attr;
  if (matchPattern(stripCasts(v), m_Constant(&attr)))
    return attr.getValueAsDouble();
  return std::nullopt;
}

namespace {
/// An elementwise body's view of its inputs: which input a value (through
/// conversions) is the element of.
struct Inputs {
  mutable ElementwiseOp op;
  SmallVector<AffineMap> maps;

  explicit Inputs(ElementwiseOp op) : op(op), maps(op.getInputMaps()) {}

  /// The input whose element `v` is, or -1.
  int64_t indexOf(Value v) const {
    auto arg = dyn_cast<BlockArgument>(stripCasts(v));
    if (!arg || arg.getOwner() != &op.getBody().front())
      return -1;
    return arg.getArgNumber();
  }
  Value tensor(int64_t i) const { return op.getInputs()[i]; }

  /// Whether input `i` is read element for element.
  bool isFull(int64_t i) const { return maps[i].isIdentity(); }

  /// Whether input `i` holds one value per index of the dims outside
  /// `axes` (isReducedMap).
  bool isReducedAlong(int64_t i, ArrayRef<int64_t> axes) const;
};
} // namespace

/// Whether `map` (from a tensor's dims) reads one value per index of the
/// dims outside `axes` (a reduction over `axes`, kept or not, perhaps
/// reshaped): it follows exactly those dims, in order, and is 0 elsewhere.
static bool isReducedMap(AffineMap map, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> followed;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      followed.push_back(d.getPosition());
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0)
      return false;
  }
  SmallVector<int64_t> want;
  for (int64_t d = 0; d < map.getNumDims(); ++d)
    if (!llvm::is_contained(axes, d))
      want.push_back(d);
  return followed == want;
}

bool Inputs::isReducedAlong(int64_t i, ArrayRef<int64_t> axes) const {
  return isReducedMap(maps[i], axes);
}

/// The value the first yield of `region`'s body computes.
static Value yielded(Region &region, unsigned i = 0) {
  return region.front().getTerminator()->getOperand(i);
}

/// Whether `v` (through conversions) is argument `i` of `region`'s body.
static bool isArg(Region &region, Value v, unsigned i) {
  auto arg = dyn_cast<BlockArgument>(stripCasts(v));
  return arg && arg.getOwner() == &region.front() && arg.getArgNumber() == i;
}

/// `reduce max` (or `maximum`) of `input` over `axis` alone. Which max does
/// not matter to a softmax: a NaN makes every exp(x - m) of its row NaN.
static bool isRowMax(ReduceOp r, Value input, int64_t axis) {
  if (!r || r.getInput() != input || r.getAxes() != ArrayRef<int64_t>{axis} ||
      !r.getIns().empty() || !r.getEpilogue().empty())
    return false;
  SmallVector<ReduceKind> kinds = r.getKindList();
  if (kinds.size() != 1 || (kinds.front() != ReduceKind::Max &&
                            kinds.front() != ReduceKind::Maximum))
    return false;
  return r.getPrologue().empty() ||
         isArg(r.getPrologue(), yielded(r.getPrologue()), 0);
}

/// The factors of the product `v` computes (through conversions).
static SmallVector<Value> getFactors(Value v) {
  SmallVector<Value> factors;
  SmallVector<Value> work = {v};
  while (!work.empty()) {
    Value f = stripCasts(work.pop_back_val());
    if (auto mul = f.getDefiningOp<arith::MulFOp>()) {
      work.push_back(mul.getLhs());
      work.push_back(mul.getRhs());
      continue;
    }
    factors.push_back(f);
  }
  return factors;
}

/// If `v` is `s / n` or `s * (1 / n)` for a constant `n`: `s` and `n`.
static std::optional<std::pair<Value, double>> matchDivByConstant(Value v) {
  if (auto div = defOf<arith::DivFOp>(v)) {
    if (std::optional<double> n = constantOf(div.getRhs()))
      return std::make_pair(div.getLhs(), *n);
    return std::nullopt;
  }
  if (auto mul = defOf<arith::MulFOp>(v)) {
    if (std::optional<double> c = constantOf(mul.getRhs()); c && *c != 0)
      return std::make_pair(mul.getLhs(), 1.0 / *c);
    if (std::optional<double> c = constantOf(mul.getLhs()); c && *c != 0)
      return std::make_pair(mul.getRhs(), 1.0 / *c);
  }
  return std::nullopt;
}

/// If `v` is `a + c` for a constant `c > 0`: `a` and `c`.
static std::optional<std::pair<Value, double>> matchAddEps(Value v) {
  auto add = defOf<arith::AddFOp>(v);
  if (!add)
    return std::nullopt;
  if (std::optional<double> c = constantOf(add.getRhs()); c && *c > 0)
    return std::make_pair(add.getLhs(), *c);
  if (std::optional<double> c = constantOf(add.getLhs()); c && *c > 0)
    return std::make_pair(add.getRhs(), *c);
  return std::nullopt;
}

/// Whether `v` (through conversions) is the square of `x`: x * x or x^2.
static bool isSquareOf(Value v, function_ref<bool(Value)> isX) {
  v = stripCasts(v);
  if (auto mul = v.getDefiningOp<arith::MulFOp>())
    return isX(mul.getLhs()) && isX(mul.getRhs()) &&
           stripCasts(mul.getLhs()) == stripCasts(mul.getRhs());
  if (auto pw = v.getDefiningOp<math::FPowIOp>()) {
    APInt exponent;
    return isX(pw.getLhs()) &&
           matchPattern(pw.getRhs(), m_ConstantInt(&exponent)) && exponent == 2;
  }
  if (auto pw = v.getDefiningOp<math::PowFOp>())
    return isX(pw.getLhs()) && constantOf(pw.getRhs()) == 2.0;
  return false;
}

/// `reduce sum` of `x` alone (no map but conversions) over `axes`, the
/// trailing axes of `x`.
static bool isPlainSum(ReduceOp r, Value x, ArrayRef<int64_t> axes) {
  return r && r.getInput() == x && r.getAxes() == axes &&
         r.getKindList() == SmallVector<ReduceKind>{ReduceKind::Sum} &&
         r.getIns().empty() && r.getEpilogue().empty() &&
         (r.getPrologue().empty() ||
          isArg(r.getPrologue(), yielded(r.getPrologue()), 0));
}

/// Whether `divisor` (a constant a sum is divided by, perhaps as the
/// rounded reciprocal it was multiplied by) is the count `n`.
static bool isCount(double divisor, int64_t n) {
  return std::abs(divisor / static_cast<double>(n) - 1.0) <= 1e-6;
}

/// The number of elements `x` has over `axes`.
static int64_t countOver(Value x, ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t n = 1;
  for (int64_t a : axes)
    n *= type.getDimSize(a);
  return n;
}

/// Whether input `i` follows exactly the dims `axes` (a weight or bias of
/// the normalized dims' shape).
static bool followsExactly(AffineMap map, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> got;
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return false;
    got.push_back(d.getPosition());
  }
  return got == SmallVector<int64_t>(axes);
}

namespace {
/// elementwise(x, M, S) { exp(x - m) / s } or { (x - m) - log(s) } with M
/// the max and S the sum of exp(x - m) along one axis: hkg.softmax [log].
struct MatchSoftmax final : OpRewritePattern<ElementwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOp ew,
                                PatternRewriter &rewriter) const override {
    Inputs in(ew);
    Value y = stripCasts(yielded(ew.getBody()));
    Value shifted, sumValue;
    bool log;
    if (auto div = y.getDefiningOp<arith::DivFOp>()) {
      auto exp = defOf<math::ExpOp>(div.getLhs());
      if (!exp)
        return failure();
      shifted = exp.getOperand();
      sumValue = div.getRhs();
      log = false;
    } else if (auto sub = y.getDefiningOp<arith::SubFOp>()) {
      auto lg = defOf<math::LogOp>(sub.getRhs());
      if (!lg)
        return failure();
      shifted = sub.getLhs();
      sumValue = lg.getOperand();
      log = true;
    } else {
      return failure();
    }
    auto diff = defOf<arith::SubFOp>(shifted);
    if (!diff)
      return failure();
    int64_t xi = in.indexOf(diff.getLhs()), mi = in.indexOf(diff.getRhs()),
            si = in.indexOf(sumValue);
    if (xi < 0 || mi < 0 || si < 0 || !in.isFull(xi))
      return rewriter.notifyMatchFailure(ew, "not x, max and sum inputs");
    Value x = in.tensor(xi);
    auto sum = stripViews(in.tensor(si)).getDefiningOp<ReduceOp>();
    if (!sum || sum.getInput() != x || sum.getAxes().size() != 1 ||
        sum.getKindList() != SmallVector<ReduceKind>{ReduceKind::Sum} ||
        sum.getIns().size() != 1 || !sum.getEpilogue().empty() ||
        sum.getPrologue().empty())
      return rewriter.notifyMatchFailure(ew, "no sum along one axis");
    int64_t axis = sum.getAxes().front();
    auto max = stripViews(in.tensor(mi)).getDefiningOp<ReduceOp>();
    if (!isRowMax(max, x, axis) ||
        stripViews(sum.getIns().front()) != max.getResult() ||
        !isReducedMap(sum.getInsMaps().front(), {axis}) ||
        !in.isReducedAlong(mi, {axis}) || !in.isReducedAlong(si, {axis}))
      return rewriter.notifyMatchFailure(ew, "no max along the sum's axis");
    // The sum's prologue: exp(x - m).
    Region &pro = sum.getPrologue();
    auto pexp = defOf<math::ExpOp>(yielded(pro));
    auto psub =
        pexp ? defOf<arith::SubFOp>(pexp.getOperand()) : arith::SubFOp();
    if (!psub || !isArg(pro, psub.getLhs(), 0) || !isArg(pro, psub.getRhs(), 1))
      return rewriter.notifyMatchFailure(ew, "the sum is not of exp(x - m)");

    auto softmax =
        SoftmaxOp::create(rewriter, ew.getLoc(), ew.getResult().getType(), x,
                          rewriter.getI64IntegerAttr(axis),
                          log ? rewriter.getUnitAttr() : UnitAttr(),
                          /*schedule=*/nullptr);
    rewriter.replaceOp(ew, softmax.getResult());
    return success();
  }
};

/// elementwise(x, S, w?) { x * rsqrt(s / N + eps) * w } with S the sum of
/// x * x over N elements of trailing axes: hkg.rmsnorm.
struct MatchRMSNorm final : OpRewritePattern<ElementwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOp ew,
                                PatternRewriter &rewriter) const override {
    Inputs in(ew);
    int64_t xi = -1, wi = -1;
    math::RsqrtOp rsqrt;
    for (Value f : getFactors(yielded(ew.getBody()))) {
      if (auto r = f.getDefiningOp<math::RsqrtOp>()) {
        if (rsqrt)
          return failure();
        rsqrt = r;
        continue;
      }
      int64_t i = in.indexOf(f);
      if (i < 0)
        return rewriter.notifyMatchFailure(ew, "a factor is not an input");
      if (in.isFull(i) && xi < 0)
        xi = i;
      else if (wi < 0)
        wi = i;
      else
        return rewriter.notifyMatchFailure(ew, "more than x and a weight");
    }
    if (!rsqrt || xi < 0)
      return failure();
    // rsqrt(s / N + eps) (or s * (1 / N)).
    auto meanEps = matchAddEps(rsqrt.getOperand());
    auto mean = meanEps ? matchDivByConstant(meanEps->first) : std::nullopt;
    if (!mean)
      return failure();
    int64_t si = in.indexOf(mean->first);
    if (si < 0)
      return failure();
    Value x = in.tensor(xi);
    auto sum = stripViews(in.tensor(si)).getDefiningOp<ReduceOp>();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    if (!sum || sum.getInput() != x ||
        sum.getKindList() != SmallVector<ReduceKind>{ReduceKind::Sum} ||
        !sum.getIns().empty() || !sum.getEpilogue().empty() ||
        sum.getPrologue().empty() || sum.getAxes().back() != rank - 1)
      return rewriter.notifyMatchFailure(ew, "no sum over trailing axes");
    ArrayRef<int64_t> axes = sum.getAxes();
    if (!in.isReducedAlong(si, axes))
      return failure();
    if (!isCount(mean->second, countOver(x, axes)))
      return rewriter.notifyMatchFailure(ew, "the mean is not over the sum");
    // The sum's prologue: x * x, or x to the power 2.
    Region &pro = sum.getPrologue();
    if (!isSquareOf(yielded(pro), [&](Value v) { return isArg(pro, v, 0); }))
      return rewriter.notifyMatchFailure(ew, "the sum is not of x * x");
    // The weight: the normalized dims, in order.
    Value weight;
    if (wi >= 0) {
      if (!followsExactly(in.maps[wi], axes))
        return rewriter.notifyMatchFailure(ew, "the weight does not follow "
                                               "the normalized dims");
      weight = in.tensor(wi);
    }
    DenseI64ArrayAttr axesAttr;
    if (axes.size() != 1)
      axesAttr = rewriter.getDenseI64ArrayAttr(axes);
    auto norm =
        RMSNormOp::create(rewriter, ew.getLoc(), ew.getResult().getType(), x,
                          weight, axesAttr, rewriter.getF32FloatAttr(meanEps->second),
                          /*schedule=*/nullptr);
    rewriter.replaceOp(ew, norm.getResult());
    return success();
  }
};

/// elementwise(x, S1, S2, w?, b?) { (x - s1 / N) * rsqrt(s2 / N + eps) * w
/// + b } with S1 the sum of x and S2 the sum of (x - mean)^2 over N
/// elements of trailing axes (the mean from another sum of x):
/// hkg.layernorm.
struct MatchLayerNorm final : OpRewritePattern<ElementwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOp ew,
                                PatternRewriter &rewriter) const override {
    Inputs in(ew);
    Value y = stripCasts(yielded(ew.getBody()));
    // An optional bias added last.
    int64_t bi = -1;
    Value product = y;
    if (auto add = y.getDefiningOp<arith::AddFOp>()) {
      int64_t l = in.indexOf(add.getLhs()), r = in.indexOf(add.getRhs());
      if (r >= 0 && !in.isFull(r)) {
        bi = r;
        product = add.getLhs();
      } else if (l >= 0 && !in.isFull(l)) {
        bi = l;
        product = add.getRhs();
      } else {
        return failure();
      }
    }
    arith::SubFOp centered;
    math::RsqrtOp rsqrt;
    int64_t wi = -1;
    for (Value f : getFactors(product)) {
      if (auto sub = f.getDefiningOp<arith::SubFOp>(); sub && !centered) {
        centered = sub;
      } else if (auto r = f.getDefiningOp<math::RsqrtOp>(); r && !rsqrt) {
        rsqrt = r;
      } else if (int64_t i = in.indexOf(f); i >= 0 && wi < 0 && !in.isFull(i)) {
        wi = i;
      } else {
        return failure();
      }
    }
    if (!centered || !rsqrt)
      return failure();
    int64_t xi = in.indexOf(centered.getLhs());
    auto mean = matchDivByConstant(centered.getRhs());
    if (xi < 0 || !in.isFull(xi) || !mean)
      return failure();
    Value x = in.tensor(xi);
    int64_t s1 = in.indexOf(mean->first);
    if (s1 < 0)
      return failure();
    auto sum1 = stripViews(in.tensor(s1)).getDefiningOp<ReduceOp>();
    if (!sum1)
      return failure();
    ArrayRef<int64_t> axes = sum1.getAxes();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    int64_t n = countOver(x, axes);
    if (axes.back() != rank - 1 || !isPlainSum(sum1, x, axes) ||
        !isCount(mean->second, n) || !in.isReducedAlong(s1, axes))
      return rewriter.notifyMatchFailure(ew, "no mean over trailing axes");
    // rsqrt(s2 / N + eps), s2 the sum of (x - mean)^2.
    auto varEps = matchAddEps(rsqrt.getOperand());
    auto var = varEps ? matchDivByConstant(varEps->first) : std::nullopt;
    if (!var || !isCount(var->second, n))
      return failure();
    int64_t s2 = in.indexOf(var->first);
    if (s2 < 0 || !in.isReducedAlong(s2, axes))
      return failure();
    auto sum2 = stripViews(in.tensor(s2)).getDefiningOp<ReduceOp>();
    if (!sum2 || sum2.getInput() != x || sum2.getAxes() != axes ||
        sum2.getKindList() != SmallVector<ReduceKind>{ReduceKind::Sum} ||
        sum2.getIns().size() != 1 || sum2.getPrologue().empty() ||
        !sum2.getEpilogue().empty() ||
        !isPlainSum(stripViews(sum2.getIns().front()).getDefiningOp<ReduceOp>(),
                    x, axes) ||
        !isReducedMap(sum2.getInsMaps().front(), axes))
      return rewriter.notifyMatchFailure(ew, "no variance over the axes");
    Region &pro = sum2.getPrologue();
    auto isCentered = [&](Value d) {
      auto sub = defOf<arith::SubFOp>(d);
      if (!sub || !isArg(pro, sub.getLhs(), 0))
        return false;
      auto m = matchDivByConstant(sub.getRhs());
      return m && isArg(pro, m->first, 1) && isCount(m->second, n);
    };
    if (!isSquareOf(yielded(pro), isCentered))
      return rewriter.notifyMatchFailure(ew, "the variance is not of "
                                             "(x - mean)^2");
    Value weight, bias;
    if (wi >= 0) {
      if (!followsExactly(in.maps[wi], axes))
        return failure();
      weight = in.tensor(wi);
    }
    if (bi >= 0) {
      if (!followsExactly(in.maps[bi], axes))
        return failure();
      bias = in.tensor(bi);
    }
    DenseI64ArrayAttr axesAttr;
    if (axes.size() != 1)
      axesAttr = rewriter.getDenseI64ArrayAttr(axes);
    auto norm = LayerNormOp::create(
        rewriter, ew.getLoc(), ew.getResult().getType(), x, weight, bias,
        axesAttr, rewriter.getF32FloatAttr(varEps->second),
        /*schedule=*/nullptr);
    rewriter.replaceOp(ew, norm.getResult());
    return success();
  }
};
} // namespace

namespace mlir::hkg {
namespace {
struct HkgMatchRowOpsPass final
    : impl::HkgMatchRowOpsPassBase<HkgMatchRowOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MatchSoftmax, MatchRMSNorm, MatchLayerNorm>(&getContext());
    // A walk, not the greedy driver: its folder would hoist the bodies'
    // constants out of their regions.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // The reductions (and their views) nothing reads any more.
    SmallVector<Operation *> dead;
    getOperation()->walk([&](Operation *op) {
      if (isa<ReduceOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
        dead.push_back(op);
    });
    for (Operation *op : llvm::reverse(dead))
      if (op->use_empty())
        op->erase();
  }
};
} // namespace
} // namespace mlir::hkg
