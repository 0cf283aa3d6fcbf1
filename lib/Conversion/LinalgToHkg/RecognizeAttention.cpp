//===- RecognizeAttention.cpp - torch's SDPA decomposition to attention ---===//
//
// torch.export decomposes scaled_dot_product_attention (its math backend)
// into, on [B, H, S, D] tensors:
//
//   qs = q * c1 (f32)            ks = transpose(k, -1, -2) * c2
//   s  = bmm(qs, ks)             [+ mask: select(j <= i, 0, -inf) built from
//                                  iotas, for is_causal; or attn_mask, a
//                                  float tensor (widened from 16 bits)
//                                  broadcast from its trailing dims]
//   m  = max(s, -1)   e = exp(s - m)   p = e / sum(e, -1)
//   p  = select(all(s == -inf, -1), 0, p)       (the fully-masked-row guard)
//   o  = bmm(p, v)               -> truncf to the input type
//
// with bf16 inputs widened to f32 first and, for grouped-query heads, k and
// v broadcast from Hkv to H heads ([B, Hkv, G, S, D] collapsed). This is
// hkg.attention with scale c1 * c2, causal when the mask is, with
// `mask(attn_mask)` (viewed as rank 4) when it is any other added tensor,
// in the [B, S, H, D] layout when q, k and v are all transposes of
// token-major tensors (then the output's transpose back folds in too).
//
// The guard changes nothing under a causal mask whose diagonal is visible
// (no row is fully masked), nor without a mask: rows are never all -inf
// unless q or k hold infinities. Under an additive mask it zeroes the rows
// the mask hides entirely, as hkg.attention does.
//
//===----------------------------------------------------------------------===//

#include "Compositions.h"
#include "Raise.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

namespace {
/// Why a composition that is attention cannot become hkg.attention.
struct Refusal {
  std::string why;
};

/// An operand of the attention as the decomposition reads it: its [B, H,
/// S, D] tensor before widening and scaling, the scale applied, and the
/// number of key/value heads when broadcast to query heads.
struct Peeled {
  Value base;
  double scale = 1.0;
};
} // namespace

static bool hasIterators(linalg::GenericOp g, unsigned parallel,
                         unsigned reduction) {
  auto its = g.getIteratorTypesArray();
  if (its.size() != parallel + reduction)
    return false;
  for (unsigned i = 0; i < its.size(); ++i)
    if ((i < parallel) != (its[i] == utils::IteratorType::parallel))
      return false;
  return true;
}

static bool isFilledWith(Value init, double value) {
  std::optional<TypedAttr> fill = getFillConstant(init);
  auto f = fill ? dyn_cast<FloatAttr>(*fill) : FloatAttr();
  return f && f.getValueAsDouble() == value;
}

/// `v` = the payload op `OpTy` applied to block arguments `a` and `b` (of
/// `body`), in either order.
template <typename OpTy> static bool isBinaryOf(Value v, Value a, Value b) {
  auto op = v.getDefiningOp<OpTy>();
  return op && ((op->getOperand(0) == a && op->getOperand(1) == b) ||
                (op->getOperand(0) == b && op->getOperand(1) == a));
}

/// A batch matmul as generalized from linalg.batch_matmul: C[b, m, n] +=
/// A[b, m, k] * B[b, k, n] into a zero-filled C.
static bool matchBatchMatmul(linalg::GenericOp g, Value &lhs, Value &rhs) {
  if (g.getNumDpsInputs() != 2 || g.getNumDpsInits() != 1 ||
      !hasIterators(g, 3, 1))
    return false;
  MLIRContext *ctx = g.getContext();
  AffineExpr b, m, n, k;
  bindDims(ctx, b, m, n, k);
  if (g.getIndexingMapsArray() !=
      AffineMap::inferFromExprList(
          ArrayRef<ArrayRef<AffineExpr>>{{b, m, k}, {b, k, n}, {b, m, n}}, ctx))
    return false;
  if (!isMultiplyAccumulate(g) || !isFilledWith(g.getDpsInits()[0], 0.0))
    return false;
  lhs = g.getDpsInputs()[0];
  rhs = g.getDpsInputs()[1];
  return true;
}

