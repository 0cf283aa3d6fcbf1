//===- RowOps.cpp - hkg.reduce, softmax, layernorm, rmsnorm verifiers -----===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/DynamicDims.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/ReduceKinds.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// `shape` of `op` as [outer, len, inner]: the extents before, of and after
/// the dims [first, last] (a dynamic dim counts as the op's size hint).
static std::array<int64_t, 3> splitAround(Operation *op,
                                          ArrayRef<int64_t> shape,
                                          int64_t first, int64_t last) {
  std::array<int64_t, 3> g = {1, 1, 1};
  for (auto [i, d] : llvm::enumerate(getHintedShape(op, shape))) {
    int64_t a = static_cast<int64_t>(i);
    g[a < first ? 0 : a <= last ? 1 : 2] *= d;
  }
  return g;
}

std::array<int64_t, 3> ReduceOp::getReductionGeometry() {
  return splitAround(*this, getInput().getType().getShape(), getAxes().front(),
                     getAxes().back());
}

std::array<int64_t, 3> SoftmaxOp::getAxisGeometry() {
  int64_t axis = getAxis();
  return splitAround(*this, getInput().getType().getShape(), axis, axis);
}

/// The dims [0, first): the kept dims before the reduced (or normalized)
/// ones, where a row op's batch and row dims are.
static SmallVector<int64_t> dimsBefore(int64_t first) {
  return llvm::to_vector(llvm::seq<int64_t>(0, first));
}

/// Per dim of `map`'s operand, the input dim before `first` it follows, or
/// -1 (a later dim, or a broadcast size-1 dim).
static SmallVector<int64_t> followedDimsBefore(AffineMap map, int64_t first) {
  return llvm::map_to_vector(map.getResults(), [&](AffineExpr e) -> int64_t {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      if (static_cast<int64_t>(d.getPosition()) < first)
        return d.getPosition();
    return -1;
  });
}

/// Identity on the dims before `first` of an operand of rank `rank`.
static SmallVector<int64_t> identityBefore(int64_t rank, int64_t first) {
  SmallVector<int64_t> dims(rank, -1);
  for (int64_t d = 0; d < std::min(first, rank); ++d)
    dims[d] = d;
  return dims;
}

SmallVector<int64_t> ReduceOp::getDynamicResultDims() {
  return dimsBefore(getAxes().front());
}

SmallVector<int64_t> ReduceOp::getResultDimsOfOperand(unsigned operand) {
  int64_t first = getAxes().front();
  if (operand == 0)
    return identityBefore(getInput().getType().getRank(), first);
  return followedDimsBefore(getInsMaps()[operand - 1], first);
}

SmallVector<ReduceKind> ReduceOp::getKindList() {
  return llvm::map_to_vector(getKinds(), [](Attribute a) {
    return cast<ReduceKindAttr>(a).getValue();
  });
}

SmallVector<AffineMap> ReduceOp::getInsMaps() {
  return resolveOperandMaps(getContext(), getIns(), getIndexingMaps(),
                            getInput().getType().getShape());
}

