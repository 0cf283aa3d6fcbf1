//===- Check.h - comparing kernel outputs against references -----*- C++
//-*-===//
//
// How a kernel's output is judged (docs/Runtime.md has the rationale):
//  - outputs are poisoned with a NaN bit pattern before the launch; an
//    element still holding it afterwards was never written: failure;
//  - any NaN in the output is a failure, whatever the reference says;
//  - the norm-wise relative error ||out - ref|| / ||ref|| must be within the
//    dtype's `normRel`, and every element within
//    `elemRel * |ref| + elemAbs * rms(ref)`.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_CHECK_H
#define HKG_RUNTIME_CHECK_H

#include "hkg/Runtime/HostTensor.h"
#include "hkg/Runtime/Reference.h"

#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hkg::rt {

struct Tolerance {
  /// Bound on ||out - ref||_2 / ||ref||_2.
  double normRel;
  /// Per-element bound: |out - ref| <= elemRel * |ref| + elemAbs * rms(ref)
  /// (+ elemScaled * errorScale[i] where the reference gives error scales).
  double elemRel;
  double elemAbs;
  /// Multiplies the reference's per-element error scale (ReferenceResult::
  /// errorScale), e.g. attention's sum_j p_ij |v_jc|: 0 = not used.
  double elemScaled = 0;
};

/// The default tolerance for outputs of `type` (exact for i32).
Tolerance getDefaultTolerance(DType type);

/// The tolerance of `op`'s output of `type`: the default, and for
/// hkg.attention also 2 u_in * errorScale, u_in the unit roundoff of the
/// operands' type (2^-8 bf16, 2^-11 f16, 2^-24 f32): the kernel rounds the
/// probabilities P to that type for the P V product (as FlashAttention and
/// PyTorch's SDPA do), which moves an output by up to u_in sum_j p_ij |v_jc|
/// -- an absolute error set by V's scale, not by the output's own (late
/// causal rows average thousands of keys and are small).
Tolerance getOpTolerance(mlir::Operation *op, DType type);

/// The NaN bit pattern outputs are poisoned with (for i32: 0x7fbadbad, an
/// impossible token id).
uint64_t getPoisonBits(DType type);
void poison(HostTensor &tensor);

struct CheckResult {
  bool passed = false;
  /// Elements compared against the reference.
  int64_t checked = 0;
  int64_t unwritten = 0;
  int64_t nans = 0;
  /// Elements outside the per-element bound.
  int64_t mismatched = 0;
  double normRelError = 0;
  double maxAbsError = 0;
  /// What failed (empty when passed), e.g. "3 element(s) never written
  /// (first at [0, 7])".
  std::string message;
};

/// Compares `actual` (the device output) with `expected`.
CheckResult compareTensors(const HostTensor &actual,
                           const ReferenceResult &expected,
                           const Tolerance &tolerance);

/// Checks the tokens of an `hkg.top_p_sample` against its inputs. With a
/// `uniform` operand each token must be the reference draw, or, when `u` lies
/// within `cdfTolerance` of a boundary of the nucleus CDF, the neighbouring
/// token the device's float32 CDF picked. With a seed, each token must lie in
/// the nucleus (or within `cdfTolerance` of its boundary).
CheckResult checkTopPSample(mlir::Operation *op,
                            llvm::ArrayRef<HostTensor> inputs,
                            const HostTensor &tokens,
                            double cdfTolerance = 1e-4);

/// `[1, 2, 3]`: the multi-index of flat element `index`.
std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t index);

} // namespace hkg::rt

#endif // HKG_RUNTIME_CHECK_H
