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

AttentionLayout AttentionOp::getLayoutOrDefault() {
  return getLayout().value_or(AttentionLayout::Bhsd);
}

unsigned AttentionOp::getHeadsPosition(AttentionLayout layout) {
  return layout == AttentionLayout::Bshd ? 2 : 1;
}

unsigned AttentionOp::getSeqPosition(AttentionLayout layout) {
  return layout == AttentionLayout::Bshd ? 1 : 2;
}

AttentionOp::Shape AttentionOp::getShape() {
  AttentionLayout layout = getLayoutOrDefault();
  unsigned hPos = getHeadsPosition(layout), sPos = getSeqPosition(layout);
  ArrayRef<int64_t> q = shapeOf(getQuery()), k = shapeOf(getKey()),
                    v = shapeOf(getValue());
  return {q[0], q[hPos], k[hPos], q[sPos], k[sPos], q[3], v[3]};
}

float AttentionOp::getEffectiveScale() {
  if (auto s = getScale())
    return s->convertToFloat();
  // D is the last dim in every layout.
  return 1.0f / std::sqrt(static_cast<float>(
                    getQuery().getType().getShape().back()));
}

/// The dim order of `layout`, as the diagnostics name it: of any operand, or
/// with `qv` of the result (the query's heads and length, Dv).
static StringRef dimOrder(AttentionLayout layout, bool qv = false) {
  if (layout == AttentionLayout::Bshd)
    return qv ? "[B, Sq, Hq, Dv]" : "[B, S, H, D]";
  return qv ? "[B, Hq, Sq, Dv]" : "[B, H, S, D]";
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyKernelShapes(*this)))
    return failure();
  AttentionLayout layout = getLayoutOrDefault();
  auto q = getQuery().getType(), k = getKey().getType(),
       v = getValue().getType(), o = getResult().getType();
  for (auto [name, t] : {std::pair<StringRef, RankedTensorType>{"query", q},
                         {"key", k},
                         {"value", v},
                         {"result", o}})
    if (t.getRank() != 4)
      return emitOpError("expected '")
             << name << "' of rank 4 " << dimOrder(layout) << ", got rank "
             << t.getRank();
  if (q.getElementType() != k.getElementType() ||
      q.getElementType() != v.getElementType())
    return emitOpError("expected 'query', 'key' and 'value' of one element "
                       "type, got ")
           << q.getElementType() << ", " << k.getElementType() << " and "
           << v.getElementType();
  unsigned hPos = getHeadsPosition(layout), sPos = getSeqPosition(layout);
  int64_t b = q.getDimSize(0), hq = q.getDimSize(hPos), sq = q.getDimSize(sPos),
          d = q.getDimSize(3);
  int64_t hkv = k.getDimSize(hPos), skv = k.getDimSize(sPos),
          dv = v.getDimSize(3);
  if (k.getDimSize(0) != b || v.getDimSize(0) != b)
    return emitOpError("expected one batch size B = ")
           << b << ", got " << k.getDimSize(0) << " for 'key' and "
           << v.getDimSize(0) << " for 'value'";
  if (k.getDimSize(3) != d)
    return emitOpError("expected 'key' head dim to equal 'query' head dim ")
           << d << ", got " << k.getDimSize(3);
  if (v.getDimSize(hPos) != hkv || v.getDimSize(sPos) != skv)
    return emitOpError("expected 'value' heads and length [")
           << hkv << ", " << skv << "] to match 'key', got ["
           << v.getDimSize(hPos) << ", " << v.getDimSize(sPos) << "]";
  if (hkv == 0 || hq % hkv != 0)
    return emitOpError("expected query heads (")
           << hq << ") to be a multiple of key/value heads (" << hkv << ")";
  if (getCausal() && sq > skv)
    return emitOpError("expected Sq <= Skv with 'causal', got Sq = ")
           << sq << " and Skv = " << skv;
  SmallVector<int64_t> expected = {b, 0, 0, dv};
  expected[hPos] = hq;
  expected[sPos] = sq;
  if (o.getShape() != ArrayRef<int64_t>(expected)) {
    InFlightDiagnostic diag = emitOpError("expected result shape ");
    diag << shapeStr(expected) << " " << dimOrder(layout, /*qv=*/true)
         << ", got " << shapeStr(o.getShape());
    return diag;
  }
  if (Value mask = getMask()) {
    auto m = cast<RankedTensorType>(mask.getType());
    SmallVector<int64_t> full = {b, hq, sq, skv};
    if (m.getRank() != 4)
      return emitOpError("expected 'mask' of rank 4 [B, Hq, Sq, Skv] (any "
                         "dim 1 to broadcast), got rank ")
             << m.getRank();
    static constexpr StringLiteral names[] = {"B", "Hq", "Sq", "Skv"};
    for (auto [i, name] : llvm::enumerate(names))
      if (m.getDimSize(i) != full[i] && m.getDimSize(i) != 1)
        return emitOpError("expected 'mask' dim ")
               << i << " (" << name << ") to be " << full[i]
               << " or 1 to broadcast, got " << m.getDimSize(i)
               << " (the mask is [B, Hq, Sq, Skv] = " << shapeStr(full)
               << " in every layout)";
  }
  if (auto s = getScale()) {
    float f = s->convertToFloat();
    if (!(f > 0.0f) || !std::isfinite(f))
      return emitOpError("expected 'scale' > 0 and finite, got ") << f;
  }
  return success();
}
