//===- ReductionsKinds.cpp - the kinds and bodies of hkg.reduce -----------===//
//
// See ReductionsKinds.h.
//
//===----------------------------------------------------------------------===//

#include "ReductionsKinds.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/ReduceKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::reduce;

KindState::KindState(ReduceOp op) : kinds(op.getKindList()) {
  for (ReduceKind k : kinds) {
    offsets.push_back(total);
    total += getStateWidth(k);
  }
}

double KindState::maskValue(unsigned k) const {
  double inf = std::numeric_limits<double>::infinity();
  switch (kinds[k]) {
  case ReduceKind::Sum:
    return 0.0;
  case ReduceKind::Prod:
    return 1.0;
  case ReduceKind::Max:
  case ReduceKind::Maximum:
  case ReduceKind::Argmax:
  case ReduceKind::LogSumExp:
    return -inf;
  case ReduceKind::Min:
  case ReduceKind::Minimum:
  case ReduceKind::Argmin:
    return inf;
  }
  llvm_unreachable("unknown reduce kind");
}

SmallVector<Value> KindState::identity(OpBuilder &b, Location loc,
                                       Value like) const {
  SmallVector<Value> state;
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    state.push_back(splatLike(b, loc, constF32(b, loc, maskValue(k)), like));
    if (kind == ReduceKind::LogSumExp)
      state.push_back(splatLike(b, loc, constF32(b, loc, 0.0), like));
    if (isPositionKind(kind))
      state.push_back(splatLike(
          b, loc, constI32(b, loc, std::numeric_limits<int32_t>::max()), like));
  }
  return state;
}

/// Whether (v2, p2) replaces (v1, p1): a larger (`greater`) or smaller
/// value, the lower position on ties, a NaN over every number and the first
/// NaN over later ones.
static Value argTakes(OpBuilder &b, Location loc, bool greater, Value v1,
                      Value p1, Value v2, Value p2) {
  using P = arith::CmpFPredicate;
  Value nan1 = arith::CmpFOp::create(b, loc, P::UNO, v1, v1);
  Value nan2 = arith::CmpFOp::create(b, loc, P::UNO, v2, v2);
  Value lower =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, p2, p1);
  Value better =
      arith::CmpFOp::create(b, loc, greater ? P::OGT : P::OLT, v2, v1);
  Value tie = arith::AndIOp::create(
      b, loc, arith::CmpFOp::create(b, loc, P::OEQ, v2, v1), lower);
  Value ones =
      splatLike(b, loc, arith::ConstantIntOp::create(b, loc, 1, 1), v1);
  Value notNan1 = arith::XOrIOp::create(b, loc, nan1, ones);
  Value nanWins = arith::AndIOp::create(
      b, loc, nan2, arith::OrIOp::create(b, loc, notNan1, lower));
  return arith::OrIOp::create(b, loc, nanWins,
                              arith::OrIOp::create(b, loc, better, tie));
}

/// The better of (v1, p1) and (v2, p2) by argTakes: {value, position}.
static std::array<Value, 2> mergePositions(OpBuilder &b, Location loc,
                                           bool greater, Value v1, Value p1,
                                           Value v2, Value p2) {
  Value take = argTakes(b, loc, greater, v1, p1, v2, p2);
  return {arith::SelectOp::create(b, loc, take, v2, v1),
          arith::SelectOp::create(b, loc, take, p2, p1)};
}

Combiner KindState::combiner() const {
  SmallVector<ReduceKind> ks = kinds;
  SmallVector<unsigned> offs = offsets;
  return [ks, offs](OpBuilder &b, Location loc, ValueRange x,
                    ValueRange y) -> SmallVector<Value> {
    SmallVector<Value> out;
    for (auto [kind, at] : llvm::zip(ks, offs)) {
      Value a = x[at], c = y[at];
      switch (kind) {
      case ReduceKind::Sum:
        out.push_back(arith::AddFOp::create(b, loc, a, c));
        break;
      case ReduceKind::Prod:
        out.push_back(arith::MulFOp::create(b, loc, a, c));
        break;
      case ReduceKind::Max:
        out.push_back(arith::MaxNumFOp::create(b, loc, a, c));
        break;
      case ReduceKind::Min:
        out.push_back(arith::MinNumFOp::create(b, loc, a, c));
        break;
      case ReduceKind::Maximum:
        out.push_back(arith::MaximumFOp::create(b, loc, a, c));
        break;
      case ReduceKind::Minimum:
        out.push_back(arith::MinimumFOp::create(b, loc, a, c));
        break;
      case ReduceKind::LogSumExp: {
        Value m = arith::MaxNumFOp::create(b, loc, a, c);
        Value sa = arith::MulFOp::create(b, loc, x[at + 1],
                                         expDiffOrZero(b, loc, a, m));
        Value sc = arith::MulFOp::create(b, loc, y[at + 1],
                                         expDiffOrZero(b, loc, c, m));
        out.push_back(m);
        out.push_back(arith::AddFOp::create(b, loc, sa, sc));
        break;
      }
      case ReduceKind::Argmax:
      case ReduceKind::Argmin: {
        llvm::append_range(out,
                           mergePositions(b, loc, kind == ReduceKind::Argmax, a,
                                          x[at + 1], c, y[at + 1]));
        break;
      }
      }
    }
    return out;
  };
}

