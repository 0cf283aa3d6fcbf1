//===- SliceViews.cpp - slice views inside kernels ------------------------===//
//
// See SliceViews.h.
//
//===----------------------------------------------------------------------===//

#include "SliceViews.h"
#include "GPUBuildingBlocks.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::hkg;

FailureOr<MemRefType> mlir::hkg::getSliceViewType(MemRefType root,
                                                  ArrayRef<Operation *> ops) {
  MemRefType type = root;
  for (Operation *op : ops) {
    FailureOr<MemRefType> next =
        TypeSwitch<Operation *, FailureOr<MemRefType>>(op)
            .Case([&](tensor::ExtractSliceOp o) -> FailureOr<MemRefType> {
              if (!o.getOffsets().empty() || !o.getSizes().empty() ||
                  !o.getStrides().empty())
                return failure();
              // A rank-reducing slice drops unit dims.
              return memref::SubViewOp::inferRankReducedResultType(
                  o.getType().getShape(), type, o.getStaticOffsets(),
                  o.getStaticSizes(), o.getStaticStrides());
            })
            .Case([&](tensor::ExpandShapeOp o) -> FailureOr<MemRefType> {
              if (!o.getResultType().hasStaticShape())
                return failure();
              return memref::ExpandShapeOp::computeExpandedType(
                  type, o.getResultType().getShape(),
                  o.getReassociationIndices());
            })
            .Case([&](tensor::CollapseShapeOp o) -> FailureOr<MemRefType> {
              SmallVector<ReassociationIndices> groups =
                  o.getReassociationIndices();
              if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type,
                                                                    groups))
                return failure();
              return memref::CollapseShapeOp::computeCollapsedType(type,
                                                                   groups);
            })
            .Default([](Operation *) { return failure(); });
    if (failed(next))
      return failure();
    type = *next;
  }
  return type;
}

Value mlir::hkg::buildSliceView(OpBuilder &b, Location loc, Value root,
                                ArrayRef<Operation *> ops) {
  Value view = root;
  for (Operation *op : ops) {
    view = TypeSwitch<Operation *, Value>(op)
               .Case([&](tensor::ExtractSliceOp o) -> Value {
                 auto type = cast<MemRefType>(view.getType());
                 MemRefType result =
                     memref::SubViewOp::inferRankReducedResultType(
                         o.getType().getShape(), type, o.getStaticOffsets(),
                         o.getStaticSizes(), o.getStaticStrides());
                 return memref::SubViewOp::create(
                     b, loc, result, view, o.getStaticOffsets(),
                     o.getStaticSizes(), o.getStaticStrides());
               })
               .Case([&](tensor::ExpandShapeOp o) -> Value {
                 return memref::ExpandShapeOp::create(
                     b, loc, o.getResultType().getShape(), view,
                     o.getReassociationIndices());
               })
               .Case([&](tensor::CollapseShapeOp o) -> Value {
                 return memref::CollapseShapeOp::create(
                     b, loc, view, o.getReassociationIndices());
               });
    assert(view && "not a view op");
  }
  return view;
}

int64_t mlir::hkg::getSliceViewAlignment(MemRefType view, bool withStrides) {
  auto [strides, offset] = view.getStridesAndOffset();
  int64_t bytes =
      llvm::divideCeil(view.getElementType().getIntOrFloatBitWidth(), 8);
  uint64_t g = offset * bytes;
  for (int64_t d = 0; withStrides && d + 1 < view.getRank(); ++d)
    if (view.getDimSize(d) > 1)
      g = std::gcd<uint64_t>(g, strides[d] * bytes);
  int64_t align = 16;
  while (align > 1 && g % align != 0)
    align /= 2;
  return align;
}

/// Whether the innermost dim of `view` is contiguous (or of extent 1).
static bool hasUnitInnerStride(MemRefType view) {
  if (view.getRank() == 0 || view.getShape().back() == 1)
    return true;
  return view.isLastDimUnitStride();
}

bool mlir::hkg::takesNoSliceView(Operation *, unsigned, MemRefType) {
  return false;
}

bool mlir::hkg::takesAnySliceView(Operation *, unsigned, MemRefType view) {
  return hasUnitInnerStride(view);
}

bool mlir::hkg::takesAlignedSliceView(Operation *, unsigned, MemRefType view) {
  return hasUnitInnerStride(view) && getSliceViewAlignment(view) == 16;
}

bool mlir::hkg::takesRopeSliceView(RopeOp op, unsigned operand,
                                   MemRefType view) {
  if (!takesAlignedSliceView(op, operand, view))
    return false;
  if (operand != 0)
    return true;
  ArrayRef<int64_t> s = view.getShape();
  return canReshapeView(view, {s[0] * s[1], s[2] * s[3]});
}
