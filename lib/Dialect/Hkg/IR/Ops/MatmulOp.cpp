//===- MatmulOp.cpp - hkg.matmul builder, accessors and verifier ----------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
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
  return getResult().getType().getShape().drop_back(1).back();
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

LogicalResult MatmulOp::verify() {
  if (failed(verifyKernelShapes(*this)))
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
  if (lhsT.getElementType() != rhsT.getElementType())
    return emitOpError("expected 'lhs' and 'rhs' to have the same element "
                       "type, got ")
           << lhsT.getElementType() << " and " << rhsT.getElementType();
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
  if (o[o.size() - 2] != lm || o.back() != rn)
    return emitOpError("expected the result's trailing dims to be [M, N] = [")
           << lm << ", " << rn << "], got [" << o[o.size() - 2] << ", "
           << o.back() << "]";

  // Epilogue.
  if (getEpilogue().empty()) {
    if (!getEpilogueInputs().empty())
      return emitOpError("expected an epilogue region to consume the ")
             << getEpilogueInputs().size() << " epilogue operand(s)";
    if (getIndexingMaps())
      return emitOpError("expected 'indexing_maps' only with epilogue "
                         "operands");
    return success();
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
  if (!body.getArgument(0).getType().isF32())
    return emitOpError("expected the epilogue's first argument (the "
                       "accumulator) to be f32, got ")
           << body.getArgument(0).getType();
  for (auto [i, in] : llvm::enumerate(getEpilogueInputs()))
    if (body.getArgument(i + 1).getType() != elementTypeOf(in))
      return emitOpError("expected epilogue argument #")
             << i + 1 << " to be " << elementTypeOf(in)
             << " (the element type of epilogue operand #" << i << "), got "
             << body.getArgument(i + 1).getType();
  if (failed(verifyScalarBody(*this, body)))
    return failure();
  return verifyYieldsElement(*this, body, resT.getElementType(), "epilogue");
}
