//===- Fuse.cpp - fold elementwise consumers into matmul epilogues --------===//

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/ReduceKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#define DEBUG_TYPE "hkg-fuse"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGFUSEPASS
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;

static bool isMatmulType(Type t) {
  Type et = getElementTypeOrSelf(t);
  return et.isF32() || et.isF16() || et.isBF16();
}

/// The matmul whose result `in` is, directly or through a reshape that only
/// adds unit dims (a [1, S, N] view of an [S, N] product), with the
/// reshape's groups (empty when direct).
static std::pair<MatmulOp, SmallVector<ReassociationIndices>>
getMatmulSource(Value in) {
  if (auto mm = in.getDefiningOp<MatmulOp>())
    return {mm, {}};
  auto expand = in.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand)
    return {};
  auto mm = expand.getSrc().getDefiningOp<MatmulOp>();
  if (!mm)
    return {};
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
  for (const ReassociationIndices &group : groups)
    if (llvm::count_if(group, [&](int64_t d) { return shape[d] != 1; }) > 1)
      return {};
  return {mm, groups};
}

/// `map` (from the dims of the expanded result) as a map from the dims of
/// the matmul's result: a dim of a group stands for the group's dim, a unit
/// dim for the constant 0.
static AffineMap collapseMap(AffineMap map,
                             ArrayRef<ReassociationIndices> groups,
                             ArrayRef<int64_t> expandedShape) {
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> replacement(expandedShape.size());
  for (auto [g, group] : llvm::enumerate(groups))
    for (int64_t d : group)
      replacement[d] = expandedShape[d] == 1 && group.size() > 1
                           ? getAffineConstantExpr(0, ctx)
                           : getAffineDimExpr(g, ctx);
  // A group of unit dims only: its last dim stands for it.
  for (auto [g, group] : llvm::enumerate(groups))
    if (llvm::all_of(group, [&](int64_t d) { return expandedShape[d] == 1; }))
      replacement[group.back()] = getAffineDimExpr(g, ctx);
  return map.replaceDimsAndSymbols(replacement, {}, groups.size(), 0);
}

/// Clones the ops of a one-block body (all but its hkg.yield) at the
/// rewriter's insertion point, its arguments mapped to `args`; returns the
/// value it yields, mapped.
static Value inlineBody(RewriterBase &rewriter, Block &body, ValueRange args) {
  IRMapping map;
  map.map(body.getArguments(), args);
  for (Operation &op : body.without_terminator())
    rewriter.clone(op, map);
  return map.lookupOrDefault(body.getTerminator()->getOperand(0));
}

