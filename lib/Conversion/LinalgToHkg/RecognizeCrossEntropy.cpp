//===- RecognizeCrossEntropy.cpp - torch's cross-entropy to two reductions ===//
//
// F.cross_entropy(logits [N, C], targets [N], reduction="mean",
// ignore_index=k), exported:
//
//   ls    = log_softmax(logits, 1)           (max, sub, exp, sum, log, sub;
//                                             rounded to the logits' type)
//   valid = targets != k
//   g     = ls[i, valid ? targets[i] : 0]    (a generic of tensor.extract,
//                                             cf.assert on the bounds)
//   l     = valid ? -g : 0
//   loss  = sum(l) / count(valid)            (rank 0)
//
// is two hkg.reduce kernels that never write the [N, C] log-probabilities:
//
//   nll[i] = logsumexp(logits[i, :]) - logits[i, t]     kinds logsumexp, sum
//            (the prologue picks logits[i, t] by hkg.index; a target
//             outside [0, C) that is not k gives NaN, where torch's
//             assert would stop the program)
//   loss   = sum(valid ? nll : 0) / sum(valid ? 1 : 0)  kinds sum, sum
//
// Both accumulate in f32 (torch sums the bf16 losses in bf16 and divides
// by the count rounded to bf16: 8191 becomes 8192); the count is exact in
// f32 up to 2^24 rows, the recognizer's limit.
//
//===----------------------------------------------------------------------===//

#include "Compositions.h"
#include "Raise.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

namespace {
/// The pieces of a recognized cross-entropy.
struct CrossEntropy {
  Value logits, targets;
  int64_t ignoreIndex = 0;
  /// The gather, whose bounds asserts the NaN of an out-of-range target
  /// replaces: erased with the rest of the decomposition.
  Operation *gather = nullptr;
};
} // namespace

/// The value an expand_shape of `v` into [N, 1] expands, or a collapse of
/// [N, 1] to [N] collapses.
static Value unitViewSource(Value v) {
  if (auto expand = v.getDefiningOp<tensor::ExpandShapeOp>())
    if (expand.getReassociationIndices().size() == 1)
      return expand.getSrc();
  if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>())
    if (collapse.getReassociationIndices().size() == 1)
      return collapse.getSrc();
  return {};
}

/// log_softmax(x, last dim) (rounded to x's type): x.
static Value matchLogSoftmax(Value v) {
  SmallVector<Value> in;
  if (matchMapOf<arith::TruncFOp>(v, in))
    v = in[0];
  MapStep sub = getMapStep(v);
  if (!sub || !isa<arith::SubFOp>(sub.op) || !sub.input(0) || !sub.input(1) ||
      !sub.map(0).isIdentity() || !isRowBroadcast(sub.map(1)))
    return {};
  Value shifted = sub.input(0)->get();
  if (!matchMapOf<math::LogOp>(sub.input(1)->get(), in) ||
      !(in[0] = matchLastDimReduction(in[0], "arith.addf", 0.0)) ||
      !matchMapOf<math::ExpOp>(in[0], in) || in[0] != shifted)
    return {};
  MapStep center = getMapStep(shifted);
  if (!center || !isa<arith::SubFOp>(center.op) || !center.input(0) ||
      !center.input(1) || !center.map(0).isIdentity() ||
      !isRowBroadcast(center.map(1)))
    return {};
  Value wide = center.input(0)->get();
  Value max = unitViewSource(center.input(1)->get());
  if (!max || matchLastDimReduction(max, "arith.maximumf", -INFINITY) != wide)
    return {};
  if (matchMapOf<arith::ExtFOp>(wide, in))
    return in[0];
  return wide;
}

