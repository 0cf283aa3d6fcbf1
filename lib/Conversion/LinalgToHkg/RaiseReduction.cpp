//===- RaiseReduction.cpp - a reducing linalg.generic to hkg.reduce -------===//

#include "Raise.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

static std::string str(Twine t) { return t.str(); }

static bool isReduceInputType(Type t) {
  return t.isF32() || t.isF16() || t.isBF16();
}

namespace {
/// What the payload's combiner `acc = comb(value, acc)` reduces.
struct Combiner {
  Operation *op;
  Value value;
  ReduceKind kind;
  /// An i1 and / or: reduced as min / max of 0.0 and 1.0.
  bool boolean = false;
};
} // namespace

static FailureOr<Combiner> matchCombiner(linalg::GenericOp generic,
                                         std::string &why) {
  Block &body = generic.getRegion().front();
  BlockArgument acc =
      generic.getMatchingBlockArgument(generic.getDpsInitOperand(0));
  Value yielded = body.getTerminator()->getOperand(0);
  Operation *op = yielded.getDefiningOp();
  if (!op || op->getBlock() != &body || op->getNumOperands() != 2 ||
      !llvm::is_contained(op->getOperands(), acc) || !acc.hasOneUse()) {
    why = "its body is not `acc = combine(value, acc)`";
    return failure();
  }
  Value value =
      op->getOperand(0) == acc ? op->getOperand(1) : op->getOperand(0);
  // arith.maxnumf / minnumf: a NaN loses (hkg's max / min);
  // arith.maximumf / minimumf: a NaN anywhere is the answer (hkg's maximum
  // / minimum, torch.amax's semantics).
  Combiner c{op, value, ReduceKind::Sum};
  if (isa<arith::AddFOp>(op))
    c.kind = ReduceKind::Sum;
  else if (isa<arith::MulFOp>(op))
    c.kind = ReduceKind::Prod;
  else if (isa<arith::MaxNumFOp>(op))
    c.kind = ReduceKind::Max;
  else if (isa<arith::MaximumFOp>(op))
    c.kind = ReduceKind::Maximum;
  else if (isa<arith::MinNumFOp>(op))
    c.kind = ReduceKind::Min;
  else if (isa<arith::MinimumFOp>(op))
    c.kind = ReduceKind::Minimum;
  else if (isa<arith::AndIOp, arith::OrIOp>(op) &&
           op->getResult(0).getType().isInteger(1)) {
    // all / any of i1 values: the min / max of them as 0.0 and 1.0.
    c.kind = isa<arith::AndIOp>(op) ? ReduceKind::Min : ReduceKind::Max;
    c.boolean = true;
  } else {
    why = str("its combiner '" + op->getName().getStringRef() +
              "' is not a float sum, product, max or min, nor an i1 and / or");
    return failure();
  }
  return c;
}

/// Whether `value` leaves the reduction unchanged.
static bool isIdentity(ReduceKind kind, const APFloat &value) {
  switch (kind) {
  case ReduceKind::Sum:
    return value.isZero();
  case ReduceKind::Prod:
    return value.isExactlyValue(1.0);
  case ReduceKind::Max:
  case ReduceKind::Maximum:
    return value.isInfinity() && value.isNegative();
  case ReduceKind::Min:
  case ReduceKind::Minimum:
    return value.isInfinity() && !value.isNegative();
  default:
    return false;
  }
}

