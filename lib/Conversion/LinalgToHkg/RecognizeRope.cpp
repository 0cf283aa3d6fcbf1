//===- RecognizeRope.cpp - x * cos + rotate_half(x) * sin to hkg.rope -----===//
//
// torch's (and HF Llama's) rotary embedding, exported:
//
//   %a = generic mulf(%x, %cos)        cos: [P, D] read at (s, d)
//   %h = concat dim(last) (generic negf(%x[..., D/2:]), %x[..., :D/2])
//   %b = generic mulf(%h, %sin)        sin: [P, D] read at (s, d)
//   %r = generic addf(%a, %b)
//
// is hkg.rope neox with full-width tables (out[i] = x[i] cos[s, i] -
// x[i + D/2] sin[s, i], out[i + D/2] = x[i + D/2] cos[s, i + D/2] + x[i]
// sin[s, i + D/2]). hkg.rope reads [B, S, H, D] tokens; when x is the
// [B, H, S, D] transpose of such a tensor (Llama transposes before the
// rotation), the rotation is applied before the transpose, which then moves
// the rotated tensor (and later folds into attention's layout).
//
//===----------------------------------------------------------------------===//

#include "Compositions.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

/// Whether `slice` takes, unit-strided, all of its source but the last dim,
/// and of that `size` elements from `offset`.
static bool isLastDimSlice(tensor::ExtractSliceOp slice, int64_t offset,
                           int64_t size) {
  RankedTensorType source = slice.getSourceType();
  int64_t rank = source.getRank();
  if (!source.hasStaticShape() || !slice.hasUnitStride() ||
      slice.getResultType().getRank() != rank)
    return false;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t wantOffset = i + 1 == rank ? offset : 0;
    int64_t wantSize = i + 1 == rank ? size : source.getDimSize(i);
    if (offsets[i] != wantOffset || sizes[i] != wantSize)
      return false;
  }
  return true;
}

/// The x of `v` = concat(-x[..., D/2:], x[..., :D/2]) along the last dim.
static Value matchRotateHalf(Value v) {
  auto concat = v.getDefiningOp<tensor::ConcatOp>();
  if (!concat || concat.getInputs().size() != 2)
    return {};
  RankedTensorType type = concat.getResultType();
  int64_t rank = type.getRank();
  if (!type.hasStaticShape() ||
      concat.getDim() != static_cast<uint64_t>(rank - 1))
    return {};
  int64_t d = type.getDimSize(rank - 1);
  if (d % 2 != 0)
    return {};
  SmallVector<Value> negated;
  if (!matchMapOf<arith::NegFOp>(concat.getInputs()[0], negated))
    return {};
  auto hi = negated[0].getDefiningOp<tensor::ExtractSliceOp>();
  auto lo = concat.getInputs()[1].getDefiningOp<tensor::ExtractSliceOp>();
  if (!hi || !lo || hi.getSource() != lo.getSource() ||
      lo.getSourceType() != type || !isLastDimSlice(hi, d / 2, d / 2) ||
      !isLastDimSlice(lo, 0, d / 2))
    return {};
  return lo.getSource();
}

namespace {
/// x times a [P, D] table read at (s, d): the table and s.
struct TableProduct {
  Value x, table;
  unsigned seqDim = 0;
};
} // namespace

static std::optional<TableProduct> matchTableProduct(Value v) {
  MapStep step = getMapStep(v);
  if (!step || !isa<arith::MulFOp>(step.op))
    return std::nullopt;
  for (unsigned xi = 0; xi < 2; ++xi) {
    OpOperand *x = step.input(xi), *table = step.input(1 - xi);
    if (!x || !table || !step.map(xi).isIdentity())
      continue;
    AffineMap m = step.map(1 - xi);
    unsigned rank = m.getNumDims();
    auto type = dyn_cast<RankedTensorType>(table->get().getType());
    if (!type || type.getRank() != 2 || m.getNumResults() != 2 ||
        !m.isProjectedPermutation() || m.getDimPosition(1) != rank - 1 ||
        m.getDimPosition(0) + 1 >= rank)
      continue;
    return TableProduct{x->get(), table->get(), m.getDimPosition(0)};
  }
  return std::nullopt;
}