/// A gather of `src` [N, C] at [i, index[i]] (a generic over index [N, 1]
/// whose body extracts src[linalg.index 0, index_cast(index)], with bounds
/// asserts): src and index.
static bool matchRowGather(Value v, Value &src, Value &index) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g->getNumResults() != 1 || g.getNumDpsInputs() != 1 ||
      g.getNumReductionLoops() != 0 || !hasIdentityMaps(g))
    return false;
  Block &body = g.getRegion().front();
  auto extract =
      body.getTerminator()->getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract.getIndices().size() != 2 ||
      g.getRegion().isAncestor(extract.getTensor().getParentRegion()))
    return false;
  auto row = extract.getIndices()[0].getDefiningOp<linalg::IndexOp>();
  auto col = extract.getIndices()[1].getDefiningOp<arith::IndexCastOp>();
  if (!row || row.getDim() != 0 || !col || col.getIn() != body.getArgument(0))
    return false;
  // Nothing else but the bounds checks.
  for (Operation &op : body.without_terminator())
    if (!isa<linalg::IndexOp, arith::IndexCastOp, arith::CmpIOp, cf::AssertOp,
             tensor::ExtractOp, arith::ConstantOp>(op))
      return false;
  src = extract.getTensor();
  index = g.getDpsInputs()[0];
  return true;
}

/// `v` = targets != k: targets and k.
static std::optional<int64_t> matchNotIgnored(Value v, Value &targets) {
  MapStep ne = getMapStep(v);
  auto cmp = ne ? dyn_cast<arith::CmpIOp>(ne.op) : arith::CmpIOp();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::ne || !ne.input(0) ||
      !ne.map(0).isIdentity())
    return std::nullopt;
  APInt k;
  if (!matchPattern(cmp.getRhs(), m_ConstantInt(&k)) || k.getBitWidth() > 64)
    return std::nullopt;
  targets = ne.input(0)->get();
  return k.getSExtValue();
}

/// select(valid, a, zero) of inputs read at the identity (zero: a constant,
/// perhaps a rank-0 tensor): a.
static Value matchSelectOrZero(Value v, Value valid) {
  MapStep sel = getMapStep(v);
  if (!sel || !isa<arith::SelectOp>(sel.op) || !sel.input(0) ||
      sel.input(0)->get() != valid || !sel.map(0).isIdentity() ||
      !sel.input(1) || !sel.map(1).isIdentity())
    return {};
  if (sel.constant(2) != 0.0)
    return {};
  return sel.input(1)->get();
}

/// The count of `valid` (a sum of extui(valid) into a zero i64): valid.
static Value matchCount(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g->getNumResults() != 1 || g.getNumDpsInputs() != 1 ||
      g.getNumParallelLoops() != 0)
    return {};
  Block &body = g.getRegion().front();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!add)
    return {};
  Value acc = body.getArgument(1);
  Value term = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto ext = term.getDefiningOp<arith::ExtUIOp>();
  std::optional<TypedAttr> fill = getFillConstant(g.getDpsInits()[0]);
  auto init = fill ? dyn_cast<IntegerAttr>(*fill) : IntegerAttr();
  if (!ext || ext.getIn() != body.getArgument(0) || !init ||
      !init.getValue().isZero())
    return {};
  return g.getDpsInputs()[0];
}

