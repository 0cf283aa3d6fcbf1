//===- ModelUtils.h - numeric helpers shared by the op models ---*- C++ -*-===//
//
// What several families' references need: element access in double, a
// parallel loop over independent rows, the row subset that bounds the cost
// of matmul and attention references, and result construction.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_RUNTIME_MODELS_MODELUTILS_H
#define HKG_LIB_RUNTIME_MODELS_MODELUTILS_H

#include "hkg/Runtime/HostTensor.h"
#include "hkg/Runtime/KernelModel.h"
#include "hkg/Runtime/Reference.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace hkg::rt::models {

inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Every element of `t`, converted to double.
std::vector<double> toDoubles(const HostTensor &t);

/// Runs `fn(i)` for i in [0, n) on LLVM's thread pool. References split
/// their work into independent rows, so they parallelize trivially.
void forEach(int64_t n, llvm::function_ref<void(int64_t)> fn);

/// The product of `dims` (1 when empty).
int64_t product(llvm::ArrayRef<int64_t> dims);

/// The static shape of a shaped value.
inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
  return mlir::cast<mlir::ShapedType>(v.getType()).getShape();
}

/// Rows to compute out of `numRows` when one row costs `rowCost`
/// multiply-adds: all, or an even spread (first and last included) under
/// ReferenceOptions::maxMultiplyAdds.
std::vector<int64_t> pickRows(int64_t numRows, double rowCost,
                              const ReferenceOptions &options);

/// A result holding one expected f64 tensor of `shape`.
ReferenceResult makeF64Result(llvm::ArrayRef<int64_t> shape);

/// Marks only `rows` (each `rowSize` elements) of `output` as computed;
/// nothing to mark when all `numRows` are.
void markRows(ExpectedOutput &output, llvm::ArrayRef<int64_t> rows,
              int64_t numRows, int64_t rowSize);

/// Wraps `fn(OpTy, inputs, options)` as a KernelModel::reference.
template <typename OpTy, typename F>
KernelModel::ReferenceFn referenceOf(F fn) {
  return [fn](mlir::Operation *op, llvm::ArrayRef<HostTensor> inputs,
              const ReferenceOptions &options) {
    return fn(mlir::cast<OpTy>(op), inputs, options);
  };
}

/// Wraps `fn(OpTy, ranges)` as a KernelModel::inputs.
template <typename OpTy, typename F> KernelModel::InputsFn inputsOf(F fn) {
  return [fn](mlir::Operation *op, llvm::MutableArrayRef<InputRange> ranges) {
    return fn(mlir::cast<OpTy>(op), ranges);
  };
}

} // namespace hkg::rt::models

#endif // HKG_LIB_RUNTIME_MODELS_MODELUTILS_H