/// Builds hkg.rope for `r` = x cos + rotate_half(x) sin, if it is one.
static Value buildRope(RewriterBase &rewriter, linalg::GenericOp add) {
  SmallVector<Value> terms;
  if (!matchMapOf<arith::AddFOp>(add.getResult(0), terms))
    return {};
  for (unsigned first = 0; first < 2; ++first) {
    std::optional<TableProduct> cosTerm = matchTableProduct(terms[first]);
    std::optional<TableProduct> sinTerm = matchTableProduct(terms[1 - first]);
    if (!cosTerm || !sinTerm || cosTerm->seqDim != sinTerm->seqDim)
      continue;
    Value x = cosTerm->x;
    if (matchRotateHalf(sinTerm->x) != x)
      continue;
    auto xType = cast<RankedTensorType>(x.getType());
    if (xType.getRank() != 4 || !xType.hasStaticShape() ||
        add.getResult(0).getType() != xType)
      continue;
    // Tokens [B, S, H, D]: x itself (s = dim 1), or the [B, S, H, D]
    // source of x's [B, H, S, D] transpose (s = dim 2).
    Value tokens;
    bool transposed = false;
    if (cosTerm->seqDim == 1) {
      tokens = x;
    } else if (cosTerm->seqDim == 2) {
      auto moved = matchDataMovement(x);
      AffineMap swap = AffineMap::getPermutationMap(
          ArrayRef<unsigned>{0, 2, 1, 3}, rewriter.getContext());
      if (!moved || moved->second != swap)
        continue;
      tokens = moved->first;
      transposed = true;
    } else {
      continue;
    }
    auto tokType = cast<RankedTensorType>(tokens.getType());
    int64_t seq = tokType.getDimSize(1), d = tokType.getDimSize(3);
    auto tableType = cast<RankedTensorType>(cosTerm->table.getType());
    if (sinTerm->table.getType() != tableType || !tableType.hasStaticShape() ||
        tableType.getDimSize(1) != d || tableType.getDimSize(0) < seq)
      continue;

    Location loc = add.getLoc();
    rewriter.setInsertionPoint(add);
    auto rope = RopeOp::create(
        rewriter, loc, tokType, tokens, cosTerm->table, sinTerm->table,
        RopeLayoutAttr::get(rewriter.getContext(), RopeLayout::Neox),
        rewriter.getI64IntegerAttr(0), /*schedule=*/nullptr);
    std::string message;
    if (failed(verifyQuietly(rope, message))) {
      rewriter.eraseOp(rope);
      add->emitRemark("this RoPE (x * cos + rotate_half(x) * sin) is not "
                      "raised to hkg.rope: ")
          << message;
      return {};
    }
    if (!transposed)
      return rope.getResult();
    Value init = tensor::EmptyOp::create(rewriter, loc, xType.getShape(),
                                         xType.getElementType());
    auto transpose = linalg::TransposeOp::create(
        rewriter, loc, rope.getResult(), init, ArrayRef<int64_t>{0, 2, 1, 3});
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, transpose);
    if (failed(generic))
      return transpose->getResult(0);
    return (*generic)->getResult(0);
  }
  return {};
}

int raise::recognizeRope(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::GenericOp> adds;
  root->walk([&](linalg::GenericOp g) {
    if (g->getNumResults() != 1)
      return;
    if (MapStep step = getMapStep(g->getResult(0));
        step && isa<arith::AddFOp>(step.op))
      adds.push_back(g);
  });
  int count = 0;
  for (linalg::GenericOp add : adds) {
    if (Value rope = buildRope(rewriter, add)) {
      rewriter.replaceOp(add, rope);
      ++count;
    }
  }
  return count;
}