/// The cross-entropy whose mean is `div`, a rank-0 generic.
static std::optional<CrossEntropy> matchCrossEntropy(linalg::GenericOp div) {
  MapStep quotient = getMapStep(div.getResult(0));
  if (!quotient || !isa<arith::DivFOp>(quotient.op) || !quotient.input(0) ||
      !quotient.input(1) ||
      cast<RankedTensorType>(div.getResult(0).getType()).getRank() != 0)
    return std::nullopt;
  SmallVector<Value> in;
  if (!matchMapOf<arith::SIToFPOp>(quotient.input(1)->get(), in))
    return std::nullopt;
  Value valid = matchCount(in[0]);
  Value masked =
      matchLastDimReduction(quotient.input(0)->get(), "arith.addf", 0.0);
  if (!valid || !masked)
    return std::nullopt;
  Value negated = matchSelectOrZero(masked, valid);
  if (!negated || !matchMapOf<arith::NegFOp>(negated, in))
    return std::nullopt;
  Value gathered = unitViewSource(in[0]);
  Value src, index;
  if (!gathered || !matchRowGather(gathered, src, index))
    return std::nullopt;
  Value targets;
  std::optional<int64_t> ignore = matchNotIgnored(valid, targets);
  Value clamped = unitViewSource(index);
  if (!ignore || !clamped || matchSelectOrZero(clamped, valid) != targets)
    return std::nullopt;
  Value logits = matchLogSoftmax(src);
  if (!logits)
    return std::nullopt;
  auto logitsType = cast<RankedTensorType>(logits.getType());
  auto targetsType = cast<RankedTensorType>(targets.getType());
  // One gathered element per row: [N, 1] over [N, 1] indices, viewed as
  // [N] on both sides (linalg.index 0 is then the row).
  int64_t rows = logitsType.getRank() == 2 ? logitsType.getDimSize(0) : -1;
  auto isColumn = [&](Value x) {
    return cast<ShapedType>(x.getType()).getShape() ==
           ArrayRef<int64_t>{rows, 1};
  };
  auto isRows = [&](Value x) {
    return cast<ShapedType>(x.getType()).getShape() == ArrayRef<int64_t>{rows};
  };
  if (!isColumn(gathered) || !isColumn(index) || !isRows(in[0]) ||
      !isRows(clamped))
    return std::nullopt;
  if (logitsType.getRank() != 2 || !logitsType.hasStaticShape() ||
      targetsType.getShape() != logitsType.getShape().take_front() ||
      !targetsType.getElementType().isInteger(64))
    return std::nullopt;
  return CrossEntropy{logits, targets, *ignore, gathered.getDefiningOp()};
}