SmallVector<Value> KindState::ofLanes(OpBuilder &b, Location loc,
                                      ArrayRef<Value> values,
                                      Value position) const {
  SmallVector<Value> state;
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    Value v = values[k];
    auto vt = dyn_cast<VectorType>(v.getType());
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Prod:
    case ReduceKind::Max:
    case ReduceKind::Min:
    case ReduceKind::Maximum:
    case ReduceKind::Minimum:
      state.push_back(reduceVector(b, loc, v, kind));
      break;
    case ReduceKind::LogSumExp: {
      // One exponential per element: the slot's own max, then its sum.
      Value m = reduceVector(b, loc, v, ReduceKind::Max);
      state.push_back(m);
      state.push_back(vt ? reduceVector(b, loc, expDiffOrZero(b, loc, v, m),
                                        ReduceKind::Sum)
                         : constF32(b, loc, 1.0));
      break;
    }
    case ReduceKind::Argmax:
    case ReduceKind::Argmin: {
      // Lane by lane, in order: the first best lane wins.
      Value lane0 = vt ? vector::ExtractOp::create(b, loc, v, 0) : v;
      std::array<Value, 2> best = {lane0, position};
      int64_t width = vt ? vt.getNumElements() : 1;
      for (int64_t l = 1; l < width; ++l)
        best = mergePositions(
            b, loc, kind == ReduceKind::Argmax, best[0], best[1],
            vector::ExtractOp::create(b, loc, v, l),
            arith::AddIOp::create(b, loc, position, constI32(b, loc, l)));
      llvm::append_range(state, best);
      break;
    }
    }
  }
  return state;
}

SmallVector<Value> KindState::accumulateLanes(OpBuilder &b, Location loc,
                                              ValueRange acc,
                                              ArrayRef<Value> values,
                                              Value position) const {
  SmallVector<Value> merged =
      combiner()(b, loc, acc, ofLanes(b, loc, values, position));
  // The slot's own sum of exponentials and the merge's rescaling of it are
  // left unused, and erased as dead code.
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    if (kind != ReduceKind::LogSumExp)
      continue;
    unsigned at = offsets[k];
    Value m = merged[at]; // max(acc's max, the lanes' max)
    // Exponentials against m, or against 0 while m is -inf (nothing but
    // -inf and NaN lanes so far): exp(-inf) is 0 and a NaN lane stays NaN
    // (maxnum skips NaNs, so zeroing every lane when m is -inf would drop
    // them).
    Value negInf = constF32(b, loc, -std::numeric_limits<double>::infinity());
    Value empty =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, negInf);
    Value base =
        arith::SelectOp::create(b, loc, empty, constF32(b, loc, 0.0), m);
    Value kept = arith::MulFOp::create(
        b, loc, acc[at + 1],
        expBelowMax(b, loc, arith::SubFOp::create(b, loc, acc[at], base)));
    Value x = values[k];
    Value lanes = expBelowMax(
        b, loc, arith::SubFOp::create(b, loc, x, splatLike(b, loc, base, x)));
    if (isa<VectorType>(lanes.getType()))
      lanes = reduceVector(b, loc, lanes, ReduceKind::Sum);
    merged[at + 1] = arith::AddFOp::create(b, loc, kept, lanes);
  }
  return merged;
}

SmallVector<Value> KindState::ofElements(OpBuilder &b, Location loc,
                                         ArrayRef<Value> values,
                                         Value position) const {
  SmallVector<Value> state;
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    Value v = values[k];
    state.push_back(v);
    // A single element: a sum of exp(v - v) = 1 (0 for -inf, which the
    // combiner's expOrZero takes care of).
    if (kind == ReduceKind::LogSumExp)
      state.push_back(splatLike(b, loc, constF32(b, loc, 1.0), v));
    if (isPositionKind(kind))
      state.push_back(splatLike(b, loc, position, v));
  }
  return state;
}

