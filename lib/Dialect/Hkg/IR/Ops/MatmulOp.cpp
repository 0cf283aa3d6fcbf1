//===- MatmulOp.cpp - hkg.matmul builder, accessors and verifier ----------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/DynamicDims.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

void MatmulOp::build(OpBuilder &builder, OperationState &state,
                     Type resultType, Value lhs, Value rhs, bool transposeA,
                     bool transposeB) {
  state.addOperands({lhs, rhs});
  state.addTypes(resultType);
  if (transposeA)
    state.getOrAddProperties<Properties>().transpose_a =
        builder.getUnitAttr();
  if (transposeB)
    state.getOrAddProperties<Properties>().transpose_b =
        builder.getUnitAttr();
  state.addRegion();
}

int64_t MatmulOp::getBatchSize() {
  ArrayRef<int64_t> shape = getResult().getType().getShape();
  int64_t b = 1;
  for (int64_t d : shape.drop_back(2))
    b *= d;
  return b;
}
int64_t MatmulOp::getM() {
  int64_t m = getResult().getType().getShape().drop_back(1).back();
  return ShapedType::isDynamic(m) ? getSizeHint(*this) : m;
}
bool MatmulOp::isDynamicM() {
  return ShapedType::isDynamic(
      getResult().getType().getShape().drop_back(1).back());
}

SmallVector<int64_t> MatmulOp::getDynamicResultDims() {
  return {getResult().getType().getRank() - 2};
}

SmallVector<int64_t> MatmulOp::getResultDimsOfOperand(unsigned operand) {
  int64_t rank = getResult().getType().getRank();
  // Batch dims are the result's; lhs has M (last with transpose_a).
  SmallVector<int64_t> dims(rank, -1);
  if (operand >= 2)
    return llvm::map_to_vector(getEpilogueMaps()[operand - 2].getResults(),
                               [](AffineExpr e) -> int64_t {
                                 if (auto d = dyn_cast<AffineDimExpr>(e))
                                   return d.getPosition();
                                 return -1;
                               });
  for (int64_t d = 0; d < rank - 2; ++d)
    dims[d] = d;
  if (operand == 0)
    dims[getTransposeA() ? rank - 1 : rank - 2] = rank - 2;
  return dims;
}
int64_t MatmulOp::getN() { return getResult().getType().getShape().back(); }
int64_t MatmulOp::getK() {
  ArrayRef<int64_t> lhs = getLhs().getType().getShape();
  return getTransposeA() ? lhs.drop_back(1).back() : lhs.back();
}

SmallVector<AffineMap> MatmulOp::getEpilogueMaps() {
  return resolveOperandMaps(getContext(), getEpilogueInputs(),
                            getIndexingMaps(),
                            getResult().getType().getShape());
}

SmallVector<std::array<int64_t, 3>> MatmulOp::getEpilogueViews() {
  SmallVector<std::array<int64_t, 3>> views;
  ArrayRef<int64_t> o = getResult().getType().getShape();
  for (auto [in, map] : llvm::zip(getEpilogueInputs(), getEpilogueMaps())) {
    std::string why;
    FailureOr<std::array<int64_t, 3>> view =
        getEpilogueView(map, shapeOf(in), o, why);
    assert(succeeded(view) && "the verifier checks every epilogue view");
    views.push_back(*view);
  }
  return views;
}

Type MatmulOp::getAccumulatorType() {
  Type elem = getLhs().getType().getElementType();
  Builder b(getContext());
  return elem.isInteger(8) ? Type(b.getI32Type()) : Type(b.getF32Type());
}

/// Whether `t` is one of the 8-bit float types hkg.matmul takes.
static bool isFloat8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType>(t);
}