/// The prologue, epilogue and `ins` of a reduce (see the op description).
static LogicalResult verifyReduceBodies(ReduceOp op) {
  SmallVector<ReduceKind> kinds = op.getKindList();
  if (kinds.empty())
    return op.emitOpError("expected at least one reduction kind");
  MLIRContext *ctx = op.getContext();
  Type f32 = Float32Type::get(ctx), i64 = IntegerType::get(ctx, 64);
  Type resultElem = op.getResult().getType().getElementType();
  if (op.getPrologue().empty()) {
    if (!op.getIns().empty())
      return op.emitOpError("expected a 'prologue' to read the ")
             << op.getIns().size()
             << " 'ins' operand(s): without one, only the input is reduced";
    if (op.getIndexingMaps())
      return op.emitOpError("expected 'indexing_maps' only with 'ins' "
                            "operands and a 'prologue'");
  } else {
    if (failed(verifyOperandMaps(op, op.getIns(), op.getIndexingMaps(),
                                 op.getInput().getType().getShape(),
                                 "'ins' operand", "input")))
      return failure();
    Block &body = op.getPrologue().front();
    size_t want = 1 + op.getIns().size();
    if (body.getNumArguments() != want)
      return op.emitOpError("expected the prologue to have ")
             << want << " argument(s) (the input element, then one per 'ins' "
             << "operand), got " << body.getNumArguments();
    if (body.getArgument(0).getType() != elementTypeOf(op.getInput()))
      return op.emitOpError("expected prologue argument #0 to be ")
             << elementTypeOf(op.getInput())
             << " (the input's element type), got "
             << body.getArgument(0).getType();
    for (auto [i, in] : llvm::enumerate(op.getIns()))
      if (body.getArgument(i + 1).getType() != elementTypeOf(in))
        return op.emitOpError("expected prologue argument #")
               << i + 1 << " to be " << elementTypeOf(in)
               << " (the element type of 'ins' operand #" << i << "), got "
               << body.getArgument(i + 1).getType();
    if (failed(verifyScalarBody(op, body)))
      return failure();
    auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
    if (!yield)
      return op.emitOpError("expected the prologue to end with 'hkg.yield'");
    if (yield.getValues().size() != kinds.size() ||
        llvm::any_of(yield.getValues().getTypes(),
                     [&](Type t) { return t != f32; }))
      return op.emitOpError("expected the prologue to yield one f32 per "
                            "reduction kind (")
             << kinds.size() << "), got " << yield.getValues().getTypes();
  }
  if (op.getEpilogue().empty()) {
    if (kinds.size() != 1)
      return op.emitOpError("expected an 'epilogue' to combine the ")
             << kinds.size() << " reduced values into the result";
    if (isPositionKind(kinds.front())) {
      if (!resultElem.isInteger(32) && !resultElem.isInteger(64))
        return op.emitOpError("expected an i32 or i64 result for '")
               << stringifyReduceKind(kinds.front()) << "' (a position), got "
               << resultElem;
    } else if (!isa<FloatType>(resultElem)) {
      return op.emitOpError("expected a float result for '")
             << stringifyReduceKind(kinds.front()) << "', got " << resultElem;
    }
    return success();
  }
  Block &body = op.getEpilogue().front();
  if (body.getNumArguments() != kinds.size())
    return op.emitOpError("expected the epilogue to have one argument per "
                          "reduction kind (")
           << kinds.size() << "), got " << body.getNumArguments();
  for (auto [i, kind] : llvm::enumerate(kinds)) {
    Type want = isPositionKind(kind) ? i64 : f32;
    if (body.getArgument(i).getType() != want)
      return op.emitOpError("expected epilogue argument #")
             << i << " to be " << want << " (what '"
             << stringifyReduceKind(kind) << "' reduces to), got "
             << body.getArgument(i).getType();
  }
  if (failed(verifyScalarBody(op, body)))
    return failure();
  return verifyYieldsElement(op, body, resultElem, "epilogue");
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyKernelShapes(*this, /*allowDynamic=*/true)))
    return failure();
  if (failed(verifyReduceBodies(*this)))
    return failure();
  ArrayRef<int64_t> in = getInput().getType().getShape();
  int64_t rank = in.size();
  ArrayRef<int64_t> axes = getAxes();
  if (axes.empty())
    return emitOpError("expected at least one axis to reduce");
  for (auto [i, a] : llvm::enumerate(axes)) {
    if (a < 0 || a >= rank)
      return emitOpError("expected axes in [0, ")
             << rank << ") for an input of rank " << rank << ", got " << a;
    if (i > 0 && a <= axes[i - 1])
      return emitOpError("expected distinct axes in increasing order, got ")
             << axes[i - 1] << " before " << a;
    if (i > 0 && a != axes[i - 1] + 1)
      return emitOpError("expected adjacent axes, got ")
             << axes[i - 1] << " and " << a
             << " (reduce them with two hkg.reduce ops, or permute first)";
  }
  SmallVector<int64_t> dropped, kept;
  for (auto [i, d] : llvm::enumerate(in)) {
    bool reduced = llvm::is_contained(axes, static_cast<int64_t>(i));
    if (!reduced)
      dropped.push_back(d);
    kept.push_back(reduced ? 1 : d);
  }
  ArrayRef<int64_t> out = getResult().getType().getShape();
  if (out != ArrayRef<int64_t>(dropped) && out != ArrayRef<int64_t>(kept)) {
    InFlightDiagnostic diag = emitOpError("expected result shape ");
    diag << shapeStr(dropped) << " (the input shape without the reduced axes)"
         << " or " << shapeStr(kept) << " (keeping them as 1), got "
         << shapeStr(out);
    return diag;
  }
  return verifyDynamicDims(*this);
}

