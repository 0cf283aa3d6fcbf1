//===- SliceViews.h - slice views inside kernels ----------------*- C++ -*-===//
//
// A kernel operand that is a slice view (hkg/Dialect/Hkg/IR/SliceViews.h)
// reaches the kernel as its root's whole buffer, an identity-layout
// parameter under the bare-pointer ABI; the kernel re-views it with
// memref.subview, memref.expand_shape and memref.collapse_shape, so that its
// family lowering gets, in `kc.args`, a memref of the operand's shape with a
// static strided layout. Which families read such memrefs is said per op in
// KernelLowerings.def through the predicates below.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_SLICEVIEWS_H
#define HKG_LIB_CONVERSION_HKGTOGPU_SLICEVIEWS_H

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::hkg {

/// The memref type that the view ops `ops` (SliceView::ops, static) make of
/// a buffer of type `root`: memref.subview, memref.expand_shape and
/// memref.collapse_shape types, static strided layouts. Fails where a
/// reshape of a strided memref is no view (it collapses dims that do not
/// follow each other in memory).
FailureOr<MemRefType> getSliceViewType(MemRefType root,
                                       ArrayRef<Operation *> ops);

/// Applies the view ops `ops` to the buffer `root` (getSliceViewType must
/// have succeeded) and returns the view.
Value buildSliceView(OpBuilder &b, Location loc, Value root,
                     ArrayRef<Operation *> ops);

/// The bytes, a power of two at most 16, that divide the view's start and
/// (with `strides`) the stride of each of its dims of extent above 1 but the
/// innermost, given a 16-byte aligned buffer: the alignment a kernel may
/// still assume for an access whose innermost index is a multiple of its
/// vector width (without `strides`: for an access at a multiple of its
/// width from the start).
int64_t getSliceViewAlignment(MemRefType view, bool strides = true);

//===----------------------------------------------------------------------===//
// Which slice views a family reads in place (KernelLowerings.def)
//===----------------------------------------------------------------------===//

/// None: the family reads identity layouts only.
bool takesNoSliceView(Operation *op, unsigned operand, MemRefType view);
/// Any (unit innermost stride): the family addresses its inputs through
/// their strides and derives the alignment of its vector accesses from
/// the layout (hkg.elementwise).
bool takesAnySliceView(Operation *op, unsigned operand, MemRefType view);
/// Those that keep the alignment of a dense buffer (getSliceViewAlignment
/// 16): the family indexes its arguments by their dims and assumes 16-byte
/// aligned rows (hkg.attention).
bool takesAlignedSliceView(Operation *op, unsigned operand, MemRefType view);
/// Aligned views whose input `x` also reshapes to [B*S, H*D] (the view the
/// RoPE kernel streams, Rope.cpp).
bool takesRopeSliceView(RopeOp op, unsigned operand, MemRefType view);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_SLICEVIEWS_H
