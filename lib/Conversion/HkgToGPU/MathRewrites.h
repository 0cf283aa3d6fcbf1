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

/// Divisions in a kernel whose results are 16-bit floats (the caller's
/// test: a matmul epilogue, e.g. SiLU's 1 / (1 + exp(-x)), GELU's
/// x / sqrt(2)): each `arith.divf` (f32, or bf16 / f16 computed in f32)
/// becomes the f32 division marked `afn` (sm_90: div.approx.f32, two
/// instructions against div.rn's ten and a slow path; AMD: v_rcp_f32 and a
/// multiply). Each quotient gains a relative error of at most 2 ulp of f32
/// (2^-22), far below the 2^-9 (bf16) or 2^-12 (f16) of the result's own
/// rounding. Where the quotient is rounded next, or reaches the rounding
/// through multiplies, the 16-bit result moves by at most one unit, and
/// only where the exact value lies within that error of a rounding
/// boundary; where it goes on through other math (GELU's erf, whose slope
/// is at most 1.13), the perturbation is scaled by that math's condition
/// number, which the rewrite does not bound. Divisors in (2^126, 2^128)
/// give 0 whatever the dividend (x / y with both near 1e38 gives 0, not 1;
/// an infinite dividend gives NaN); SiLU at x in (-88.7, -87.3) gives -0
/// where the exact result is about -1e-36.
void applyHalfResultDivisionRewrites(Operation *root);

} // namespace mlir::hkg

#endif // HKG_CONVERSION_HKGTOGPU_MATHREWRITES_H
