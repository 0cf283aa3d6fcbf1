//===- Float8.h - 8-bit floats widened by bit manipulation --*- C++ -*-===//
//
// The FMA matmul kernel multiplies 8-bit float operands in f32 on every
// target, including chips whose instructions take no 8-bit floats (sm_80,
// gfx90a, gfx11) or another format than the operands' (the FMA path is the
// correct fallback). `arith.extf` from an 8-bit float has no lowering to
// LLVM there (ArithToAMDGPU covers gfx942 / gfx950 / gfx12 only), so the
// kernel decodes the bits itself.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_FLOAT8_H
#define HKG_LIB_CONVERSION_HKGTOGPU_FLOAT8_H

#include "mlir/IR/Builders.h"

namespace mlir::hkg {

/// Widens `v` (a scalar or vector of f8E4M3FN, f8E5M2, f8E4M3FNUZ or
/// f8E5M2FNUZ) to f32 exactly: the fields moved into an f16's, widened and
/// scaled by a power of two (f8E5M2FNUZ, whose largest exponent is f16's
/// all-ones: into f32's fields, subnormals as mantissa x 2^(1 - bias -
/// mantissa bits)), and each format's infinities (f8E5M2) and NaNs
/// (f8E4M3FN: S.1111.111; FNUZ: 0x80; f8E5M2: IEEE).
Value extendFloat8ToF32(OpBuilder &b, Location loc, Value v);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_FLOAT8_H