namespace {
/// elementwise(matmul(...), e...) -> matmul(...) with the elementwise body
/// appended to the epilogue and e... as extra epilogue operands. The
/// matmul's result may be read through a view that adds unit dims: the
/// fused matmul then writes the matmul's shape, viewed back.
struct FoldElementwiseIntoMatmul final : OpRewritePattern<ElementwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOp ew,
                                PatternRewriter &rewriter) const override {
    if (!ew.getBody().front().getOps<IndexOp>().empty() ||
        !isMatmulType(ew.getResult().getType()))
      return rewriter.notifyMatchFailure(
          ew, "reads an element index or writes a type a matmul does not");
    MatmulOp mm;
    Value mmView;
    SmallVector<ReassociationIndices> groups;
    for (auto [in, map] : llvm::zip(ew.getInputs(), ew.getInputMaps())) {
      if (!map.isIdentity())
        continue;
      auto [candidate, viewGroups] = getMatmulSource(in);
      if (!candidate || candidate->getBlock() != ew->getBlock() ||
          cast<ShapedType>(in.getType()).getShape() !=
              ew.getResult().getType().getShape())
        continue;
      Operation *view =
          in.getDefiningOp() != candidate ? in.getDefiningOp() : nullptr;
      auto onlyEw = [&](Operation *u) { return u == ew.getOperation(); };
      if (!llvm::all_of(candidate->getUsers(),
                        [&](Operation *u) { return u == view || onlyEw(u); }) ||
          (view && !llvm::all_of(view->getUsers(), onlyEw)))
        continue;
      mm = candidate;
      mmView = in;
      groups = viewGroups;
      break;
    }
    if (!mm)
      return rewriter.notifyMatchFailure(
          ew, "no input is a single-use hkg.matmul of the result shape");
    // The epilogue sees the matmul's element at the result's index only:
    // every read of the product must be that one (not c + transpose(c), not
    // the product and a view of it).
    for (auto [in, map] : llvm::zip(ew.getInputs(), ew.getInputMaps()))
      if (getMatmulSource(in).first == mm &&
          (in != mmView || !map.isIdentity()))
        return rewriter.notifyMatchFailure(
            ew, "reads the matmul's result at another index too");

    Location loc = ew.getLoc();
    ArrayRef<int64_t> ewShape = ew.getResult().getType().getShape();
    ArrayRef<int64_t> shape = mm.getResult().getType().getShape();
    SmallVector<Value> extra;
    SmallVector<AffineMap> maps = mm.getEpilogueMaps();
    for (auto [in, map] : llvm::zip(ew.getInputs(), ew.getInputMaps())) {
      if (in == mmView)
        continue;
      AffineMap m = groups.empty() ? map : collapseMap(map, groups, ewShape);
      std::string why;
      auto type = cast<ShapedType>(in.getType());
      if (!isMatmulType(type) ||
          failed(getEpilogueView(m, type.getShape(), shape, why)))
        return rewriter.notifyMatchFailure(
            ew, "the matmul epilogue cannot read an input as it is mapped");
      extra.push_back(in);
      maps.push_back(m);
    }
    Value mmResult = mmView;
    RankedTensorType fusedType =
        RankedTensorType::get(shape, ew.getResult().getType().getElementType());

    rewriter.setInsertionPoint(ew);
    auto fused =
        MatmulOp::create(rewriter, loc, fusedType, mm.getLhs(), mm.getRhs(),
                         mm.getTransposeA(), mm.getTransposeB());
    SmallVector<Value> epilogueInputs(mm.getEpilogueInputs());
    llvm::append_range(epilogueInputs, extra);
    fused->insertOperands(2, epilogueInputs);
    if (ScheduleAttr schedule = mm.getScheduleAttr())
      fused.setScheduleAttr(schedule);
    // The inputs keep their maps; spelled out unless each is the one its
    // shape implies.
    bool implied =
        llvm::all_of(llvm::zip(epilogueInputs, maps), [&](auto pair) -> bool {
          std::string why;
          FailureOr<AffineMap> m = inferBroadcastMap(
              ew.getContext(),
              cast<ShapedType>(std::get<0>(pair).getType()).getShape(), shape,
              why);
          return succeeded(m) && *m == std::get<1>(pair);
        });
    if (!implied)
      fused.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));

    // The epilogue block: (acc, old epilogue elements..., new elements...).
    SmallVector<Type> argTypes = {rewriter.getF32Type()};
    SmallVector<Location> argLocs = {loc};
    for (Value v : epilogueInputs) {
      argTypes.push_back(getElementTypeOrSelf(v.getType()));
      argLocs.push_back(v.getLoc());
    }
    Block *block = rewriter.createBlock(&fused.getEpilogue(), {}, argTypes,
                                        argLocs);
    rewriter.setInsertionPointToStart(block);

    // The matmul's own output element.
    Value produced;
    unsigned numOld = mm.getEpilogueInputs().size();
    if (mm.hasEpilogue()) {
      produced = inlineBody(rewriter, mm.getEpilogue().front(),
                            block->getArguments().take_front(numOld + 1));
    } else {
      Type elem = mm.getResult().getType().getElementType();
      produced = block->getArgument(0);
      if (elem != produced.getType())
        produced = arith::TruncFOp::create(rewriter, loc, elem, produced);
    }

    // Then the elementwise body on it.
    SmallVector<Value> args;
    unsigned next = numOld + 1;
    for (Value in : ew.getInputs())
      args.push_back(in == mmResult ? produced : block->getArgument(next++));
    YieldOp::create(rewriter, loc,
                    inlineBody(rewriter, ew.getBody().front(), args));

    Value result = fused.getResult();
    rewriter.setInsertionPointAfter(fused);
    if (!groups.empty())
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, ew.getResult().getType(), result, groups);
    Operation *view =
        mmView.getDefiningOp() != mm ? mmView.getDefiningOp() : nullptr;
    rewriter.replaceOp(ew, result);
    if (view)
      rewriter.eraseOp(view);
    rewriter.eraseOp(mm);
    return success();
  }
};