int raise::recognizeCrossEntropy(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::GenericOp> divs;
  root->walk([&](linalg::GenericOp g) {
    if (g->getNumResults() == 1 && g.getNumLoops() == 0)
      divs.push_back(g);
  });
  int count = 0;
  for (linalg::GenericOp div : divs) {
    std::optional<CrossEntropy> ce = matchCrossEntropy(div);
    if (!ce)
      continue;
    auto logitsType = cast<RankedTensorType>(ce->logits.getType());
    int64_t rows = logitsType.getDimSize(0), classes = logitsType.getDimSize(1);
    if (rows > (int64_t(1) << 24)) {
      div->emitRemark(
          "this cross-entropy is not raised to hkg reductions: its ")
          << rows << " rows exceed the 2^24 an f32 count holds exactly";
      continue;
    }
    MLIRContext *ctx = rewriter.getContext();
    Location loc = div.getLoc();
    Type f32 = rewriter.getF32Type(), i64 = rewriter.getI64Type();
    Type inElem = logitsType.getElementType();
    rewriter.setInsertionPoint(div);
    auto kind = [&](ReduceKind k) -> Attribute {
      return ReduceKindAttr::get(ctx, k);
    };
    auto f32Const = [&](double v) -> Value {
      return arith::ConstantOp::create(rewriter, loc, f32,
                                       rewriter.getF32FloatAttr(v));
    };
    auto i64Const = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc, i64,
                                       rewriter.getI64IntegerAttr(v));
    };

    // nll[i] = logsumexp(x[i, :]) - x[i, t[i]].
    AffineExpr d0, d1;
    bindDims(ctx, d0, d1);
    auto nll = ReduceOp::create(
        rewriter, loc, RankedTensorType::get({rows}, f32), ce->logits,
        ValueRange{ce->targets},
        rewriter.getArrayAttr(
            {kind(ReduceKind::LogSumExp), kind(ReduceKind::Sum)}),
        rewriter.getDenseI64ArrayAttr({1}),
        rewriter.getAffineMapArrayAttr({AffineMap::get(2, 0, {d0}, ctx)}),
        /*schedule=*/nullptr);
    {
      Block *block = rewriter.createBlock(&nll.getPrologue(), {}, {inElem, i64},
                                          {loc, loc});
      rewriter.setInsertionPointToStart(block);
      Value x = block->getArgument(0), t = block->getArgument(1);
      if (x.getType() != f32)
        x = arith::ExtFOp::create(rewriter, loc, f32, x);
      Value j =
          IndexOp::create(rewriter, loc, rewriter.getIndexType(), int64_t(1));
      Value ji = arith::IndexCastOp::create(rewriter, loc, i64, j);
      using P = arith::CmpIPredicate;
      Value hit = arith::CmpIOp::create(rewriter, loc, P::eq, ji, t);
      Value pick =
          arith::SelectOp::create(rewriter, loc, hit, x, f32Const(0.0));
      // A target outside [0, C) that is not ignored: NaN, not a silent 0.
      Value low = arith::CmpIOp::create(rewriter, loc, P::slt, t, i64Const(0));
      Value high =
          arith::CmpIOp::create(rewriter, loc, P::sge, t, i64Const(classes));
      Value out = arith::OrIOp::create(rewriter, loc, low, high);
      Value kept = arith::CmpIOp::create(rewriter, loc, P::ne, t,
                                         i64Const(ce->ignoreIndex));
      Value bad = arith::AndIOp::create(rewriter, loc, out, kept);
      pick = arith::SelectOp::create(rewriter, loc, bad, f32Const(NAN), pick);
      YieldOp::create(rewriter, loc, ValueRange{x, pick});
    }
    {
      Block *block =
          rewriter.createBlock(&nll.getEpilogue(), {}, {f32, f32}, {loc, loc});
      rewriter.setInsertionPointToStart(block);
      Value loss = arith::SubFOp::create(rewriter, loc, block->getArgument(0),
                                         block->getArgument(1));
      YieldOp::create(rewriter, loc, loss);
    }

    // loss = sum(valid ? nll : 0) / sum(valid ? 1 : 0).
    rewriter.setInsertionPoint(div);
    auto resultType = cast<RankedTensorType>(div.getResult(0).getType());
    auto mean = ReduceOp::create(
        rewriter, loc, resultType, nll.getResult(), ValueRange{ce->targets},
        rewriter.getArrayAttr({kind(ReduceKind::Sum), kind(ReduceKind::Sum)}),
        rewriter.getDenseI64ArrayAttr({0}),
        rewriter.getAffineMapArrayAttr(
            {AffineMap::getMultiDimIdentityMap(1, ctx)}),
        /*schedule=*/nullptr);
    {
      Block *block =
          rewriter.createBlock(&mean.getPrologue(), {}, {f32, i64}, {loc, loc});
      rewriter.setInsertionPointToStart(block);
      Value kept = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, block->getArgument(1),
          i64Const(ce->ignoreIndex));
      Value l = arith::SelectOp::create(rewriter, loc, kept,
                                        block->getArgument(0), f32Const(0.0));
      Value one = arith::SelectOp::create(rewriter, loc, kept, f32Const(1.0),
                                          f32Const(0.0));
      YieldOp::create(rewriter, loc, ValueRange{l, one});
    }
    {
      Block *block =
          rewriter.createBlock(&mean.getEpilogue(), {}, {f32, f32}, {loc, loc});
      rewriter.setInsertionPointToStart(block);
      Value r = arith::DivFOp::create(rewriter, loc, block->getArgument(0),
                                      block->getArgument(1));
      Type outElem = resultType.getElementType();
      if (outElem != f32)
        r = arith::TruncFOp::create(rewriter, loc, outElem, r);
      YieldOp::create(rewriter, loc, r);
    }

    std::string message;
    for (Operation *op : {nll.getOperation(), mean.getOperation()}) {
      if (succeeded(verifyQuietly(op, message)))
        continue;
      rewriter.eraseOp(mean);
      rewriter.eraseOp(nll);
      div->emitRemark("this cross-entropy is not raised to hkg reductions: ")
          << message;
      break;
    }
    if (!message.empty())
      continue;
    // The decomposition, now unread, goes; its gather too, whose bounds
    // asserts keep it alive (the NaN of a bad target replaces them).
    SmallVector<Operation *> dead = {div};
    llvm::DenseSet<Operation *> erased;
    rewriter.replaceAllUsesWith(div.getResult(0), mean.getResult());
    while (!dead.empty()) {
      Operation *op = dead.pop_back_val();
      if (erased.contains(op) || !op->use_empty() ||
          (op != ce->gather && !isOpTriviallyDead(op)))
        continue;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          dead.push_back(def);
      erased.insert(op);
      rewriter.eraseOp(op);
    }
    ++count;
  }
  return count;
}
