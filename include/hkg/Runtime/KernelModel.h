//===- KernelModel.h - what the runtime knows about one op ---*- C++ -*-===//
//
// The runtime reaches an hkg op only through its KernelModel: the float64
// reference of its results, how its random inputs are drawn, how its
// outputs are checked, and how its floor is computed. Each op family fills
// the models of its ops in its own file (lib/Runtime/Models/); the table
// from op classes to models is built from lib/Runtime/KernelModels.def, one
// line per op:
//
//   HKG_KERNEL_MODEL(TopKOp, getTopKModel)
//
// where `const KernelModel &getTopKModel()` is defined by the family.
// Reference.cpp, RandomInputs.cpp, Check.cpp and KernelRunner.cpp hold only
// the generic code around these hooks.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_KERNELMODEL_H
#define HKG_RUNTIME_KERNELMODEL_H

#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/HostTensor.h"
#include "hkg/Runtime/Reference.h"

#include "mlir/Support/TypeID.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>

namespace mlir {
class Operation;
} // namespace mlir

namespace hkg::rt {

/// How the random input of one operand is drawn.
struct InputRange {
  enum class Kind { Uniform, Normal, Custom };

  /// Uniform in [lo, hi).
  static InputRange uniform(double lo, double hi) {
    return {Kind::Uniform, lo, hi, {}};
  }
  /// Normal with `mean` and `stddev`.
  static InputRange normal(double mean, double stddev) {
    return {Kind::Normal, mean, stddev, {}};
  }
  /// Filled by `fill` (e.g. real RoPE tables), not drawn at random.
  static InputRange custom(std::function<void(HostTensor &)> fill) {
    return {Kind::Custom, 0, 0, std::move(fill)};
  }

  Kind kind = Kind::Uniform;
  /// Uniform: the bounds; normal: the mean and the standard deviation.
  double a = -1.0, b = 1.0;
  std::function<void(HostTensor &)> fill;
};

/// What a custom check sees.
struct CheckContext {
  mlir::Operation *op;
  /// One tensor per operand, in operand order.
  llvm::ArrayRef<HostTensor> inputs;
  /// The device's outputs, one per result, in result order.
  llvm::ArrayRef<HostTensor> outputs;
  /// The reference, or null when the model's check does not use it
  /// (KernelModel::checkUsesReference).
  const ReferenceResult *reference;
  /// The tolerance of each output (getOpTolerance).
  llvm::ArrayRef<Tolerance> tolerances;
};

/// The runtime's hooks for one op class. Every hook receives the op as an
/// `Operation *` of that class.
struct KernelModel {
  using ReferenceFn = std::function<llvm::Expected<ReferenceResult>(
      mlir::Operation *, llvm::ArrayRef<HostTensor> inputs,
      const ReferenceOptions &)>;
  using InputsFn = std::function<llvm::Error(
      mlir::Operation *, llvm::MutableArrayRef<InputRange> ranges)>;
  using CheckFn = std::function<CheckResult(const CheckContext &)>;
  using ToleranceFn = std::function<void(
      mlir::Operation *, unsigned resultIndex, Tolerance &tolerance)>;

  /// The float64 reference: one expected tensor per result. Null when the
  /// op has none (then `check` must be set and must not use it).
  ReferenceFn reference;
  /// Adjusts the input ranges, one per operand, each uniform [-1, 1) on
  /// entry. Null: every operand uniform [-1, 1).
  InputsFn inputs;
  /// A custom verification of all outputs. Null: every output is compared
  /// with its reference under its tolerance (compareOutputs).
  CheckFn check;
  /// Whether the runner evaluates the reference before calling `check`.
  bool checkUsesReference = true;
  /// Adjusts the default tolerance of one result's dtype. Null: the
  /// default.
  ToleranceFn tolerance;
  /// Whether the op's floor uses the matrix-core (bf16) peak when its first
  /// operand is not f32; otherwise the f32 peak.
  bool usesMatrixCorePeak = false;
};

/// The model of `op`'s class, or null when none is registered (or `op` is
/// not a registered op).
const KernelModel *lookupKernelModel(mlir::Operation *op);
/// The model of the op class `opClass` (an op's TypeID), or null.
const KernelModel *lookupKernelModel(mlir::TypeID opClass);

/// The model of `op`'s class, or an error naming the op
/// ("no runtime model for 'hkg.foo' (lib/Runtime/KernelModels.def)").
llvm::Expected<const KernelModel &> getKernelModel(mlir::Operation *op);

} // namespace hkg::rt

#endif // HKG_RUNTIME_KERNELMODEL_H
