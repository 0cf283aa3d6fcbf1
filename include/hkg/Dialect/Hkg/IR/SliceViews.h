//===- SliceViews.h - kernel operands read through slice views --*- C++ -*-===//
//
// A kernel op may read an operand as a static slice of a larger tensor:
// tensor.extract_slice ops (static offsets and sizes, unit strides), with
// tensor.expand_shape / collapse_shape before or after them, between the
// tensor a kernel is given (the view's root: a function argument or a
// kernel op's result) and the operand. Such a chain is a view, not a
// computation: the kernel takes the root's whole buffer as its parameter and
// re-views it inside (docs/ABI.md, "Slice views"); no copy is made.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SLICEVIEWS_H
#define HKG_DIALECT_HKG_IR_SLICEVIEWS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>

namespace mlir::hkg {

/// Whether `op` is a view op: tensor.extract_slice, tensor.expand_shape or
/// tensor.collapse_shape.
bool isTensorViewOp(Operation *op);

/// The view ops between a value and its root, root first.
struct SliceView {
  /// The first value above the chain that no view op defines.
  Value root;
  /// From the root's reader to the value's definer.
  SmallVector<Operation *> ops;
};

/// The chain of view ops above `value` when it holds a
/// tensor.extract_slice; std::nullopt for a value no view op defines, or one
/// defined by reshapes only (the same bytes under another shape, which the
/// launch plan keeps as views).
std::optional<SliceView> getSliceView(Value value);

/// Whether `view`'s ops and root are static: static shapes, static offsets
/// and sizes, unit strides.
bool isStaticSliceView(const SliceView &view);

/// Checks that `op` is a slice hkg kernels read in place: static offsets and
/// sizes, unit strides, static shapes; read (directly or through further
/// view ops) by hkg kernel ops only; its root a function argument or an hkg
/// kernel op's result. On failure `why` says what is not so.
LogicalResult checkSliceView(tensor::ExtractSliceOp op, std::string &why);

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SLICEVIEWS_H
