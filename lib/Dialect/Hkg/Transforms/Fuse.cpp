//===- Fuse.cpp - fold elementwise consumers into matmul epilogues --------===//

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/ReduceKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// Whether the matmul epilogue can take the place of `ew`: its body reads no
/// element index, its result and extra inputs have element types a matmul
/// accepts, and the epilogue can read every input as it is mapped
/// (getEpilogueView: per column, per row, full, batched; not transposed).
static bool epilogueCanRead(ElementwiseOp ew) {
  if (!ew.getBody().front().getOps<IndexOp>().empty())
    return false;
  auto isMatmulType = [](Type t) {
    Type et = getElementTypeOrSelf(t);
    return et.isF32() || et.isF16() || et.isBF16();
  };
  if (!isMatmulType(ew.getResult().getType()))
    return false;
  ArrayRef<int64_t> shape = ew.getResult().getType().getShape();
  for (auto [in, map] : llvm::zip(ew.getInputs(), ew.getInputMaps())) {
    auto type = cast<ShapedType>(in.getType());
    std::string why;
    if (!isMatmulType(type) ||
        failed(getEpilogueView(map, type.getShape(), shape, why)))
      return false;
  }
  return true;
}

namespace {
/// elementwise(matmul(...), e...) -> matmul(...) with the elementwise body
/// appended to the epilogue and e... as extra epilogue operands.
struct FoldElementwiseIntoMatmul final : OpRewritePattern<ElementwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ElementwiseOp ew,
                                PatternRewriter &rewriter) const override {
    if (!epilogueCanRead(ew))
      return rewriter.notifyMatchFailure(
          ew, "the matmul epilogue cannot read the elementwise inputs as "
              "they are mapped");
    MatmulOp mm;
    for (Value in : ew.getInputs()) {
      auto candidate = in.getDefiningOp<MatmulOp>();
      if (!candidate || candidate->getBlock() != ew->getBlock() ||
          candidate.getResult().getType().getShape() !=
              ew.getResult().getType().getShape())
        continue;
      if (llvm::any_of(candidate->getUsers(),
                       [&](Operation *u) { return u != ew.getOperation(); }))
        continue;
      mm = candidate;
      break;
    }
    if (!mm)
      return rewriter.notifyMatchFailure(
          ew, "no input is a single-use hkg.matmul of the result shape");

    Location loc = ew.getLoc();
    Value mmResult = mm.getResult();
    SmallVector<Value> extra;
    SmallVector<AffineMap> maps = mm.getEpilogueMaps();
    for (auto [in, map] : llvm::zip(ew.getInputs(), ew.getInputMaps())) {
      if (in == mmResult)
        continue;
      extra.push_back(in);
      maps.push_back(map);
    }

    rewriter.setInsertionPoint(ew);
    auto fused = MatmulOp::create(rewriter, loc, ew.getResult().getType(),
                                  mm.getLhs(), mm.getRhs(),
                                  mm.getTransposeA(), mm.getTransposeB());
    SmallVector<Value> epilogueInputs(mm.getEpilogueInputs());
    llvm::append_range(epilogueInputs, extra);
    fused->insertOperands(2, epilogueInputs);
    if (ScheduleAttr schedule = mm.getScheduleAttr())
      fused.setScheduleAttr(schedule);
    // The inputs keep their maps; spelled out unless each is the one its
    // shape implies.
    ArrayRef<int64_t> shape = ew.getResult().getType().getShape();
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
      Block &old = mm.getEpilogue().front();
      IRMapping map;
      map.map(old.getArguments(), block->getArguments().take_front(numOld + 1));
      for (Operation &op : old.without_terminator())
        rewriter.clone(op, map);
      produced = map.lookupOrDefault(old.getTerminator()->getOperand(0));
    } else {
      Type elem = mm.getResult().getType().getElementType();
      produced = block->getArgument(0);
      if (elem != produced.getType())
        produced = arith::TruncFOp::create(rewriter, loc, elem, produced);
    }

    // Then the elementwise body on it.
    Block &body = ew.getBody().front();
    IRMapping map;
    unsigned next = numOld + 1;
    for (auto [arg, in] : llvm::zip(body.getArguments(), ew.getInputs()))
      map.map(arg, in == mmResult ? produced : block->getArgument(next++));
    for (Operation &op : body.without_terminator())
      rewriter.clone(op, map);
    YieldOp::create(rewriter, loc,
                    map.lookupOrDefault(body.getTerminator()->getOperand(0)));

    rewriter.replaceOp(ew, fused.getResult());
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
      Block &old = reduce.getEpilogue().front();
      IRMapping map;
      map.map(old.getArguments(), block->getArguments());
      for (Operation &op : old.without_terminator())
        rewriter.clone(op, map);
      produced = map.lookupOrDefault(old.getTerminator()->getOperand(0));
    } else {
      Type elem = reduce.getResult().getType().getElementType();
      produced = block->getArgument(0);
      if (isa<IntegerType>(elem) && elem != produced.getType())
        produced = arith::TruncIOp::create(rewriter, loc, elem, produced);
      else if (isa<FloatType>(elem) && elem != produced.getType())
        produced = arith::TruncFOp::create(rewriter, loc, elem, produced);
    }
    Block &body = ew.getBody().front();
    IRMapping map;
    for (BlockArgument arg : body.getArguments())
      map.map(arg, produced);
    for (Operation &op : body.without_terminator())
      rewriter.clone(op, map);
    YieldOp::create(rewriter, loc,
                    map.lookupOrDefault(body.getTerminator()->getOperand(0)));

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
