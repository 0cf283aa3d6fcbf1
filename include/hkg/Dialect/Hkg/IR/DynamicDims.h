//===- DynamicDims.h - dynamic dims of kernel ops ---------------*- C++ -*-===//
//
// Kernel ops may have dynamic dims (`?`) where their interface allows them
// (HkgKernelOpInterface::getDynamicResultDims: batch, row and sequence
// dims). One kernel then serves every size: the result's dynamic dims are
// the kernel's size parameters (docs/ABI.md), read at launch from the
// operand dims that equal them (getResultDimsOfOperand). Where a schedule
// is chosen, sized or costed, a dynamic dim counts as the op's size hint.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_DYNAMICDIMS_H
#define HKG_DIALECT_HKG_IR_DYNAMICDIMS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::hkg {

class HkgKernelOpInterface;

/// The extent a dynamic dim is assumed to have where nothing says more
/// (`hkg.size_hint` on the op does): a few thousand rows or tokens, the
/// size of a prefill batch.
inline constexpr int64_t kDefaultSizeHint = 4096;

/// The op's `hkg.size_hint`, or kDefaultSizeHint.
int64_t getSizeHint(Operation *op);

/// `shape` with each dynamic dim replaced by `op`'s size hint.
SmallVector<int64_t> getHintedShape(Operation *op, ArrayRef<int64_t> shape);

/// The elements of the shaped type `type`, dynamic dims counted as `op`'s
/// size hint.
int64_t getHintedNumElements(Operation *op, Type type);

/// Whether an operand or result of `op` has a dynamic dim.
bool hasDynamicDims(Operation *op);

/// Where a dynamic result dim is read from at launch: dim `dim` of operand
/// `operand`.
struct SizeSource {
  unsigned resultDim;
  unsigned operand;
  unsigned dim;
};

/// The op's size parameters: its result's dynamic dims in order, each with
/// the first operand dim that equals it. Precondition: the op verified.
SmallVector<SizeSource> getSizeSources(HkgKernelOpInterface op);

/// For operand `operand` of `op`, per dim: the index of the size parameter
/// the dim is (in getSizeSources order), or -1 for a static dim.
SmallVector<int64_t> getOperandSizeParams(HkgKernelOpInterface op,
                                          unsigned operand);

/// The same for the result.
SmallVector<int64_t> getResultSizeParams(HkgKernelOpInterface op);

namespace detail {
/// Checks the dynamic dims of a verified-so-far kernel op: only result
/// dims the op allows are dynamic; a dynamic operand dim equals a dynamic
/// result dim (and an operand dim equal to a dynamic result dim is
/// dynamic); every dynamic result dim has an operand dim to read it from.
LogicalResult verifyDynamicDims(HkgKernelOpInterface op);
} // namespace detail

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_DYNAMICDIMS_H
