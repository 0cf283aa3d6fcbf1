//===- Check.h - comparing kernel outputs against references ----*- C++ -*-===//
//
// How a kernel's outputs are judged (docs/Runtime.md has the rationale):
//  - outputs are poisoned with a NaN bit pattern before the launch; an
//    element still holding it afterwards was never written: failure;
//  - any NaN in an output is a failure, whatever the reference says;
//  - the norm-wise relative error ||out - ref|| / ||ref|| must be within the
//    dtype's `normRel`, and every element within
//    `elemRel * |ref| + elemAbs * rms(ref)`.
// An op's KernelModel may adjust the tolerance or replace the comparison
// with a check of its own (top-p membership, top-k indices...).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_CHECK_H
#define HKG_RUNTIME_CHECK_H

#include "hkg/Runtime/HostTensor.h"
#include "hkg/Runtime/Reference.h"

#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace hkg::rt {

struct KernelModel;

struct Tolerance {
  /// Bound on ||out - ref||_2 / ||ref||_2.
  double normRel;
  /// Per-element bound: |out - ref| <= elemRel * |ref| + elemAbs * rms(ref)
  /// (+ elemScaled * errorScale[i] where the reference gives error scales).
  double elemRel;
  double elemAbs;
  /// Multiplies the reference's per-element error scale (ExpectedOutput::
  /// errorScale), e.g. attention's sum_j p_ij |v_jc|: 0 = not used.
  double elemScaled = 0;
};

/// The default tolerance for outputs of `type` (exact for i32 and i64).
Tolerance getDefaultTolerance(DType type);

/// The tolerance of result `resultIndex` of `op`, of `type`: the default,
/// adjusted by the op's KernelModel (KernelModel::tolerance).
Tolerance getOpTolerance(mlir::Operation *op, DType type,
                         unsigned resultIndex = 0);
Tolerance getOpTolerance(const KernelModel &model, mlir::Operation *op,
                         DType type, unsigned resultIndex = 0);

/// The NaN bit pattern outputs are poisoned with (for i32: 0x7fbadbad, an
/// impossible token id; for i64: 0x7fbadbad7fbadbad).
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
  /// For an op with several results: each output's own result (the fields
  /// above then combine them, see combineOutputChecks). Empty otherwise.
  std::vector<CheckResult> outputs;
};

/// Compares `actual` (one device output) with `expected`.
CheckResult compareTensors(const HostTensor &actual,
                           const ExpectedOutput &expected,
                           const Tolerance &tolerance);

/// One result from the results of each output: the counts summed, the
/// errors their maximum, the messages of the failing outputs prefixed with
/// "output #i: ". A single output's result is returned as it is; several
/// are kept in CheckResult::outputs.
CheckResult combineOutputChecks(std::vector<CheckResult> perOutput);

/// The default check: compares every output with its expected tensor under
/// its tolerance (one each) and combines the results.
CheckResult compareOutputs(llvm::ArrayRef<HostTensor> outputs,
                           const ReferenceResult &expected,
                           llvm::ArrayRef<Tolerance> tolerances);

/// Judges the device `outputs` of `op` (one per result) through the op's
/// KernelModel: its custom check, or compareOutputs against `reference`
/// (which must then be set). An op without a model is an error.
llvm::Expected<CheckResult>
checkKernelOutputs(mlir::Operation *op, llvm::ArrayRef<HostTensor> inputs,
                   llvm::ArrayRef<HostTensor> outputs,
                   const ReferenceResult *reference);
llvm::Expected<CheckResult>
checkKernelOutputs(const KernelModel &model, mlir::Operation *op,
                   llvm::ArrayRef<HostTensor> inputs,
                   llvm::ArrayRef<HostTensor> outputs,
                   const ReferenceResult *reference);

/// `[1, 2, 3]`: the multi-index of flat element `index`.
std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t index);

} // namespace hkg::rt

#endif // HKG_RUNTIME_CHECK_H
