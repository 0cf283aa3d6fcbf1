//===- HkgOps.cpp - hkg op verifiers and helpers --------------------------===//
//
// Shape, rank, element-type and attribute-range rules of every hkg op. Each
// diagnostic names the operand or attribute at fault and what was expected.
// Schedules are checked against a target by hkg-verify-schedule, not here.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "VerifyUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isSuffix(ArrayRef<int64_t> suffix, ArrayRef<int64_t> shape) {
  return suffix.size() <= shape.size() &&
         suffix == shape.take_back(suffix.size());
}

static Type elementTypeOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// Checks that every op of `body` but its `hkg.yield` is a pure scalar op a
/// kernel body may contain. Runs before the block itself is verified, so the
/// block may be empty or lack a terminator.
static LogicalResult verifyScalarBody(Operation *parent, Block &body) {
  for (Operation &op : body) {
    if (isa<YieldOp>(op))
      continue;
    Dialect *d = op.getDialect();
    if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(d))
      return parent->emitOpError("expected only arith and math ops in the "
                                 "body, got '")
             << op.getName() << "'";
    for (Type t : op.getResultTypes())
      if (!t.isIntOrIndexOrFloat())
        return parent->emitOpError("expected scalar values in the body, got ")
               << t << " from '" << op.getName() << "'";
  }
  return success();
}

/// Checks the terminator of a scalar region yields one `expected` value.
static LogicalResult verifyYieldsElement(Operation *parent, Block &body,
                                         Type expected, StringRef what) {
  // Not Block::getTerminator(): the parent verifies before its blocks, and
  // an empty block has no terminator to return.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return parent->emitOpError("expected the ")
           << what << " to end with 'hkg.yield'";
  if (yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != expected)
    return parent->emitOpError("expected the ")
           << what << " to yield one value of the result element type "
           << expected << ", got " << yield.getValues().getTypes();
  return success();
}

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
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  if (getValues().size() != 1)
    return emitOpError("expected exactly one yielded value, got ")
           << getValues().size();
  return success();
}

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

LogicalResult MatmulOp::verify() {
  if (failed(verifyStaticShapes(*this)))
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
    return success();
  }
  for (auto [i, in] : llvm::enumerate(getEpilogueInputs())) {
    if (!isSuffix(shapeOf(in), o)) {
      InFlightDiagnostic diag = emitOpError("expected epilogue operand #");
      diag << i << " of shape " << shapeStr(shapeOf(in))
           << " to be a suffix of the result shape " << shapeStr(o);
      return diag;
    }
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

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

LogicalResult ElementwiseOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  ArrayRef<int64_t> out = getResult().getType().getShape();
  for (auto [i, in] : llvm::enumerate(getInputs())) {
    if (!isSuffix(shapeOf(in), out)) {
      InFlightDiagnostic diag = emitOpError("expected input #");
      diag << i << " of shape " << shapeStr(shapeOf(in))
           << " to be a suffix of the result shape " << shapeStr(out);
      return diag;
    }
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("expected the body to have one argument per input (")
           << getInputs().size() << "), got " << body.getNumArguments();
  for (auto [i, in] : llvm::enumerate(getInputs()))
    if (body.getArgument(i).getType() != elementTypeOf(in))
      return emitOpError("expected body argument #")
             << i << " to be " << elementTypeOf(in)
             << " (the element type of input #" << i << "), got "
             << body.getArgument(i).getType();
  if (failed(verifyScalarBody(*this, body)))
    return failure();
  return verifyYieldsElement(*this, body,
                             getResult().getType().getElementType(), "body");
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

//===----------------------------------------------------------------------===//
// RopeOp
//===----------------------------------------------------------------------===//

LogicalResult RopeOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto in = getInput().getType();
  if (in.getRank() != 4)
    return emitOpError("expected 'input' of rank 4 [B, S, H, D], got rank ")
           << in.getRank();
  int64_t s = in.getDimSize(1), d = in.getDimSize(3);
  if (d % 2 != 0)
    return emitOpError("expected the head dim D to be even, got ") << d;
  if (getCos().getType() != getSin().getType())
    return emitOpError("expected 'cos' and 'sin' of the same type, got ")
           << getCos().getType() << " and " << getSin().getType();
  auto tab = getCos().getType();
  int64_t need = s + getOffset();
  if (tab.getRank() != 2 || tab.getDimSize(1) != d / 2 ||
      tab.getDimSize(0) < need) {
    InFlightDiagnostic diag = emitOpError("expected 'cos' and 'sin' of shape "
                                          "[P, ");
    diag << d / 2 << "] with P >= S + offset = " << need << ", got "
         << shapeStr(tab.getShape());
    return diag;
  }
  if (in != getResult().getType())
    return emitOpError("expected the result type to equal the input type ")
           << in << ", got " << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// TopPSampleOp
//===----------------------------------------------------------------------===//

LogicalResult TopPSampleOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  auto logits = getLogits().getType();
  if (logits.getRank() != 2)
    return emitOpError("expected 'logits' of rank 2 [B, V], got rank ")
           << logits.getRank();
  int64_t b = logits.getDimSize(0);
  float p = getP().convertToFloat();
  if (!(p > 0.0f && p <= 1.0f))
    return emitOpError("expected 'p' in (0, 1], got ") << p;
  float t = getTemperature().convertToFloat();
  if (!(t > 0.0f) || !std::isfinite(t))
    return emitOpError("expected 'temperature' > 0 and finite, got ") << t;
  bool hasSeed = getSeed().has_value(), hasUniform = bool(getUniform());
  if (hasSeed == hasUniform)
    return emitOpError("expected exactly one of 'seed' and 'uniform', got ")
           << (hasSeed ? "both" : "neither");
  if (hasUniform) {
    auto u = cast<RankedTensorType>(getUniform().getType());
    if (u.getRank() != 1 || u.getDimSize(0) != b ||
        !u.getElementType().isF32())
      return emitOpError("expected 'uniform' of type tensor<")
             << b << "xf32>, got " << u;
  }
  auto res = getResult().getType();
  if (res.getRank() != 1 || res.getDimSize(0) != b)
    return emitOpError("expected the result of type tensor<")
           << b << "xi32>, got " << res;
  return success();
}

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
  if (failed(verifyStaticShapes(*this)))
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

#define GET_OP_CLASSES
#include "hkg/Dialect/Hkg/IR/HkgOps.cpp.inc"