RaiseResult raise::raiseReduction(RewriterBase &rewriter,
                                  linalg::GenericOp generic) {
  if (generic.getNumReductionLoops() == 0)
    return RaiseResult::notMine("it has no reduction loops");
  if (generic.getNumDpsInits() != 1)
    return RaiseResult::refused(str("it reduces into " +
                                    Twine(generic.getNumDpsInits()) +
                                    " results (an hkg.reduce writes one)"));
  std::string why;
  FailureOr<Combiner> comb = matchCombiner(generic, why);
  if (failed(comb))
    return RaiseResult::refused(why);
  // all starts from true, any from false; another start decides alone.
  if (comb->boolean) {
    std::optional<TypedAttr> start =
        getFillConstant(generic.getDpsInitOperand(0)->get());
    auto value = start ? dyn_cast<IntegerAttr>(*start) : IntegerAttr();
    bool identity = comb->kind == ReduceKind::Min;
    if (!value || value.getValue().isOne() != identity)
      return RaiseResult::refused(str(
          "its init is not the constant " + Twine(identity ? "true" : "false") +
          " an i1 " + Twine(identity ? "and" : "or") + " starts from"));
  }
  Type f32 = rewriter.getF32Type();
  // hkg.reduce accumulates in f32: an f64 accumulator (torch's LayerNorm
  // variance) is narrowed, like the f32 statistics of torch's own kernels.
  Type valueType = comb->value.getType();
  if (!comb->boolean && !isReduceInputType(valueType) && !valueType.isF64())
    return RaiseResult::refused("it reduces values of a type other than "
                                "f64, f32, f16 or bf16");
  if (!capturesOnlyConstants(generic, why))
    return RaiseResult::refused(why);

  // The reduced loops: adjacent, the axes of an input read in loop order.
  SmallVector<utils::IteratorType> iters = generic.getIteratorTypesArray();
  SmallVector<int64_t> axes;
  for (auto [i, it] : llvm::enumerate(iters))
    if (it == utils::IteratorType::reduction)
      axes.push_back(i);
  if (axes.back() - axes.front() + 1 != static_cast<int64_t>(axes.size()))
    return RaiseResult::refused("it reduces loops that are not adjacent");
  unsigned numLoops = generic.getNumLoops();
  OpOperand *input = nullptr;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (type && isReduceInputType(type.getElementType()) &&
        generic.getMatchingIndexingMap(in).isIdentity() &&
        type.getRank() == numLoops) {
      input = in;
      break;
    }
  }
  if (!input)
    return RaiseResult::refused(
        "no f32/f16/bf16 input is read at every loop in order (hkg.reduce "
        "reduces axes of one such input)");

  // The result: the parallel loops in order, the reduced ones dropped or
  // kept as size-1 dims.
  OpOperand *init = generic.getDpsInitOperand(0);
  auto resultType = cast<RankedTensorType>(init->get().getType());
  Type resultElem = resultType.getElementType();
  if (comb->boolean != resultElem.isInteger(1) ||
      (!comb->boolean && !isReduceInputType(resultElem) && !resultElem.isF64()))
    return RaiseResult::refused("hkg.reduce writes a float sum, product, max "
                                "or min, or an i1 all / any");
  if (resultElem.isF64() || comb->boolean) {
    // Written as f32 (an all / any as 0.0 or 1.0), read as f32 converted in
    // each consumer's body (the driver rewires them): only linalg.generic
    // inputs can be.
    for (OpOperand &use : generic.getResult(0).getUses()) {
      auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
      if (!consumer || !consumer.isDpsInput(&use))
        return RaiseResult::refused(str(
            "its " + Twine(comb->boolean ? "i1" : "f64") +
            " result is read by '" + use.getOwner()->getName().getStringRef() +
            "' (hkg.reduce writes f32; only a linalg.generic's input can "
            "read it converted)"));
    }
    resultType =
        RankedTensorType::get(resultType.getShape(), rewriter.getF32Type());
  }
  AffineMap outMap = generic.getMatchingIndexingMap(init);
  SmallVector<AffineExpr> dropped, kept;
  for (unsigned i = 0; i < numLoops; ++i) {
    bool reduced = iters[i] == utils::IteratorType::reduction;
    if (!reduced)
      dropped.push_back(rewriter.getAffineDimExpr(i));
    kept.push_back(reduced ? rewriter.getAffineConstantExpr(0)
                           : rewriter.getAffineDimExpr(i));
  }
  if (outMap.getResults() != ArrayRef(dropped) &&
      outMap.getResults() != ArrayRef(kept))
    return RaiseResult::refused(
        "its result is not the input's dims in order without (or with "
        "size-1) reduced dims");

  std::optional<TypedAttr> fill = getFillConstant(init->get());
  if (comb->boolean)
    fill = rewriter.getF32FloatAttr(comb->kind == ReduceKind::Min ? INFINITY
                                                                  : -INFINITY);
  auto fillValue = fill ? dyn_cast<FloatAttr>(*fill) : FloatAttr();
  if (!fillValue)
    return RaiseResult::refused("its init is not a constant (hkg.reduce "
                                "starts from the kind's identity)");
  bool foldInit = !isIdentity(comb->kind, fillValue.getValue());

  // The other inputs the payload reads: `ins`, mapped from the input's
  // dims (the loops).
  Block &payload = generic.getRegion().front();
  SmallVector<Value> ins;
  SmallVector<AffineMap> insMaps;
  SmallVector<BlockArgument> insArgs;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    if (in == input)
      continue;
    BlockArgument arg = generic.getMatchingBlockArgument(in);
    if (arg.use_empty())
      continue;
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (!type || !isHkgElementType(type.getElementType()))
      return RaiseResult::refused(
          str("input #" + Twine(in->getOperandNumber()) +
              " is not a tensor of an element type hkg kernels read"));
    ins.push_back(in->get());
    insMaps.push_back(generic.getMatchingIndexingMap(in));
    insArgs.push_back(arg);
  }
  BlockArgument inputArg = generic.getMatchingBlockArgument(input);
  bool needsPrologue =
      comb->value != inputArg || !ins.empty() ||
      llvm::any_of(payload.without_terminator(),
                   [&](Operation &op) { return &op != comb->op; });

  MLIRContext *ctx = rewriter.getContext();
  Location loc = generic.getLoc();
  SmallVector<Attribute> kinds = {ReduceKindAttr::get(ctx, comb->kind)};
  rewriter.setInsertionPoint(generic);
  auto reduce = ReduceOp::create(
      rewriter, loc, resultType, input->get(), ins,
      rewriter.getArrayAttr(kinds), axes,
      ins.empty() ? ArrayAttr() : rewriter.getAffineMapArrayAttr(insMaps),
      /*schedule=*/nullptr);

  if (needsPrologue) {
    SmallVector<Type> argTypes = {inputArg.getType()};
    SmallVector<Location> argLocs = {inputArg.getLoc()};
    for (BlockArgument arg : insArgs) {
      argTypes.push_back(arg.getType());
      argLocs.push_back(arg.getLoc());
    }
    Block *block =
        rewriter.createBlock(&reduce.getPrologue(), {}, argTypes, argLocs);
    rewriter.setInsertionPointToStart(block);
    IRMapping map;
    map.map(inputArg, block->getArgument(0));
    map.map(insArgs, block->getArguments().drop_front());
    clonePayload(rewriter, generic, map,
                 llvm::to_vector(llvm::seq<int64_t>(0, numLoops)), {comb->op});
    Value v = map.lookupOrDefault(comb->value);
    if (v.getType().isF64())
      v = arith::TruncFOp::create(rewriter, loc, f32, v);
    else if (v.getType().isInteger(1))
      v = arith::UIToFPOp::create(rewriter, loc, f32, v);
    else if (v.getType() != f32)
      v = arith::ExtFOp::create(rewriter, loc, f32, v);
    YieldOp::create(rewriter, loc, v);
  }

  if (foldInit) {
    SmallVector<Type> argTypes(kinds.size(), f32);
    SmallVector<Location> argLocs(kinds.size(), loc);
    Block *block =
        rewriter.createBlock(&reduce.getEpilogue(), {}, argTypes, argLocs);
    rewriter.setInsertionPointToStart(block);
    Value r = block->getArgument(0);
    {
      // The generic starts from its init, the kind from its identity: one
      // more step of the combiner with the init joins them.
      Value c = arith::ConstantOp::create(
          rewriter, loc,
          rewriter.getF32FloatAttr(fillValue.getValueAsDouble()));
      OperationState state(loc, comb->op->getName().getStringRef(),
                           ValueRange{r, c}, TypeRange{f32});
      r = rewriter.create(state)->getResult(0);
    }
    if (resultType.getElementType() != f32)
      r = arith::TruncFOp::create(rewriter, loc, resultType.getElementType(),
                                  r);
    YieldOp::create(rewriter, loc, r);
  }
  return RaiseResult::raised(reduce, reduce.getResult());
}