/// The value a collapse_shape with reassociation `groups` collapses.
static Value collapsedFrom(Value v, ArrayRef<ReassociationIndices> groups) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getReassociationIndices() !=
                       SmallVector<ReassociationIndices>(groups))
    return {};
  return collapse.getSrc();
}

/// The value an expand_shape with reassociation `groups` expands.
static Value expandedFrom(Value v, ArrayRef<ReassociationIndices> groups) {
  auto expand = v.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand || expand.getReassociationIndices() !=
                     SmallVector<ReassociationIndices>(groups))
    return {};
  return expand.getSrc();
}

/// Peels widenings (extf) and, where `scales`, multiplications by a
/// constant off `v`.
static Peeled peel(Value v, bool scales) {
  Peeled p{v};
  while (true) {
    SmallVector<Value> in;
    if (matchMapOf<arith::ExtFOp>(p.base, in)) {
      p.base = in[0];
      continue;
    }
    MapStep mul = getMapStep(p.base);
    if (scales && mul && isa<arith::MulFOp>(mul.op)) {
      std::optional<double> c;
      OpOperand *x = nullptr;
      for (unsigned i = 0; i < 2 && !c; ++i) {
        c = getScalarConstant(mul.op->getOperand(1 - i));
        x = mul.input(i);
        if (!x || !mul.map(i).isIdentity())
          c = std::nullopt;
      }
      if (c) {
        p.scale *= *c;
        p.base = x->get();
        continue;
      }
    }
    return p;
  }
}

/// Peels the grouped-query broadcast of key/value: `wide` [B, Hkv, G, S,
/// D] broadcast from [B, Hkv, S, D] (then collapsed to Hkv * G heads, query
/// head h reading key/value head h / G, as hkg.attention does).
static Value peelHeadBroadcast(Value wide) {
  auto moved = matchDataMovement(wide);
  MLIRContext *ctx = wide.getContext();
  AffineExpr b, h, g, s, d;
  bindDims(ctx, b, h, g, s, d);
  if (!moved || moved->second != AffineMap::get(5, 0, {b, h, s, d}, ctx))
    return {};
  return moved->first;
}

/// The loop dim whose index `v` read through `map` is: an iota (a generic
/// with no input yielding linalg.index 0) expanded to one non-unit dim.
static std::optional<unsigned> iotaLoop(Value v, AffineMap map) {
  auto expand = v.getDefiningOp<tensor::ExpandShapeOp>();
  Value iota = expand ? expand.getSrc() : v;
  auto g = iota.getDefiningOp<linalg::GenericOp>();
  if (!g || g->getNumResults() != 1 || g.getNumDpsInputs() != 0 ||
      g.getNumLoops() != 1)
    return std::nullopt;
  Block &body = g.getRegion().front();
  auto indexCast =
      body.getTerminator()->getOperand(0).getDefiningOp<arith::IndexCastOp>();
  auto index = indexCast ? indexCast.getIn().getDefiningOp<linalg::IndexOp>()
                         : linalg::IndexOp();
  if (!index || index.getDim() != 0)
    return std::nullopt;
  // An index that wraps in a narrow integer is no iota.
  auto width = cast<IntegerType>(indexCast.getType()).getWidth();
  int64_t extent = cast<RankedTensorType>(iota.getType()).getDimSize(0);
  if (width < 64 && (width <= 1 || extent > (int64_t(1) << (width - 1))))
    return std::nullopt;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
  std::optional<unsigned> along;
  for (unsigned i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1)
      continue;
    if (along)
      return std::nullopt;
    along = i;
  }
  if (!along)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(map.getResult(*along));
  if (!dim)
    return std::nullopt;
  return dim.getPosition();
}

