//===- SliceViews.cpp - kernel operands read through slice views ----------===//

#include "hkg/Dialect/Hkg/IR/SliceViews.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hkg;

bool mlir::hkg::isTensorViewOp(Operation *op) {
  return isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp>(op);
}

std::optional<SliceView> mlir::hkg::getSliceView(Value value) {
  SliceView view;
  bool slices = false;
  Value v = value;
  while (Operation *def = v.getDefiningOp()) {
    if (!isTensorViewOp(def))
      break;
    slices |= isa<tensor::ExtractSliceOp>(def);
    view.ops.push_back(def);
    v = def->getOperand(0);
  }
  if (!slices)
    return std::nullopt;
  view.root = v;
  std::reverse(view.ops.begin(), view.ops.end());
  return view;
}

/// Whether `op` is an extract_slice of static offsets and sizes and unit
/// strides.
static bool isStaticSlice(tensor::ExtractSliceOp op) {
  return op.getOffsets().empty() && op.getSizes().empty() &&
         op.getStrides().empty() &&
         llvm::all_of(op.getStaticStrides(), [](int64_t s) { return s == 1; });
}

bool mlir::hkg::isStaticSliceView(const SliceView &view) {
  auto isStatic = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape();
  };
  if (!isStatic(view.root))
    return false;
  for (Operation *op : view.ops) {
    if (!isStatic(op->getResult(0)))
      return false;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
        slice && !isStaticSlice(slice))
      return false;
  }
  return true;
}

/// The first reader of `value` (through view ops) that is no hkg kernel op,
/// or null.
static Operation *findNonKernelReader(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<HkgKernelOpInterface>(user))
      continue;
    if (!isTensorViewOp(user))
      return user;
    if (Operation *other = findNonKernelReader(user->getResult(0)))
      return other;
  }
  return nullptr;
}

LogicalResult mlir::hkg::checkSliceView(tensor::ExtractSliceOp op,
                                        std::string &why) {
  llvm::raw_string_ostream os(why);
  if (!isStaticSlice(op)) {
    os << "its offsets, sizes or strides are not static (strides 1): only "
          "static slices are views";
    return failure();
  }
  std::optional<SliceView> view = getSliceView(op.getResult());
  if (!view || !isStaticSliceView(*view)) {
    os << "it or the tensor it slices has a dynamic shape: only slices of "
          "static shapes are views";
    return failure();
  }
  Value root = view->root;
  auto arg = dyn_cast<BlockArgument>(root);
  bool isArgument =
      arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!isArgument && !root.getDefiningOp<HkgKernelOpInterface>()) {
    os << "it slices a tensor that is neither a function argument nor an hkg "
          "kernel's result";
    if (Operation *def = root.getDefiningOp())
      os << " ('" << def->getName() << "')";
    return failure();
  }
  if (Operation *reader = findNonKernelReader(op.getResult())) {
    os << "it is read by '" << reader->getName()
       << "', not by hkg kernel ops only: a slice is a view only for the "
          "kernels that read it";
    return failure();
  }
  return success();
}
