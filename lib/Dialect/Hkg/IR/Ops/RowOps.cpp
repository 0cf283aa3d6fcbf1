//===- RowOps.cpp - hkg.reduce, softmax, layernorm, rmsnorm verifiers -----===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// The optional `weight` (or bias) `name` of a norm must be [d].
static LogicalResult verifyNormWeight(Operation *op, Value weight,
                                      StringRef name, int64_t d) {
  if (!weight)
    return success();
  auto t = cast<RankedTensorType>(weight.getType());
  if (t.getRank() != 1 || t.getDimSize(0) != d) {
    InFlightDiagnostic diag = op->emitOpError("expected '");
    diag << name << "' of shape [" << d
         << "] (the last dim of the input), got " << shapeStr(t.getShape());
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  ArrayRef<int64_t> in = getInput().getType().getShape();
  int64_t rank = in.size();
  if (static_cast<int64_t>(getDims()) > rank)
    return emitOpError("expected 'dims' in [1, ")
           << rank << "] for an input of rank " << rank << ", got "
           << getDims();
  ArrayRef<int64_t> expected = in.drop_back(getDims());
  ArrayRef<int64_t> out = getResult().getType().getShape();
  if (out != expected) {
    InFlightDiagnostic diag = emitOpError("expected result shape ");
    diag << shapeStr(expected) << " (the input shape without its "
         << getDims() << " trailing dim(s)), got " << shapeStr(out);
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SoftmaxOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  if (failed(verifyStaticShapes(*this)))
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
  return success();
}

//===----------------------------------------------------------------------===//
// LayerNormOp / RMSNormOp
//===----------------------------------------------------------------------===//

template <typename NormOp>
static LogicalResult verifyNorm(NormOp op) {
  if (failed(verifyStaticShapes(op)))
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
  return success();
}

LogicalResult LayerNormOp::verify() {
  if (failed(verifyNorm(*this)))
    return failure();
  int64_t d = getInput().getType().getShape().back();
  if (failed(verifyNormWeight(*this, getWeight(), "weight", d)) ||
      failed(verifyNormWeight(*this, getBias(), "bias", d)))
    return failure();
  return success();
}

LogicalResult RMSNormOp::verify() {
  if (failed(verifyNorm(*this)))
    return failure();
  int64_t d = getInput().getType().getShape().back();
  return verifyNormWeight(*this, getWeight(), "weight", d);
}