LogicalResult MatmulOp::verify() {
  if (failed(verifyKernelShapes(*this, /*allowDynamic=*/true)))
    return failure();
  auto lhsT = getLhs().getType(), rhsT = getRhs().getType();
  auto resT = getResult().getType();
  for (auto [name, t] : {std::pair<StringRef, RankedTensorType>{"lhs", lhsT},
                         {"rhs", rhsT},
                         {"result", resT}})
    if (t.getRank() < 2)
      return emitOpError("expected '")
             << name << "' of rank >= 2, got rank " << t.getRank();
  if (lhsT.getRank() != rhsT.getRank() || lhsT.getRank() != resT.getRank())
    return emitOpError("expected 'lhs', 'rhs' and the result to have the "
                       "same rank, got ")
           << lhsT.getRank() << ", " << rhsT.getRank() << " and "
           << resT.getRank();
  Type lhsE = lhsT.getElementType(), rhsE = rhsT.getElementType();
  if (lhsE != rhsE) {
    // Two 8-bit float formats (e4m3 x e5m2) are one instruction on some
    // chips, but not a kernel hkg builds yet.
    if (isFloat8(lhsE) && isFloat8(rhsE))
      return emitOpError("expected 'lhs' and 'rhs' of one 8-bit float type, "
                         "got ")
             << lhsE << " and " << rhsE
             << " (mixed fp8 formats are not implemented); convert one "
                "operand to the other's type";
    return emitOpError("expected 'lhs' and 'rhs' to have the same element "
                       "type, got ")
           << lhsE << " and " << rhsE;
  }
  // i32 sums come only from i8 operands.
  Type resE = resT.getElementType();
  if (resE.isInteger(32) && !lhsE.isInteger(8))
    return emitOpError("expected a float result for ")
           << lhsE << " operands, got " << resE
           << " (i32 results hold the exact sums of i8 operands)";
  ArrayRef<int64_t> l = lhsT.getShape(), r = rhsT.getShape(),
                    o = resT.getShape();
  ArrayRef<int64_t> batch = o.drop_back(2);
  if (l.drop_back(2) != batch || r.drop_back(2) != batch) {
    InFlightDiagnostic diag = emitOpError("expected equal batch dims, got ");
    diag << shapeStr(l.drop_back(2)) << " for 'lhs', "
         << shapeStr(r.drop_back(2)) << " for 'rhs' and " << shapeStr(batch)
         << " for the result";
    return diag;
  }
  int64_t lm = getTransposeA() ? l.back() : l[l.size() - 2];
  int64_t lk = getTransposeA() ? l[l.size() - 2] : l.back();
  int64_t rk = getTransposeB() ? r.back() : r[r.size() - 2];
  int64_t rn = getTransposeB() ? r[r.size() - 2] : r.back();
  if (lk != rk)
    return emitOpError("expected the contraction dims to match, got K = ")
           << lk << " for 'lhs' and K = " << rk << " for 'rhs'";
  if (o[o.size() - 2] != lm || o.back() != rn) {
    InFlightDiagnostic diag =
        emitOpError("expected the result's trailing dims to be [M, N] = ");
    diag << shapeStr({lm, rn}) << ", got " << shapeStr(o.take_back(2));
    return diag;
  }
  if (isDynamicM() && getBatchSize() != 1) {
    InFlightDiagnostic diag = emitOpError("expected no batch (or batch dims "
                                          "of 1) with a dynamic M, got ");
    diag << shapeStr(batch);
    return diag;
  }

  // Epilogue.
  if (getEpilogue().empty()) {
    if (!getEpilogueInputs().empty())
      return emitOpError("expected an epilogue region to consume the ")
             << getEpilogueInputs().size() << " epilogue operand(s)";
    if (getIndexingMaps())
      return emitOpError("expected 'indexing_maps' only with epilogue "
                         "operands");
    return verifyDynamicDims(*this);
  }
  std::optional<ArrayAttr> maps = getIndexingMaps();
  if (!maps) {
    for (auto [i, in] : llvm::enumerate(getEpilogueInputs())) {
      ArrayRef<int64_t> e = shapeOf(in);
      std::string why;
      if (succeeded(inferBroadcastMap(getContext(), e, o, why)))
        continue;
      InFlightDiagnostic diag =
          emitOpError("cannot tell which result dims epilogue operand #");
      diag << i << " of shape " << shapeStr(e) << " follows in the result "
           << shapeStr(o) << ": " << why
           << "; say which with 'indexing_maps' (one affine map per epilogue "
              "operand), or give it the result's rank, with 1 for each dim "
              "it does not follow";
      return diag;
    }
  } else if (failed(verifyOperandMaps(*this, getEpilogueInputs(), maps, o,
                                      "epilogue operand", "result"))) {
    return failure();
  }
  for (auto [i, in, map] :
       llvm::enumerate(getEpilogueInputs(), getEpilogueMaps())) {
    std::string why;
    if (succeeded(getEpilogueView(map, shapeOf(in), o, why)))
      continue;
    InFlightDiagnostic diag = emitOpError("epilogue operand #");
    diag << i << " of shape " << shapeStr(shapeOf(in)) << " mapped by "
         << AffineMapAttr::get(map)
         << " cannot be read by the epilogue: " << why
         << "; apply it in an hkg.elementwise";
    return diag;
  }
  Block &body = getEpilogue().front();
  size_t expectedArgs = 1 + getEpilogueInputs().size();
  if (body.getNumArguments() != expectedArgs)
    return emitOpError("expected the epilogue to have ")
           << expectedArgs
           << " arguments (the f32 accumulator, then one per epilogue "
              "operand), got "
           << body.getNumArguments();
  if (body.getArgument(0).getType() != getAccumulatorType())
    return emitOpError("expected the epilogue's first argument (the "
                       "accumulator) to be ")
           << getAccumulatorType() << " for " << lhsE << " operands, got "
           << body.getArgument(0).getType();
  for (auto [i, in] : llvm::enumerate(getEpilogueInputs()))
    if (body.getArgument(i + 1).getType() != elementTypeOf(in))
      return emitOpError("expected epilogue argument #")
             << i + 1 << " to be " << elementTypeOf(in)
             << " (the element type of epilogue operand #" << i << "), got "
             << body.getArgument(i + 1).getType();
  if (failed(verifyScalarBody(*this, body)) ||
      failed(
          verifyYieldsElement(*this, body, resT.getElementType(), "epilogue")))
    return failure();
  return verifyDynamicDims(*this);
}