/// A causal mask [Sq, Skv] = select(j <= i + offset, 0, -inf) built from
/// iotas: the offset.
static std::optional<int64_t> matchCausalMask(Value mask) {
  MapStep select = getMapStep(mask);
  if (!select || select.generic.getNumLoops() != 2 ||
      !isa<arith::SelectOp>(select.op) || !select.input(0) ||
      !select.map(0).isIdentity() || select.constant(1) != 0.0 ||
      select.constant(2) != -INFINITY)
    return std::nullopt;
  Value pred = select.input(0)->get();
  // An and with an all-true constant (torch's tril of ones) changes nothing.
  if (MapStep andi = getMapStep(pred); andi && isa<arith::AndIOp>(andi.op)) {
    for (unsigned i = 0; i < 2; ++i)
      if (andi.constant(1 - i) == 1.0 && andi.input(i) &&
          andi.map(i).isIdentity()) {
        pred = andi.input(i)->get();
        break;
      }
  }
  MapStep cmp = getMapStep(pred);
  auto cmpi = cmp ? dyn_cast<arith::CmpIOp>(cmp.op) : arith::CmpIOp();
  if (!cmpi || cmp.generic.getNumLoops() != 2 || !cmp.input(0) ||
      !cmp.map(0).isIdentity())
    return std::nullopt;
  std::optional<double> c = cmp.constant(1);
  MapStep sub = getMapStep(cmp.input(0)->get());
  if (!c || !sub || sub.generic.getNumLoops() != 2 ||
      !isa<arith::SubIOp>(sub.op) || !sub.input(0) || !sub.input(1))
    return std::nullopt;
  std::optional<unsigned> a = iotaLoop(sub.input(0)->get(), sub.map(0));
  std::optional<unsigned> b = iotaLoop(sub.input(1)->get(), sub.map(1));
  if (!a || !b || *a == *b)
    return std::nullopt;
  // Loop 0 is the query i, loop 1 the key j; the difference is j - i or
  // i - j.
  bool keyMinusQuery = *a == 1;
  int64_t k = static_cast<int64_t>(*c);
  using P = arith::CmpIPredicate;
  switch (cmpi.getPredicate()) {
  case P::sle: // j - i <= k
    return keyMinusQuery ? std::optional<int64_t>(k) : std::nullopt;
  case P::slt: // j - i < k
    return keyMinusQuery ? std::optional<int64_t>(k - 1) : std::nullopt;
  case P::sge: // i - j >= k
    return keyMinusQuery ? std::nullopt : std::optional<int64_t>(-k);
  case P::sgt: // i - j > k
    return keyMinusQuery ? std::nullopt : std::optional<int64_t>(-k - 1);
  default:
    return std::nullopt;
  }
}

/// Whether `guard` is all(s == -inf) over the last dim of `s`, kept.
static bool isFullyMaskedGuard(Value guard, Value s) {
  auto g = guard.getDefiningOp<linalg::GenericOp>();
  if (!g || g->getNumResults() != 1 || g.getNumDpsInputs() != 1 ||
      !hasIterators(g, 3, 1) ||
      !g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity() ||
      !isRowBroadcast(g.getMatchingIndexingMap(g.getDpsInitOperand(0))))
    return false;
  Block &body = g.getRegion().front();
  std::optional<TypedAttr> fill = getFillConstant(g.getDpsInits()[0]);
  auto init = fill ? dyn_cast<IntegerAttr>(*fill) : IntegerAttr();
  if (!init || init.getValue().isZero() ||
      !isBinaryOf<arith::AndIOp>(body.getTerminator()->getOperand(0),
                                 body.getArgument(0), body.getArgument(1)))
    return false;
  // s == -inf, perhaps compared in f64.
  auto eq = g.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
  if (!eq || eq.getNumDpsInputs() != 1 || eq->getNumResults() != 1 ||
      eq.getNumReductionLoops() != 0 || eq.getDpsInputs()[0] != s ||
      !hasIdentityMaps(eq))
    return false;
  Block &eqBody = eq.getRegion().front();
  auto cmpf =
      eqBody.getTerminator()->getOperand(0).getDefiningOp<arith::CmpFOp>();
  if (!cmpf || cmpf.getPredicate() != arith::CmpFPredicate::OEQ ||
      getScalarConstant(cmpf.getRhs()) != -INFINITY)
    return false;
  Value lhs = cmpf.getLhs();
  if (auto ext = lhs.getDefiningOp<arith::ExtFOp>())
    lhs = ext.getIn();
  return lhs == eqBody.getArgument(0);
}

namespace {
/// The pieces of a recognized decomposition.
struct Sdpa {
  Value q, k, v;
  double scale = 1.0;
  std::optional<int64_t> causalOffset;
  /// An additive mask, as the masking generic reads it (rank <= 4, over the
  /// trailing loops of [B, H, Sq, Skv] or 0 on its unit dims).
  Value mask;
};
} // namespace

