//===- RaiseContraction.cpp - a matmul-shaped linalg.generic to hkg.matmul ===//

#include "Raise.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

static bool isMatmulElementType(Type t) {
  return t.isF32() || t.isF16() || t.isBF16();
}

/// The loop dims a map reads, in order (the map is a projected
/// permutation).
static SmallVector<unsigned> loopsOf(AffineMap map) {
  return llvm::map_to_vector(map.getResults(), [](AffineExpr e) {
    return cast<AffineDimExpr>(e).getPosition();
  });
}

static std::string str(Twine t) { return t.str(); }

bool raise::isMultiplyAccumulate(linalg::GenericOp generic) {
  Block &body = generic.getRegion().front();
  Value a = body.getArgument(0), b = body.getArgument(1);
  Value acc = body.getArgument(2);
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == acc) == (add.getRhs() == acc))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  auto source = [](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return v;
  };
  Value x = source(mul.getLhs()), y = source(mul.getRhs());
  if (!((x == a && y == b) || (x == b && y == a)))
    return false;
  // acc + a * b and at most two widenings: nothing else is computed.
  size_t ops = 3 + (mul.getLhs() != x) + (mul.getRhs() != y);
  return body.getOperations().size() == ops;
}

RaiseResult raise::raiseContraction(RewriterBase &rewriter,
                                    linalg::GenericOp generic) {
  if (!linalg::isaContractionOpInterface(generic))
    return RaiseResult::notMine("it is not a contraction");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(generic);
  if (failed(dims))
    return RaiseResult::notMine("it is not a contraction");
  if (!isMultiplyAccumulate(generic))
    return RaiseResult::refused(
        "its body is not `acc + a * b` (each operand perhaps widened by "
        "arith.extf): hkg.matmul would drop the rest");
  if (dims->k.size() != 1 || dims->n.size() != 1 || dims->m.empty())
    return RaiseResult::refused(
        str("a contraction over " + Twine(dims->k.size()) + " K dims with " +
            Twine(dims->m.size()) + " M and " + Twine(dims->n.size()) +
            " N dims (hkg.matmul takes one K, one N and M dims that "
            "flatten)"));

  Value lhs = generic.getDpsInputOperand(0)->get();
  Value rhs = generic.getDpsInputOperand(1)->get();
  OpOperand *init = generic.getDpsInitOperand(0);
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  auto outType = cast<RankedTensorType>(init->get().getType());
  if (!isMatmulElementType(lhsType.getElementType()) ||
      lhsType.getElementType() != rhsType.getElementType() ||
      !isMatmulElementType(outType.getElementType()))
    return RaiseResult::refused(
        "hkg.matmul multiplies f32, f16 or bf16 operands of one element "
        "type into a float result");

  SmallVector<unsigned> lhsLoops =
      loopsOf(generic.getMatchingIndexingMap(generic.getDpsInputOperand(0)));
  SmallVector<unsigned> rhsLoops =
      loopsOf(generic.getMatchingIndexingMap(generic.getDpsInputOperand(1)));
  SmallVector<unsigned> outLoops =
      loopsOf(generic.getMatchingIndexingMap(init));
  unsigned k = dims->k[0], n = dims->n[0];
  ArrayRef<unsigned> batch = dims->batch, m = dims->m;
  auto concat = [](std::initializer_list<ArrayRef<unsigned>> parts) {
    SmallVector<unsigned> all;
    for (ArrayRef<unsigned> p : parts)
      llvm::append_range(all, p);
    return all;
  };
  bool transposeA;
  if (lhsLoops == concat({batch, m, {k}}))
    transposeA = false;
  else if (m.size() == 1 && lhsLoops == concat({batch, {k}, m}))
    transposeA = true;
  else
    return RaiseResult::refused(
        "its left operand is not laid out [batch..., M, K] or "
        "[batch..., K, M]");
  bool transposeB;
  if (rhsLoops == concat({batch, {k}, {n}}))
    transposeB = false;
  else if (rhsLoops == concat({batch, {n}, {k}}))
    transposeB = true;
  else
    return RaiseResult::refused(
        "its right operand is not laid out [batch..., K, N] or "
        "[batch..., N, K]");
  if (outLoops != concat({batch, m, {n}}))
    return RaiseResult::refused("its result is not laid out [batch..., M, N]");

  // Several M dims (a [B, S, K] activation times a [K, N] weight) are
  // flattened into one: a view of the operand and of the result.
  int64_t numBatch = batch.size();
  Location loc = generic.getLoc();
  rewriter.setInsertionPoint(generic);
  Value a = lhs;
  RankedTensorType mmType = outType;
  SmallVector<ReassociationIndices> mGroups;
  if (m.size() > 1) {
    for (unsigned i : m)
      if (ShapedType::isDynamic(
              lhsType.getDimSize(llvm::find(lhsLoops, i) - lhsLoops.begin())))
        return RaiseResult::refused(
            "it has several M dims and a dynamic one (flatten them first)");
    for (int64_t i = 0; i < numBatch; ++i)
      mGroups.push_back({i});
    ReassociationIndices group;
    for (unsigned i = 0; i < m.size(); ++i)
      group.push_back(numBatch + i);
    mGroups.push_back(group);
    mGroups.push_back({numBatch + static_cast<int64_t>(m.size())});
    a = tensor::CollapseShapeOp::create(rewriter, loc, lhs, mGroups);
    int64_t flatM = 1;
    for (unsigned i = 0; i < m.size(); ++i)
      flatM *= lhsType.getDimSize(numBatch + i);
    SmallVector<int64_t> shape(outType.getShape().take_front(numBatch));
    shape.push_back(flatM);
    shape.push_back(outType.getShape().back());
    mmType = RankedTensorType::get(shape, outType.getElementType());
  }

  // The init: zero (nothing to add), another constant, or a tensor to
  // accumulate into, added in the epilogue.
  Value initValue = init->get();
  std::optional<TypedAttr> fill = getFillConstant(initValue);
  bool zeroInit = false;
  if (fill)
    if (auto f = dyn_cast<FloatAttr>(*fill))
      zeroInit = f.getValue().isZero();
  if (!zeroInit && !fill && m.size() > 1)
    initValue =
        tensor::CollapseShapeOp::create(rewriter, loc, initValue, mGroups);

  auto mm =
      MatmulOp::create(rewriter, loc, mmType, a, rhs, transposeA, transposeB);
  if (!zeroInit) {
    Type f32 = rewriter.getF32Type();
    SmallVector<Type> argTypes = {f32};
    SmallVector<Location> argLocs = {loc};
    if (!fill) {
      mm->insertOperands(2, initValue);
      mm.setIndexingMapsAttr(
          rewriter.getAffineMapArrayAttr(AffineMap::getMultiDimIdentityMap(
              mmType.getRank(), rewriter.getContext())));
      argTypes.push_back(mmType.getElementType());
      argLocs.push_back(loc);
    }
    Block *block =
        rewriter.createBlock(&mm.getEpilogue(), {}, argTypes, argLocs);
    rewriter.setInsertionPointToStart(block);
    Value addend;
    if (fill) {
      auto c = dyn_cast<FloatAttr>(*fill);
      if (!c) {
        rewriter.eraseOp(mm);
        return RaiseResult::refused("its init is not a float");
      }
      addend = arith::ConstantOp::create(
          rewriter, loc, rewriter.getF32FloatAttr(c.getValueAsDouble()));
    } else {
      addend = block->getArgument(1);
      if (addend.getType() != f32)
        addend = arith::ExtFOp::create(rewriter, loc, f32, addend);
    }
    Value sum =
        arith::AddFOp::create(rewriter, loc, block->getArgument(0), addend);
    if (mmType.getElementType() != f32)
      sum =
          arith::TruncFOp::create(rewriter, loc, mmType.getElementType(), sum);
    YieldOp::create(rewriter, loc, sum);
    rewriter.setInsertionPointAfter(mm);
  }
  Value result = mm.getResult();
  if (m.size() > 1)
    result =
        tensor::ExpandShapeOp::create(rewriter, loc, outType, result, mGroups);
  return RaiseResult::raised(mm, result);
}
