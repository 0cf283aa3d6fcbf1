//===- Reference.h - host reference implementations of hkg ops -*- C++ -*-===//
//
// Every hkg kernel op has a straightforward C++ reference, accumulating in
// double, in its family's file (lib/Runtime/Models/) and reached through its
// KernelModel. A reference takes the parsed op (usually the `source` module
// of a bundle manifest: one func holding one hkg op) and host tensors for its
// operands, in operand order, and returns one expected tensor per result (f64,
// or the result's integer dtype, e.g. i32 for top_p_sample). Element bodies
// and matmul epilogues run through the ScalarInterpreter.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_REFERENCE_H
#define HKG_RUNTIME_REFERENCE_H

#include "hkg/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
class Operation;
} // namespace mlir

namespace hkg::rt {

/// Registers the dialects a `source` module may use (hkg, func, arith, math,
/// tensor).
void registerReferenceDialects(mlir::DialectRegistry &registry);

/// Parses a manifest `source` module.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseSourceModule(llvm::StringRef source, mlir::MLIRContext &context);

/// Returns the one hkg kernel op of `module` (error if none or several).
llvm::Expected<mlir::Operation *> findKernelOp(mlir::ModuleOp module);

/// The type of kernel input #i of `op`: operand #i's, or where the operand
/// is a slice view (hkg/Dialect/Hkg/IR/SliceViews.h: tensor.extract_slice,
/// expand_shape and collapse_shape ops from a function argument) its root's,
/// the whole tensor the kernel is given (docs/ABI.md, "Slice views").
mlir::ShapedType getKernelInputType(mlir::Operation *op, unsigned i);

/// Evaluates a view op (tensor.extract_slice of static offsets, sizes and
/// unit strides, possibly rank-reducing; tensor.expand_shape,
/// tensor.collapse_shape) on `source`, the tensor it reads: a new tensor of
/// the op's result shape.
llvm::Expected<HostTensor> evaluateViewOp(mlir::Operation *op,
                                          const HostTensor &source);

/// The operands of `op` from its kernel inputs (one per operand, each of
/// getKernelInputType): an input as it is, or viewed by the operand's view
/// ops.
llvm::Expected<llvm::SmallVector<HostTensor>>
evaluateOperands(mlir::Operation *op, llvm::ArrayRef<HostTensor> inputs);

struct KernelModel;

struct ReferenceOptions {
  /// For matmul and attention, whose reference costs far more than the
  /// output size: an upper bound on multiply-adds. When the full reference
  /// would exceed it, only a subset of output rows is computed (evenly
  /// spread, first and last included) and the others are left unchecked.
  /// 0 means no bound.
  double maxMultiplyAdds = 0;
};

/// The expected value of one result of an op.
struct ExpectedOutput {
  /// f64 for a floating-point result; an integer dtype (i32, i64) for an
  /// integer one.
  HostTensor tensor;
  /// Which elements were computed; empty when all were.
  std::vector<bool> computed;
  /// Per-element scale of the error a correct kernel may make (attention:
  /// sum_j p_ij |v_jc|, see Tolerance::elemScaled); empty when the op has
  /// none.
  std::vector<double> errorScale;

  bool isComputed(int64_t i) const { return computed.empty() || computed[i]; }
};

struct ReferenceResult {
  /// One per result of the op, in result order.
  llvm::SmallVector<ExpectedOutput, 1> outputs;
};

/// Evaluates `op` on `inputs` (one per operand, in operand order, shapes as
/// the op's operand types) through the reference of its KernelModel. An op
/// without a model or without a reference is an error naming it.
llvm::Expected<ReferenceResult>
evaluateReference(mlir::Operation *op, llvm::ArrayRef<HostTensor> inputs,
                  const ReferenceOptions &options = {});

/// The same through `model` (which need not be registered): checks the
/// inputs against the operands and the reference's outputs against the
/// results (count and shape).
llvm::Expected<ReferenceResult>
evaluateReference(const KernelModel &model, mlir::Operation *op,
                  llvm::ArrayRef<HostTensor> inputs,
                  const ReferenceOptions &options = {});

} // namespace hkg::rt

#endif // HKG_RUNTIME_REFERENCE_H