/// The operand that `masking` adds to its input `scores`: its body yields
/// addf(scores, m) or addf(scores, extf(m)) (a 16-bit mask added in f32),
/// either order. Null if it does not.
static OpOperand *addedOperand(linalg::GenericOp masking, Value scores) {
  if (masking->getNumResults() != 1 || masking.getNumReductionLoops() != 0 ||
      masking.getNumDpsInputs() != 2 ||
      !masking.getIndexingMapsArray().back().isIdentity())
    return nullptr;
  Block &body = masking.getRegion().front();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != &body)
    return nullptr;
  auto inputOf = [&](Value v) -> OpOperand * {
    // A 16-bit mask widened to the scores' f32.
    if (auto ext = v.getDefiningOp<arith::ExtFOp>();
        ext && ext->getBlock() == &body &&
        ext.getIn().getType().getIntOrFloatBitWidth() == 16)
      v = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &body ||
        arg.getArgNumber() >= masking.getNumDpsInputs())
      return nullptr;
    return masking.getDpsInputOperand(arg.getArgNumber());
  };
  // Nothing else in the body but the add and one extf.
  if (std::distance(body.begin(), body.end()) > 3)
    return nullptr;
  for (unsigned i = 0; i < 2; ++i) {
    OpOperand *s = inputOf(add->getOperand(i));
    OpOperand *m = inputOf(add->getOperand(1 - i));
    if (s && m && s != m && s->get() == scores &&
        masking.getMatchingIndexingMap(s).isIdentity())
      return m;
  }
  return nullptr;
}

/// The softmax of `p4` [B, H, Sq, Skv] (with its guard): the scores
/// before the mask, and the mask if any: the tensor added to the scores
/// with its indexing map (`maskMap`), or the whole masking generic (a null
/// map). Fails without a reason when `p4` is no softmax.
static bool matchSoftmax(Value p4, Value &scores, Value &mask,
                         AffineMap &maskMap) {
  // The guard, optional.
  Value normalized = p4;
  MapStep guard = getMapStep(p4);
  if (guard && isa<arith::SelectOp>(guard.op) && guard.input(2) &&
      guard.map(2).isIdentity() && guard.constant(1) == 0.0 && guard.input(0) &&
      isRowBroadcast(guard.map(0)))
    normalized = guard.input(2)->get();
  else
    guard = {};
  MapStep div = getMapStep(normalized);
  if (!div || !isa<arith::DivFOp>(div.op) || !div.input(0) || !div.input(1) ||
      !div.map(0).isIdentity() || !isRowBroadcast(div.map(1)))
    return false;
  Value e = div.input(0)->get();
  if (matchLastDimReduction(div.input(1)->get(), "arith.addf", 0.0) != e)
    return false;
  SmallVector<Value> in;
  if (!matchMapOf<math::ExpOp>(e, in))
    return false;
  MapStep sub = getMapStep(in[0]);
  if (!sub || !isa<arith::SubFOp>(sub.op) || !sub.input(0) || !sub.input(1) ||
      !sub.map(0).isIdentity() || !isRowBroadcast(sub.map(1)))
    return false;
  Value masked = sub.input(0)->get();
  Value max = expandedFrom(sub.input(1)->get(), {{0}, {1}, {2, 3}});
  if (!max || matchLastDimReduction(max, "arith.maximumf", -INFINITY) != masked)
    return false;
  if (guard && !isFullyMaskedGuard(guard.input(0)->get(), masked))
    return false;
  scores = masked;
  mask = Value();
  auto isScores = [](Value v) {
    Value s3 = expandedFrom(v, {{0, 1}, {2}, {3}});
    auto g = s3 ? s3.getDefiningOp<linalg::GenericOp>() : linalg::GenericOp();
    Value lhs, rhs;
    return g && matchBatchMatmul(g, lhs, rhs);
  };
  auto masking = masked.getDefiningOp<linalg::GenericOp>();
  if (isScores(masked) || !masking)
    return true;
  // Scores with a mask added: a causal one ([Sq, Skv] from iotas) or an
  // additive one; anything else stands as the masking generic (refused).
  for (OpOperand *in : masking.getDpsInputOperands())
    if (isScores(in->get()) && masking.getMatchingIndexingMap(in).isIdentity())
      scores = in->get();
  mask = masked;
  maskMap = AffineMap();
  if (OpOperand *added = addedOperand(masking, scores)) {
    mask = added->get();
    maskMap = masking.getMatchingIndexingMap(added);
  }
  return true;
}

