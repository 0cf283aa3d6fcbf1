//===- RaiseElementwise.cpp - parallel linalg.generic to hkg.elementwise --===//

#include "Raise.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

/// Whether `map` reads an operand as hkg.elementwise can: each result a
/// loop dim or the constant 0.
static bool isBroadcastMap(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    if (isa<AffineDimExpr>(e))
      return true;
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 0;
  });
}

RaiseResult raise::raiseElementwise(RewriterBase &rewriter,
                                    linalg::GenericOp generic) {
  if (generic.getNumReductionLoops() != 0)
    return RaiseResult::notMine("it has reduction loops");
  if (generic.getNumDpsInits() != 1)
    return RaiseResult::refused("it has " +
                                std::to_string(generic.getNumDpsInits()) +
                                " results (an hkg.elementwise has one)");
  OpOperand *init = generic.getDpsInitOperand(0);
  auto resultType = dyn_cast<RankedTensorType>(init->get().getType());
  if (!resultType || resultType.getRank() == 0)
    return RaiseResult::refused("its result is not a tensor of rank >= 1");
  if (!isHkgElementType(resultType.getElementType()))
    return RaiseResult::refused("hkg kernels do not write its element type");
  // Loop i is written at result dim outPos[i]: the result's dims are the
  // new op's iteration space, so every map is composed with the inverse.
  AffineMap outMap = generic.getMatchingIndexingMap(init);
  if (!outMap.isPermutation())
    return RaiseResult::refused(
        "its result is not written by a permutation of its loops");
  AffineMap toLoops = inversePermutation(outMap);
  SmallVector<int64_t> outPos(generic.getNumLoops());
  for (auto [pos, e] : llvm::enumerate(outMap.getResults()))
    outPos[cast<AffineDimExpr>(e).getPosition()] = pos;

  std::string why;
  if (!capturesOnlyConstants(generic, why))
    return RaiseResult::refused(why);

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  // The payload argument of each input (the init last, if it is read).
  SmallVector<BlockArgument> args;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (!type)
      return RaiseResult::refused("input #" +
                                  std::to_string(in->getOperandNumber()) +
                                  " is not a tensor");
    if (!isHkgElementType(type.getElementType()))
      return RaiseResult::refused("hkg kernels do not read the element type "
                                  "of input #" +
                                  std::to_string(in->getOperandNumber()));
    AffineMap map = generic.getMatchingIndexingMap(in);
    if (!isBroadcastMap(map))
      return RaiseResult::refused(
          "input #" + std::to_string(in->getOperandNumber()) +
          " is read at a computed index (only loop dims and broadcast "
          "size-1 dims are)");
    BlockArgument arg = generic.getMatchingBlockArgument(in);
    if (arg.use_empty())
      continue;
    inputs.push_back(in->get());
    maps.push_back(map.compose(toLoops));
    args.push_back(arg);
  }
  BlockArgument outArg = generic.getMatchingBlockArgument(init);
  if (!outArg.use_empty()) {
    // The payload reads the init: it is one more input, read in place.
    inputs.push_back(init->get());
    maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(),
                                                     rewriter.getContext()));
    args.push_back(outArg);
  }
  if (inputs.empty())
    return RaiseResult::refused("it reads no tensor (hkg.elementwise needs "
                                "at least one input)");

  Location loc = generic.getLoc();
  rewriter.setInsertionPoint(generic);
  auto ew = ElementwiseOp::create(rewriter, loc, resultType, inputs,
                                  rewriter.getAffineMapArrayAttr(maps),
                                  /*schedule=*/nullptr);
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (BlockArgument arg : args) {
    argTypes.push_back(arg.getType());
    argLocs.push_back(arg.getLoc());
  }
  Block *block = rewriter.createBlock(&ew.getBody(), {}, argTypes, argLocs);
  rewriter.setInsertionPointToStart(block);
  IRMapping map;
  map.map(args, block->getArguments());
  SmallVector<Value> yielded = clonePayload(rewriter, generic, map, outPos);
  YieldOp::create(rewriter, loc, yielded);
  return RaiseResult::raised(ew, ew.getResult());
}
