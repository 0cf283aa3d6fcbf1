//===- DynamicDims.cpp - dynamic dims of kernel ops -----------------------===//

#include "hkg/Dialect/Hkg/IR/DynamicDims.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"

using namespace mlir;
using namespace mlir::hkg;

int64_t mlir::hkg::getSizeHint(Operation *op) {
  if (auto hint = op->getAttrOfType<IntegerAttr>(
          HkgDialect::SizeHintAttrHelper::getNameStr()))
    return hint.getInt();
  return kDefaultSizeHint;
}

SmallVector<int64_t> mlir::hkg::getHintedShape(Operation *op,
                                               ArrayRef<int64_t> shape) {
  SmallVector<int64_t> r(shape);
  for (int64_t &d : r)
    if (ShapedType::isDynamic(d))
      d = getSizeHint(op);
  return r;
}

int64_t mlir::hkg::getHintedNumElements(Operation *op, Type type) {
  int64_t n = 1;
  for (int64_t d : getHintedShape(op, cast<ShapedType>(type).getShape()))
    n *= d;
  return n;
}

bool mlir::hkg::hasDynamicDims(Operation *op) {
  auto dynamic = [](Type t) {
    auto s = dyn_cast<ShapedType>(t);
    return s && s.hasRank() && !s.hasStaticShape();
  };
  return llvm::any_of(op->getOperandTypes(), dynamic) ||
         llvm::any_of(op->getResultTypes(), dynamic);
}

static ArrayRef<int64_t> shapeOf(Type t) {
  return cast<ShapedType>(t).getShape();
}

SmallVector<SizeSource> mlir::hkg::getSizeSources(HkgKernelOpInterface op) {
  SmallVector<SizeSource> sources;
  ArrayRef<int64_t> result = shapeOf(op->getResult(0).getType());
  for (auto [r, d] : llvm::enumerate(result)) {
    if (!ShapedType::isDynamic(d))
      continue;
    for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
      SmallVector<int64_t> dims = op.getResultDimsOfOperand(i);
      auto it = llvm::find(dims, static_cast<int64_t>(r));
      if (it == dims.end())
        continue;
      sources.push_back({static_cast<unsigned>(r), i,
                         static_cast<unsigned>(it - dims.begin())});
      break;
    }
  }
  return sources;
}

/// Per result dim: its size parameter, or -1.
static SmallVector<int64_t> sizeParamOfResultDims(Operation *op) {
  SmallVector<int64_t> params;
  int64_t next = 0;
  for (int64_t d : shapeOf(op->getResult(0).getType()))
    params.push_back(ShapedType::isDynamic(d) ? next++ : -1);
  return params;
}

SmallVector<int64_t> mlir::hkg::getOperandSizeParams(HkgKernelOpInterface op,
                                                     unsigned operand) {
  SmallVector<int64_t> ofResult = sizeParamOfResultDims(op);
  SmallVector<int64_t> params;
  ArrayRef<int64_t> shape = shapeOf(op->getOperand(operand).getType());
  SmallVector<int64_t> dims = op.getResultDimsOfOperand(operand);
  for (auto [d, extent] : llvm::enumerate(shape))
    params.push_back(ShapedType::isDynamic(extent) ? ofResult[dims[d]] : -1);
  return params;
}

SmallVector<int64_t> mlir::hkg::getResultSizeParams(HkgKernelOpInterface op) {
  return sizeParamOfResultDims(op);
}

LogicalResult mlir::hkg::detail::verifyDynamicDims(HkgKernelOpInterface op) {
  if (op->getNumResults() == 0)
    return success();
  ArrayRef<int64_t> result = shapeOf(op->getResult(0).getType());
  for (unsigned i = 1; i < op->getNumResults(); ++i)
    if (!cast<ShapedType>(op->getResult(i).getType()).hasStaticShape())
      return op->emitOpError("expected result #")
             << i << " to have a static shape (only the first result may "
             << "have dynamic dims)";
  SmallVector<int64_t> allowed = op.getDynamicResultDims();
  SmallVector<bool> read(result.size(), false);
  for (auto [r, d] : llvm::enumerate(result)) {
    if (ShapedType::isDynamic(d) &&
        !llvm::is_contained(allowed, static_cast<int64_t>(r))) {
      InFlightDiagnostic diag = op->emitOpError("expected a static result dim ")
                                << r << ": ";
      if (allowed.empty()) {
        diag << "this op takes no dynamic dims";
      } else {
        diag << "only dims [";
        llvm::interleaveComma(allowed, diag);
        diag << "] (batch, row or sequence dims) may be dynamic";
      }
      return diag;
    }
  }
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    ArrayRef<int64_t> shape = shapeOf(op->getOperand(i).getType());
    SmallVector<int64_t> dims = op.getResultDimsOfOperand(i);
    for (auto [d, extent] : llvm::enumerate(shape)) {
      int64_t r = d < dims.size() ? dims[d] : -1;
      bool dynamic = ShapedType::isDynamic(extent);
      if (r < 0) {
        if (dynamic)
          return op->emitOpError("expected a static dim ")
                 << d << " of operand #" << i
                 << ": it follows no dim of the result, so a dynamic size "
                    "cannot be checked or passed to the kernel";
        continue;
      }
      if (dynamic != ShapedType::isDynamic(result[r])) {
        InFlightDiagnostic diag = op->emitOpError("expected dim ")
                                  << d << " of operand #" << i << " and dim "
                                  << r << " of the result ";
        diag << "(the same size) to be both dynamic or both static, got "
             << (dynamic ? "?" : std::to_string(extent)) << " and "
             << (ShapedType::isDynamic(result[r]) ? "?"
                                                  : std::to_string(result[r]));
        return diag;
      }
      if (dynamic)
        read[r] = true;
    }
  }
  for (auto [r, d] : llvm::enumerate(result))
    if (ShapedType::isDynamic(d) && !read[r])
      return op->emitOpError("expected an operand dim equal to the result's "
                             "dynamic dim ")
             << r << ", to read its size from at launch";
  return success();
}