SmallVector<Value> KindState::finish(OpBuilder &b, Location loc,
                                     ValueRange state) const {
  SmallVector<Value> out;
  for (auto [kind, at] : llvm::zip(kinds, offsets)) {
    Value v = state[at];
    if (kind == ReduceKind::LogSumExp) {
      v = arith::AddFOp::create(b, loc, v,
                                math::LogOp::create(b, loc, state[at + 1]));
    } else if (isPositionKind(kind)) {
      Value p = state[at + 1];
      Type i64 = b.getI64Type();
      if (auto vt = dyn_cast<VectorType>(p.getType()))
        i64 = VectorType::get(vt.getShape(), i64);
      v = arith::ExtSIOp::create(b, loc, i64, p);
    }
    out.push_back(v);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Prologue, element index, epilogue
//===----------------------------------------------------------------------===//

Prologue::Prologue(ReduceOp op, OpBuilder &b, Location loc, ValueRange insArgs)
    : op(op), b(b), loc(loc) {
  if (op.getPrologue().empty())
    return;
  body = &op.getPrologue().front();
  for (auto [arg, in, map] : llvm::zip(insArgs, op.getIns(), op.getInsMaps())) {
    auto shape = cast<ShapedType>(in.getType()).getShape();
    ins.push_back(flatView(b, loc, arg));
    // Only the outermost dim may be dynamic (checkStrides): no stride
    // involves its extent.
    strides.push_back(operandStridesPerResultDim(map, shape));
  }
}

LogicalResult Prologue::checkStrides() {
  for (auto [i, in] : llvm::enumerate(op.getIns())) {
    ArrayRef<int64_t> shape = cast<ShapedType>(in.getType()).getShape();
    for (size_t d = 1; d < shape.size(); ++d)
      if (ShapedType::isDynamic(shape[d]))
        return op.emitOpError("'ins' operand #")
               << i << " has a dynamic dim " << d
               << " inside its shape; only an operand's outermost dim may be "
                  "dynamic (its strides must be static)";
  }
  return success();
}

SmallVector<Value> Prologue::apply(Value x, ArrayRef<Value> index) {
  if (!body) {
    Value f = toF32(b, loc, x);
    return SmallVector<Value>(op.getKinds().size(), f);
  }
  IRMapping map;
  map.map(body->getArgument(0), x);
  for (auto [k, in] : llvm::enumerate(ins))
    map.map(body->getArgument(k + 1),
            memref::LoadOp::create(b, loc, in,
                                   linearize(b, loc, index, strides[k])));
  for (Operation &inner : body->without_terminator()) {
    if (auto idx = dyn_cast<IndexOp>(inner)) {
      map.map(idx.getResult(), index[idx.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
  return llvm::map_to_vector(body->getTerminator()->getOperands(),
                             [&](Value v) { return map.lookup(v); });
}

SmallVector<Value>
Prologue::applyLanes(Value raw, int64_t width,
                     function_ref<ElementIndex(int64_t)> indexOf) {
  size_t numKinds = op.getKinds().size();
  SmallVector<SmallVector<Value>> lanes(numKinds);
  for (int64_t l = 0; l < width; ++l) {
    ElementIndex index = indexOf(l);
    SmallVector<Value> ys =
        apply(vector::ExtractOp::create(b, loc, raw, l), index);
    for (size_t k = 0; k < numKinds; ++k)
      lanes[k].push_back(ys[k]);
  }
  auto vt = VectorType::get({width}, b.getF32Type());
  return llvm::map_to_vector(lanes, [&](ArrayRef<Value> ls) -> Value {
    return vector::FromElementsOp::create(b, loc, vt, ls);
  });
}

InputDims::InputDims(ReduceOp op, KernelContext &kc) {
  ArrayRef<int64_t> shape = op.getInput().getType().getShape();
  int64_t first = op.getAxes().front(), last = op.getAxes().back();
  for (auto [i, d] : llvm::enumerate(shape)) {
    int64_t a = static_cast<int64_t>(i);
    if (a < first)
      outerDims.push_back(kc.extent(0, a, a + 1));
    else
      (a <= last ? reducedDims : innerDims).push_back(d);
  }
}

ElementIndex InputDims::index(OpBuilder &b, Location loc, Value o, Value r,
                              Value i) const {
  ElementIndex idx = delinearize(b, loc, o, outerDims);
  llvm::append_range(idx, delinearize(b, loc, r, reducedDims));
  llvm::append_range(idx, delinearize(b, loc, i, innerDims));
  return idx;
}

Value mlir::hkg::reduce::applyEpilogue(ReduceOp op, OpBuilder &b, Location loc,
                                       ArrayRef<Value> reduced) {
  Type et = op.getResult().getType().getElementType();
  if (op.getEpilogue().empty()) {
    Value v = reduced.front();
    if (getElementTypeOrSelf(v.getType()) == et)
      return v;
    if (!isa<IntegerType>(et))
      return fromF32(b, loc, v, et);
    if (auto vt = dyn_cast<VectorType>(v.getType()))
      return arith::TruncIOp::create(b, loc, vt.clone(et), v);
    return arith::TruncIOp::create(b, loc, et, v);
  }
  Block &body = op.getEpilogue().front();
  IRMapping map;
  for (auto [arg, v] : llvm::zip(body.getArguments(), reduced))
    map.map(arg, v);
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  return map.lookup(body.getTerminator()->getOperand(0));
}
