//===- Fuse.cpp - fold elementwise consumers into matmul epilogues --------===//

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

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
} // namespace

namespace mlir::hkg {
namespace {
struct HkgFusePass final : impl::HkgFusePassBase<HkgFusePass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldElementwiseIntoMatmul>(&getContext());
    // A walk, not the greedy driver: its folder would hoist the epilogue's
    // constants out of the region.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
} // namespace mlir::hkg
