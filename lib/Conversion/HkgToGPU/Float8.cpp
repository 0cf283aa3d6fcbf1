//===- Float8.cpp - 8-bit floats widened with integer operations ----------===//
//
// See Float8.h.
//
//===----------------------------------------------------------------------===//

#include "Float8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;

Value mlir::hkg::extendFloat8ToF32(OpBuilder &b, Location loc, Value v) {
  Type elem = getElementTypeOrSelf(v.getType());
  auto vecType = dyn_cast<VectorType>(v.getType());
  auto like = [&](Type scalar) -> Type {
    return vecType ? Type(VectorType::get(vecType.getShape(), scalar)) : scalar;
  };
  Type i8 = like(b.getI8Type()), i32 = like(b.getI32Type()),
       f32 = like(b.getF32Type());
  auto cst = [&](int64_t x) -> Value {
    TypedAttr attr = b.getI32IntegerAttr(x);
    if (vecType)
      attr = SplatElementsAttr::get(cast<ShapedType>(i32), attr);
    return arith::ConstantOp::create(b, loc, i32, attr);
  };
  auto eq = [&](Value x, int64_t y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, cst(y));
  };
  auto andI = [&](Value x, int64_t y) {
    return arith::AndIOp::create(b, loc, x, cst(y));
  };
  auto orI = [&](Value x, Value y) {
    return arith::OrIOp::create(b, loc, x, y);
  };
  auto shl = [&](Value x, int64_t y) {
    return arith::ShLIOp::create(b, loc, x, cst(y));
  };
  auto shr = [&](Value x, int64_t y) {
    return arith::ShRUIOp::create(b, loc, x, cst(y));
  };
  auto select = [&](Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  };

  int64_t mantBits = 0, bias = 0;
  bool fnuz = false, ieee = false;
  if (isa<Float8E4M3FNType>(elem)) {
    mantBits = 3, bias = 7;
  } else if (isa<Float8E5M2Type>(elem)) {
    mantBits = 2, bias = 15, ieee = true;
  } else if (isa<Float8E4M3FNUZType>(elem)) {
    mantBits = 3, bias = 8, fnuz = true;
  } else {
    assert(isa<Float8E5M2FNUZType>(elem) && "expected an 8-bit float");
    mantBits = 2, bias = 16, fnuz = true;
  }
  int64_t expMask = (1 << (7 - mantBits)) - 1;

  Value bits = arith::ExtUIOp::create(b, loc, i32,
                                      arith::BitcastOp::create(b, loc, i8, v));
  // Every format but f8E5M2FNUZ: its fields moved into an f16's (the same
  // mantissa bits at the top, the exponent field at bit 10, the sign at 15)
  // make an f16 of value x 2^(bias - 15) whose exponent field never reaches
  // f16's all-ones unless the format's does (f8E5M2: f16's bias, its
  // infinities and NaNs); f16 subnormals cover the format's. Widened to
  // f32 (exact) and scaled by 2^(15 - bias) (exact): 6 instructions.
  if (!(fnuz && mantBits == 2)) {
    Type i16 = like(b.getI16Type()), f16 = like(b.getF16Type());
    Value half =
        orI(shl(andI(bits, 0x7f), 10 - mantBits), shl(andI(bits, 0x80), 8));
    Value h = arith::BitcastOp::create(
        b, loc, f16, arith::TruncIOp::create(b, loc, i16, half));
    Value x = arith::ExtFOp::create(b, loc, f32, h);
    if (bias != 15) {
      TypedAttr sAttr = b.getF32FloatAttr(std::ldexp(1.0f, 15 - bias));
      if (vecType)
        sAttr = SplatElementsAttr::get(cast<ShapedType>(f32), sAttr);
      x = arith::MulFOp::create(b, loc, x,
                                arith::ConstantOp::create(b, loc, f32, sAttr));
    }
    if (ieee)
      return x;
    Value isNaN = fnuz ? eq(bits, 0x80) : eq(andI(bits, 0x7f), 0x7f);
    return select(isNaN, arith::BitcastOp::create(b, loc, f32, cst(0x7fc00000)),
                  x);
  }
  Value sign = shl(shr(bits, 7), 31);
  Value exp = andI(shr(bits, mantBits), expMask);
  Value mant = andI(bits, (1 << mantBits) - 1);
  // Normal: the fields moved into f32's (exponent rebiased). f8E5M2's
  // all-ones exponent (infinities, NaNs) maps to f32's.
  Value f32Exp = arith::AddIOp::create(b, loc, exp, cst(127 - bias));
  if (ieee)
    f32Exp = select(eq(exp, expMask), cst(255), f32Exp);
  Value normal = orI(orI(sign, shl(f32Exp, 23)), shl(mant, 23 - mantBits));
  // Subnormal (and zero): mantissa x 2^(1 - bias - mantBits), exact in f32.
  Value mantF = arith::UIToFPOp::create(b, loc, f32, mant);
  TypedAttr scaleAttr =
      b.getF32FloatAttr(std::ldexp(1.0f, 1 - bias - mantBits));
  if (vecType)
    scaleAttr = SplatElementsAttr::get(cast<ShapedType>(f32), scaleAttr);
  Value scale = arith::ConstantOp::create(b, loc, f32, scaleAttr);
  Value subMag = arith::BitcastOp::create(
      b, loc, i32, arith::MulFOp::create(b, loc, mantF, scale));
  Value result = select(eq(exp, 0), orI(sign, subMag), normal);
  // NaN encodings other than f8E5M2's (mapped above).
  Value nan = cst(0x7fc00000);
  if (fnuz)
    result = select(eq(bits, 0x80), nan, result);
  else if (!ieee)
    result = select(eq(andI(bits, 0x7f), 0x7f), nan, result);
  return arith::BitcastOp::create(b, loc, f32, result);
}
