//===- AttentionOp.cpp - hkg.attention accessors and verifier -------------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

float AttentionOp::getEffectiveScale() {
  if (auto s = getScale())
    return s->convertToFloat();
  return 1.0f / std::sqrt(static_cast<float>(
                    getQuery().getType().getShape().back()));
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyKernelShapes(*this)))
    return failure();
  auto q = getQuery().getType(), k = getKey().getType(),
       v = getValue().getType(), o = getResult().getType();
  for (auto [name, t] : {std::pair<StringRef, RankedTensorType>{"query", q},
                         {"key", k},
                         {"value", v},
                         {"result", o}})
    if (t.getRank() != 4)
      return emitOpError("expected '")
             << name << "' of rank 4 [B, H, S, D], got rank " << t.getRank();
  if (q.getElementType() != k.getElementType() ||
      q.getElementType() != v.getElementType())
    return emitOpError("expected 'query', 'key' and 'value' of one element "
                       "type, got ")
           << q.getElementType() << ", " << k.getElementType() << " and "
           << v.getElementType();
  int64_t b = q.getDimSize(0), hq = q.getDimSize(1), sq = q.getDimSize(2),
          d = q.getDimSize(3);
  int64_t hkv = k.getDimSize(1), skv = k.getDimSize(2), dv = v.getDimSize(3);
  if (k.getDimSize(0) != b || v.getDimSize(0) != b)
    return emitOpError("expected one batch size B = ")
           << b << ", got " << k.getDimSize(0) << " for 'key' and "
           << v.getDimSize(0) << " for 'value'";
  if (k.getDimSize(3) != d)
    return emitOpError("expected 'key' head dim to equal 'query' head dim ")
           << d << ", got " << k.getDimSize(3);
  if (v.getDimSize(1) != hkv || v.getDimSize(2) != skv)
    return emitOpError("expected 'value' heads and length [")
           << hkv << ", " << skv << "] to match 'key', got ["
           << v.getDimSize(1) << ", " << v.getDimSize(2) << "]";
  if (hkv == 0 || hq % hkv != 0)
    return emitOpError("expected query heads (")
           << hq << ") to be a multiple of key/value heads (" << hkv << ")";
  if (getCausal() && sq > skv)
    return emitOpError("expected Sq <= Skv with 'causal', got Sq = ")
           << sq << " and Skv = " << skv;
  SmallVector<int64_t> expected = {b, hq, sq, dv};
  if (o.getShape() != ArrayRef<int64_t>(expected)) {
    InFlightDiagnostic diag = emitOpError("expected result shape ");
    diag << shapeStr(expected) << " [B, Hq, Sq, Dv], got "
         << shapeStr(o.getShape());
    return diag;
  }
  if (auto s = getScale()) {
    float f = s->convertToFloat();
    if (!(f > 0.0f) || !std::isfinite(f))
      return emitOpError("expected 'scale' > 0 and finite, got ") << f;
  }
  return success();
}