//===----------------------------------------------------------------------===//
// SoftmaxOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> SoftmaxOp::getDynamicResultDims() {
  return dimsBefore(getAxis());
}

SmallVector<int64_t> SoftmaxOp::getResultDimsOfOperand(unsigned operand) {
  return identityBefore(getInput().getType().getRank(), getAxis());
}

LogicalResult SoftmaxOp::verify() {
  if (failed(verifyKernelShapes(*this, /*allowDynamic=*/true)))
    return failure();
  auto in = getInput().getType();
  if (in.getRank() < 1)
    return emitOpError("expected 'input' of rank >= 1, got rank 0");
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= in.getRank())
    return emitOpError("expected 'axis' in [0, ")
           << in.getRank() - 1 << "], got " << axis;
  if (in.getShape() != getResult().getType().getShape()) {
    InFlightDiagnostic diag =
        emitOpError("expected the result shape to equal the input shape ");
    diag << shapeStr(in.getShape()) << ", got "
         << shapeStr(getResult().getType().getShape());
    return diag;
  }
  return verifyDynamicDims(*this);
}

//===----------------------------------------------------------------------===//
// LayerNormOp / RMSNormOp
//===----------------------------------------------------------------------===//

template <typename NormOp> static SmallVector<int64_t> normAxes(NormOp op) {
  if (std::optional<ArrayRef<int64_t>> axes = op.getAxes())
    return llvm::to_vector(*axes);
  return {op.getInput().getType().getRank() - 1};
}

template <typename NormOp>
static std::array<int64_t, 3> normGeometry(NormOp op) {
  SmallVector<int64_t> axes = normAxes(op);
  return splitAround(op, op.getInput().getType().getShape(), axes.front(),
                     axes.back());
}

template <typename NormOp> static SmallVector<int64_t> normShape(NormOp op) {
  SmallVector<int64_t> axes = normAxes(op);
  return llvm::to_vector(op.getInput().getType().getShape().slice(
      axes.front(), axes.back() - axes.front() + 1));
}

/// A norm's input dims before the normalized ones are its result's; the
/// weight and bias have the normalized dims only.
template <typename NormOp>
static SmallVector<int64_t> normResultDimsOf(NormOp op, unsigned operand) {
  auto t = cast<ShapedType>(op->getOperand(operand).getType());
  if (op->getOperand(operand) != op.getInput())
    return SmallVector<int64_t>(t.getRank(), -1);
  return identityBefore(t.getRank(), normAxes(op).front());
}

SmallVector<int64_t> LayerNormOp::getDynamicResultDims() {
  return dimsBefore(normAxes(*this).front());
}
SmallVector<int64_t> LayerNormOp::getResultDimsOfOperand(unsigned operand) {
  return normResultDimsOf(*this, operand);
}
SmallVector<int64_t> RMSNormOp::getDynamicResultDims() {
  return dimsBefore(normAxes(*this).front());
}
SmallVector<int64_t> RMSNormOp::getResultDimsOfOperand(unsigned operand) {
  return normResultDimsOf(*this, operand);
}