/// elementwise(reduce(...)) -> reduce(...) with the elementwise body
/// appended to the epilogue, when the elementwise reads nothing but the
/// reduction's result, element for element (a mean: a sum, then a divide).
struct FoldElementwiseIntoReduce final : OpRewritePattern<ElementwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOp ew,
                                PatternRewriter &rewriter) const override {
    auto reduce = ew.getInputs().front().getDefiningOp<ReduceOp>();
    if (!reduce || reduce->getBlock() != ew->getBlock())
      return rewriter.notifyMatchFailure(ew, "not fed by an hkg.reduce");
    Value reduced = reduce.getResult();
    auto identity = AffineMap::getMultiDimIdentityMap(
        ew.getResult().getType().getRank(), ew.getContext());
    for (auto [in, map] : llvm::zip(ew.getInputs(), ew.getInputMaps()))
      if (in != reduced || map != identity)
        return rewriter.notifyMatchFailure(
            ew, "reads more than the reduction's result element");
    if (!reduced.hasOneUse() &&
        llvm::any_of(reduced.getUsers(),
                     [&](Operation *u) { return u != ew.getOperation(); }))
      return rewriter.notifyMatchFailure(ew, "the reduction has other users");
    if (!ew.getBody().front().getOps<IndexOp>().empty())
      return rewriter.notifyMatchFailure(ew, "the body reads its index");
    Type resultElem = ew.getResult().getType().getElementType();
    if (!(resultElem.isF32() || resultElem.isF16() || resultElem.isBF16() ||
          resultElem.isInteger(32) || resultElem.isInteger(64)))
      return rewriter.notifyMatchFailure(ew, "a reduction cannot write its "
                                             "element type");

    Location loc = ew.getLoc();
    rewriter.setInsertionPoint(ew);
    auto fused = ReduceOp::create(
        rewriter, loc, ew.getResult().getType(), reduce.getInput(),
        reduce.getIns(), reduce.getKindsAttr(), reduce.getAxesAttr(),
        reduce.getIndexingMapsAttr(), reduce.getScheduleAttr());
    for (NamedAttribute attr : reduce->getDiscardableAttrs())
      fused->setAttr(attr.getName(), attr.getValue());
    rewriter.cloneRegionBefore(reduce.getPrologue(), fused.getPrologue(),
                               fused.getPrologue().end());

    // The epilogue: the reduction's own (or the plain conversion of its one
    // value), then the elementwise body.
    SmallVector<Type> argTypes;
    for (ReduceKind kind : reduce.getKindList())
      argTypes.push_back(isPositionKind(kind) ? Type(rewriter.getI64Type())
                                              : Type(rewriter.getF32Type()));
    SmallVector<Location> argLocs(argTypes.size(), loc);
    Block *block =
        rewriter.createBlock(&fused.getEpilogue(), {}, argTypes, argLocs);
    rewriter.setInsertionPointToStart(block);
    Value produced;
    if (!reduce.getEpilogue().empty()) {
      produced = inlineBody(rewriter, reduce.getEpilogue().front(),
                            block->getArguments());
    } else {
      Type elem = reduce.getResult().getType().getElementType();
      produced = block->getArgument(0);
      if (isa<IntegerType>(elem) && elem != produced.getType())
        produced = arith::TruncIOp::create(rewriter, loc, elem, produced);
      else if (isa<FloatType>(elem) && elem != produced.getType())
        produced = arith::TruncFOp::create(rewriter, loc, elem, produced);
    }
    Block &body = ew.getBody().front();
    SmallVector<Value> args(body.getNumArguments(), produced);
    YieldOp::create(rewriter, loc, inlineBody(rewriter, body, args));

    rewriter.replaceOp(ew, fused.getResult());
    rewriter.eraseOp(reduce);
    return success();
  }
};
} // namespace

namespace mlir::hkg {
namespace {
struct HkgFusePass final : impl::HkgFusePassBase<HkgFusePass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldElementwiseIntoMatmul, FoldElementwiseIntoReduce>(
        &getContext());
    // A walk, not the greedy driver: its folder would hoist the epilogue's
    // constants out of the region.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
} // namespace mlir::hkg
