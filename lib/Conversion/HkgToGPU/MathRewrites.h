//===- MathRewrites.h - cheaper exact forms of activation math --*- C++ -*-===//
//
// Rewrites that hkg-lower-to-gpu applies to the elementwise kernels it emits,
// after the lowering has cloned the body into the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_CONVERSION_HKGTOGPU_MATHREWRITES_H
#define HKG_CONVERSION_HKGTOGPU_MATHREWRITES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::hkg {

/// `1 + tanh(y)` (f32, either operand order) becomes `2 / (1 + 2^(-2 log2(e)
/// y))`, the same function (1 + tanh(y) = 2 sigmoid(2 y)) without the
/// cancellation of `1 + tanh` near tanh = -1, in a few instructions: the
/// exp2 and the division are marked `afn` (sm_90: ex2.approx and
/// div.approx, against ~15 instructions for libdevice's tanhf; AMD:
/// v_exp_f32 and v_rcp_f32). This is the tanh form of GELU,
/// 0.5 x (1 + tanh(k (x + 0.044715 x^3))).
void populateActivationRewritePatterns(RewritePatternSet &patterns);

/// Applies those rewrites to the kernel `root` (a body cloned once per
/// element loaded: an elementwise kernel, a reduction's prologue).
void applyActivationRewrites(Operation *root);

/// Divisions whose quotient the kernel rounds to a 16-bit float: each
/// `arith.divf` (f32, or bf16 / f16 computed in f32) becomes the f32
/// division marked `afn` (sm_90: div.approx.f32, at most 2 ulp of f32, two
/// instructions against div.rn's ten and a slow path; AMD: v_rcp_f32 and a
/// multiply). The 2^-22 relative error it adds is far below the 2^-9
/// (bf16) or 2^-12 (f16) of the result's own rounding: the rounded result
/// differs only where the exact quotient lies within that error of a
/// rounding boundary, by one unit of the 16-bit type. Divisors above 2^126
/// give 0 (the exact quotient is below 2^-126 times the dividend). Only for
/// kernels whose results are 16-bit floats (the caller's test): a matmul
/// epilogue (SiLU's 1 / (1 + exp(-x)), GELU's x / sqrt(2)).
void applyHalfResultDivisionRewrites(Operation *root);

} // namespace mlir::hkg

#endif // HKG_CONVERSION_HKGTOGPU_MATHREWRITES_H