/// Whether `map` reads a mask of hkg.attention's [B, H, Sq, Skv] with
/// leading dims left out: result r of n is loop 4 - n + r, or 0 where the
/// mask's dim is 1.
static bool isTrailingBroadcast(AffineMap map, RankedTensorType mask) {
  unsigned n = map.getNumResults();
  if (map.getNumDims() != 4 || n > 4 || mask.getRank() != n ||
      !mask.hasStaticShape())
    return false;
  for (unsigned r = 0; r < n; ++r) {
    AffineExpr e = map.getResult(r);
    if (auto dim = dyn_cast<AffineDimExpr>(e);
        dim && dim.getPosition() == 4 - n + r)
      continue;
    auto zero = dyn_cast<AffineConstantExpr>(e);
    if (!zero || zero.getValue() != 0 || mask.getDimSize(r) != 1)
      return false;
  }
  return true;
}

/// The SDPA whose output (before the truncation) is the batch matmul
/// `pv`; null with no refusal if `pv` is no attention's.
static FailureOr<Sdpa> matchSdpa(linalg::GenericOp pv, Refusal &refusal) {
  Value p3, v3;
  if (!matchBatchMatmul(pv, p3, v3))
    return failure();
  Value p4 = collapsedFrom(p3, {{0, 1}, {2}, {3}});
  Value scores, mask;
  AffineMap maskMap;
  if (!p4 || !matchSoftmax(p4, scores, mask, maskMap))
    return failure();
  // From here on it is attention: a failure says why.
  auto refuse = [&](const Twine &why) {
    refusal.why = why.str();
    return failure();
  };
  Value s3 = expandedFrom(scores, {{0, 1}, {2}, {3}});
  Value q3, kt3;
  if (!s3 || !s3.getDefiningOp<linalg::GenericOp>() ||
      !matchBatchMatmul(s3.getDefiningOp<linalg::GenericOp>(), q3, kt3))
    return refuse("its scores are not a batch matmul of q and k^T");
  Value q4 = collapsedFrom(q3, {{0, 1}, {2}, {3}});
  Value kt4 = collapsedFrom(kt3, {{0, 1}, {2}, {3}});
  if (!q4 || !kt4)
    return refuse("its q or k^T is not a [B, H, S, D] tensor");

  Sdpa sdpa;
  Peeled q = peel(q4, /*scales=*/true);
  Peeled kt = peel(kt4, /*scales=*/true);
  auto moved = matchDataMovement(kt.base);
  MLIRContext *ctx = pv.getContext();
  AffineMap swapLast =
      AffineMap::getPermutationMap(ArrayRef<unsigned>{0, 1, 3, 2}, ctx);
  if (!moved || moved->second != swapLast)
    return refuse("its k^T is not a transpose of k's last two dims");
  Peeled k = peel(moved->first, /*scales=*/true);
  if (Value wide = collapsedFrom(k.base, {{0}, {1, 2}, {3}, {4}})) {
    Value narrow = peelHeadBroadcast(peel(wide, false).base);
    if (!narrow)
      return refuse("its k heads are not a grouped-query broadcast");
    Peeled inner = peel(narrow, /*scales=*/true);
    k.base = inner.base;
    k.scale *= inner.scale;
  }
  Value v;
  if (Value wide = collapsedFrom(v3, {{0, 1, 2}, {3}, {4}})) {
    v = peelHeadBroadcast(peel(wide, false).base);
    if (!v)
      return refuse("its v heads are not a grouped-query broadcast");
  } else if (!(v = collapsedFrom(v3, {{0, 1}, {2}, {3}}))) {
    return refuse("its v is not a [B, H, S, D] tensor");
  }
  sdpa.q = q.base;
  sdpa.k = k.base;
  sdpa.v = peel(v, /*scales=*/false).base;
  sdpa.scale = q.scale * kt.scale * k.scale;
  for (Value x : {sdpa.q, sdpa.k, sdpa.v})
    if (cast<RankedTensorType>(x.getType()).getRank() != 4)
      return refuse("its q, k or v is not a [B, H, S, D] tensor");
  if (!mask)
    return sdpa;
  // A causal mask when it is one, read as [Sq, Skv]; else an additive mask
  // that hkg.attention reads as [B|1, Hq|1, Sq|1, Skv|1].
  if (!maskMap)
    return refuse("its scores are masked by something other than an added "
                  "tensor (a causal select(j <= i + offset, 0, -inf) from "
                  "iotas, or an additive mask)");
  AffineMap querykey = AffineMap::get(
      4, 0, {getAffineDimExpr(2, ctx), getAffineDimExpr(3, ctx)}, ctx);
  if (maskMap == querykey)
    if ((sdpa.causalOffset = matchCausalMask(mask)))
      return sdpa;
  auto maskType = cast<RankedTensorType>(mask.getType());
  if (!isTrailingBroadcast(maskMap, maskType)) {
    std::string read;
    llvm::raw_string_ostream(read) << maskMap;
    return refuse("its additive mask is read as " + read +
                  ", not as a broadcast to [B, H, Sq, Skv] (its dims the "
                  "trailing ones, each that size or 1)");
  }
  sdpa.mask = mask;
  return sdpa;
}