SmallVector<int64_t> LayerNormOp::getNormAxes() { return normAxes(*this); }
std::array<int64_t, 3> LayerNormOp::getNormGeometry() {
  return normGeometry(*this);
}
SmallVector<int64_t> LayerNormOp::getNormShape() { return normShape(*this); }
SmallVector<int64_t> RMSNormOp::getNormAxes() { return normAxes(*this); }
std::array<int64_t, 3> RMSNormOp::getNormGeometry() {
  return normGeometry(*this);
}
SmallVector<int64_t> RMSNormOp::getNormShape() { return normShape(*this); }

/// The norm's `axes`: in range, increasing, adjacent, and either trailing
/// or a single axis.
template <typename NormOp> static LogicalResult verifyNormAxes(NormOp op) {
  std::optional<ArrayRef<int64_t>> given = op.getAxes();
  if (!given)
    return success();
  ArrayRef<int64_t> axes = *given;
  int64_t rank = op.getInput().getType().getRank();
  if (axes.empty())
    return op.emitOpError("expected at least one axis to normalize over "
                          "(omit 'axes' for the last dim)");
  for (auto [i, a] : llvm::enumerate(axes)) {
    if (a < 0 || a >= rank)
      return op.emitOpError("expected axes in [0, ")
             << rank << ") for an input of rank " << rank << ", got " << a;
    if (i > 0 && a <= axes[i - 1])
      return op.emitOpError("expected distinct axes in increasing order, got ")
             << axes[i - 1] << " before " << a;
    if (i > 0 && a != axes[i - 1] + 1)
      return op.emitOpError("expected adjacent axes, got ")
             << axes[i - 1] << " and " << a;
  }
  if (axes.size() > 1 && axes.back() != rank - 1) {
    InFlightDiagnostic diag =
        op.emitOpError("expected trailing axes (ending at the last dim, ");
    diag << rank - 1 << ") or a single axis, got " << shapeStr(axes)
         << " for an input of rank " << rank;
    return diag;
  }
  return success();
}

/// The optional `weight` (or bias) `name` of a norm must have the
/// normalized dims' shape.
template <typename NormOp>
static LogicalResult verifyNormWeight(NormOp op, Value weight, StringRef name) {
  if (!weight)
    return success();
  ArrayRef<int64_t> got = cast<RankedTensorType>(weight.getType()).getShape();
  SmallVector<int64_t> want = op.getNormShape();
  if (got == ArrayRef<int64_t>(want))
    return success();
  InFlightDiagnostic diag = op.emitOpError("expected '");
  diag << name << "' of shape " << shapeStr(want);
  if (op.getAxes())
    diag << " (the input's dims at axes " << shapeStr(*op.getAxes()) << ")";
  else
    diag << " (the last dim of the input)";
  diag << ", got " << shapeStr(got);
  return diag;
}

template <typename NormOp>
static LogicalResult verifyNorm(NormOp op) {
  if (failed(verifyKernelShapes(op, /*allowDynamic=*/true)))
    return failure();
  auto in = op.getInput().getType();
  if (in.getRank() < 1)
    return op.emitOpError("expected 'input' of rank >= 1, got rank 0");
  if (in.getShape() != op.getResult().getType().getShape()) {
    InFlightDiagnostic diag =
        op.emitOpError("expected the result shape to equal the input shape ");
    diag << shapeStr(in.getShape()) << ", got "
         << shapeStr(op.getResult().getType().getShape());
    return diag;
  }
  float eps = op.getEps().convertToFloat();
  if (!(eps > 0.0f) || !std::isfinite(eps))
    return op.emitOpError("expected 'eps' > 0 and finite, got ") << eps;
  if (failed(verifyNormAxes(op)))
    return failure();
  return verifyNormWeight(op, op.getWeight(), "weight");
}

LogicalResult LayerNormOp::verify() {
  if (failed(verifyNorm(*this)) ||
      failed(verifyNormWeight(*this, getBias(), "bias")))
    return failure();
  return verifyDynamicDims(*this);
}

LogicalResult RMSNormOp::verify() {
  if (failed(verifyNorm(*this)))
    return failure();
  return verifyDynamicDims(*this);
}