/// Builds hkg.attention for `sdpa`, whose f32 output is `pv`, and replaces
/// the value the program reads.
static LogicalResult buildAttention(RewriterBase &rewriter,
                                    linalg::GenericOp pv, const Sdpa &sdpa,
                                    Refusal &refusal) {
  auto qType = cast<RankedTensorType>(sdpa.q.getType());
  auto kType = cast<RankedTensorType>(sdpa.k.getType());
  auto vType = cast<RankedTensorType>(sdpa.v.getType());
  Type elem = qType.getElementType();
  if (kType.getElementType() != elem || vType.getElementType() != elem) {
    refusal.why = "q, k and v have different element types";
    return failure();
  }
  // The output: pv [B*H, Sq, Dv] expanded to [B, H, Sq, Dv], rounded to
  // the inputs' type.
  Value out = pv.getResult(0);
  if (!out.hasOneUse()) {
    refusal.why = "its output is read before it is rounded";
    return failure();
  }
  auto expand = dyn_cast<tensor::ExpandShapeOp>(*out.getUsers().begin());
  if (!expand) {
    refusal.why = "its output is not viewed as [B, H, Sq, Dv]";
    return failure();
  }
  Value o4 = expand.getResult();
  if (cast<RankedTensorType>(o4.getType()).getElementType() != elem) {
    SmallVector<Value> in;
    Operation *user = o4.hasOneUse() ? *o4.getUsers().begin() : nullptr;
    if (!user || user->getNumResults() != 1 ||
        !matchMapOf<arith::TruncFOp>(user->getResult(0), in) || in[0] != o4 ||
        cast<RankedTensorType>(user->getResult(0).getType()).getElementType() !=
            elem) {
      refusal.why = "its f32 output is not rounded to the inputs' type";
      return failure();
    }
    o4 = user->getResult(0);
  }

  // The layout: [B, S, H, D] when q, k and v all are transposes of it.
  MLIRContext *ctx = pv.getContext();
  AffineMap swap =
      AffineMap::getPermutationMap(ArrayRef<unsigned>{0, 2, 1, 3}, ctx);
  SmallVector<Value> tokenMajor;
  for (Value x : {sdpa.q, sdpa.k, sdpa.v})
    if (auto moved = matchDataMovement(x); moved && moved->second == swap)
      tokenMajor.push_back(moved->first);
  bool bshd = tokenMajor.size() == 3;
  Value q = bshd ? tokenMajor[0] : sdpa.q;
  Value k = bshd ? tokenMajor[1] : sdpa.k;
  Value v = bshd ? tokenMajor[2] : sdpa.v;
  auto o4Type = cast<RankedTensorType>(o4.getType());
  SmallVector<int64_t> resultShape(o4Type.getShape());
  if (bshd)
    std::swap(resultShape[1], resultShape[2]);
  auto resultType = RankedTensorType::get(resultShape, elem);

  int64_t sq = o4Type.getDimSize(2);
  int64_t skv = cast<RankedTensorType>(sdpa.k.getType()).getDimSize(2);
  if (sdpa.causalOffset && *sdpa.causalOffset != skv - sq) {
    refusal.why = "its causal mask lets query i see keys j <= i + " +
                  std::to_string(*sdpa.causalOffset) +
                  "; hkg.attention's causal is j <= i + (Skv - Sq) = " +
                  std::to_string(skv - sq);
    return failure();
  }

  // With [B, S, H, D], a transpose of the output back to it folds in.
  Operation *anchor = o4.getDefiningOp();
  Value target = o4;
  if (bshd && o4.hasOneUse()) {
    Operation *user = *o4.getUsers().begin();
    if (user->getNumResults() == 1)
      if (auto moved = matchDataMovement(user->getResult(0));
          moved && moved->first == o4 && moved->second == swap) {
        anchor = user;
        target = user->getResult(0);
      }
  }
  rewriter.setInsertionPoint(anchor);
  Location loc = pv.getLoc();
  // The mask with its left-out leading dims as 1s: [Sq, Skv] becomes
  // [1, 1, Sq, Skv].
  Value mask = sdpa.mask;
  if (mask) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    int64_t rank = maskType.getRank();
    if (rank < 4) {
      SmallVector<int64_t> shape(4 - rank, 1);
      llvm::append_range(shape, maskType.getShape());
      SmallVector<ReassociationIndices> groups;
      for (int64_t r = 0; r < rank; ++r) {
        // The first dim takes the new unit dims before it.
        ReassociationIndices group;
        for (int64_t d = r == 0 ? 0 : 4 - rank + r; d <= 4 - rank + r; ++d)
          group.push_back(d);
        groups.push_back(group);
      }
      mask = tensor::ExpandShapeOp::create(rewriter, loc, maskType.clone(shape),
                                           mask, groups);
    }
  }
  auto attention = AttentionOp::create(
      rewriter, loc, resultType, q, k, v, mask,
      sdpa.causalOffset ? rewriter.getUnitAttr() : UnitAttr(),
      rewriter.getF32FloatAttr(static_cast<float>(sdpa.scale)),
      bshd ? AttentionLayoutAttr::get(ctx, AttentionLayout::Bshd)
           : AttentionLayoutAttr(),
      /*schedule=*/nullptr);
  std::string message;
  if (failed(verifyQuietly(attention, message))) {
    rewriter.eraseOp(attention);
    if (mask != sdpa.mask)
      rewriter.eraseOp(mask.getDefiningOp());
    refusal.why = "the hkg.attention it would be is invalid: " + message;
    return failure();
  }
  Value result = attention.getResult();
  if (bshd && target == o4) {
    // The program reads [B, H, S, D]: move the result back.
    Value init =
        tensor::EmptyOp::create(rewriter, loc, o4Type.getShape(), elem);
    auto transpose = linalg::TransposeOp::create(rewriter, loc, result, init,
                                                 ArrayRef<int64_t>{0, 2, 1, 3});
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, transpose);
    result =
        succeeded(generic) ? (*generic)->getResult(0) : transpose->getResult(0);
  }
  rewriter.replaceAllUsesWith(target, result);
  return success();
}

int raise::recognizeAttention(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::GenericOp> contractions;
  root->walk([&](linalg::GenericOp g) {
    if (g.getNumReductionLoops() == 1 && g.getNumLoops() == 4)
      contractions.push_back(g);
  });
  int count = 0;
  for (linalg::GenericOp pv : contractions) {
    Refusal refusal;
    FailureOr<Sdpa> sdpa = matchSdpa(pv, refusal);
    if (succeeded(sdpa) &&
        succeeded(buildAttention(rewriter, pv, *sdpa, refusal))) {
      ++count;
      continue;
    }
    if (!refusal.why.empty())
      pv->emitRemark("this attention (torch's scaled_dot_product_attention "
                     "decomposition) is not raised to hkg.attention: ")
          << refusal.why;
  }
  return count;
}
