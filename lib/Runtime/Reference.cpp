//===- Reference.cpp - host reference implementations of hkg ops ----------===//
//
// Parsing a manifest's `source` and the generic side of a reference: the
// inputs and outputs are checked against the op's operands and results
// around the op's own reference (its KernelModel, lib/Runtime/Models/). An
// operand read through a slice view is evaluated from the kernel's input
// (the view's root) by the view ops of the source.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Reference.h"
#include "hkg/Runtime/KernelModel.h"

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/SliceViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>

using namespace hkg::rt;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::SmallVector;
using mlir::DialectRegistry;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::Operation;
using mlir::OwningOpRef;
using mlir::ShapedType;
namespace arith = mlir::arith;
namespace func = mlir::func;
namespace math = mlir::math;
namespace tensor = mlir::tensor;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void hkg::rt::registerReferenceDialects(DialectRegistry &registry) {
  registry.insert<mlir::hkg::HkgDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, tensor::TensorDialect>();
}

Expected<OwningOpRef<ModuleOp>>
hkg::rt::parseSourceModule(llvm::StringRef source, MLIRContext &context) {
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  OwningOpRef<ModuleOp> module = mlir::parseSourceString<ModuleOp>(
      source, mlir::ParserConfig(&context), "source");
  if (!module)
    return makeError("cannot parse the kernel's source module: " +
                     llvm::StringRef(diagnostics).trim());
  return module;
}

Expected<Operation *> hkg::rt::findKernelOp(ModuleOp module) {
  SmallVector<Operation *> found;
  module.walk([&](mlir::hkg::HkgKernelOpInterface op) {
    found.push_back(op.getOperation());
  });
  if (found.size() != 1)
    return makeError(llvm::formatv(
        "expected exactly one hkg kernel op in the source module, found {0}",
        found.size()));
  return found.front();
}

ShapedType hkg::rt::getKernelInputType(Operation *op, unsigned i) {
  mlir::Value operand = op->getOperand(i);
  if (std::optional<mlir::hkg::SliceView> view =
          mlir::hkg::getSliceView(operand))
    return mlir::cast<ShapedType>(view->root.getType());
  return mlir::cast<ShapedType>(operand.getType());
}

/// `source` (a dense row-major tensor) under a new shape: the same bytes.
static HostTensor reshapedTensor(const HostTensor &source,
                                 ArrayRef<int64_t> shape) {
  HostTensor out(source.getDType(), shape);
  std::memcpy(out.data(), source.data(), out.getNumBytes());
  return out;
}

Expected<HostTensor> hkg::rt::evaluateViewOp(Operation *op,
                                             const HostTensor &source) {
  auto result = mlir::dyn_cast<mlir::RankedTensorType>(
      op->getNumResults() == 1 ? op->getResult(0).getType() : mlir::Type());
  auto input = mlir::dyn_cast<mlir::RankedTensorType>(
      op->getNumOperands() > 0 ? op->getOperand(0).getType() : mlir::Type());
  if (!mlir::hkg::isTensorViewOp(op) || !result || !input ||
      !result.hasStaticShape())
    return makeError(llvm::formatv(
        "'{0}' is no view the reference evaluates (a static "
        "tensor.extract_slice, tensor.expand_shape or tensor.collapse_shape)",
        op->getName()));
  if (input.getShape() != source.getShape())
    return makeError(llvm::formatv("'{0}' reads a {1}, got {2}", op->getName(),
                                   input, source.getTypeString()));
  if (mlir::isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
    return reshapedTensor(source, result.getShape());
  auto slice = mlir::cast<tensor::ExtractSliceOp>(op);
  if (!slice.getOffsets().empty() || !slice.getSizes().empty() ||
      !slice.getStrides().empty() ||
      llvm::any_of(slice.getStaticStrides(), [](int64_t s) { return s != 1; }))
    return makeError("'tensor.extract_slice' has dynamic offsets or sizes, "
                     "or strides other than 1: the reference evaluates "
                     "static slices only");
  // Row-major over the slice's sizes (of the source's rank; a rank-reducing
  // slice drops unit dims, which leaves the order as it is).
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  SmallVector<int64_t> strides = source.getStrides();
  HostTensor out(source.getDType(), result.getShape());
  size_t bytes = getDTypeSize(source.getDType());
  int64_t rank = sizes.size();
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0, e = out.getNumElements(); n < e; ++n) {
    int64_t at = 0;
    for (int64_t d = 0; d < rank; ++d)
      at += (offsets[d] + index[d]) * strides[d];
    std::memcpy(out.data() + n * bytes, source.data() + at * bytes, bytes);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == sizes[d]; --d)
      index[d] = 0;
  }
  return out;
}

Expected<SmallVector<HostTensor>>
hkg::rt::evaluateOperands(Operation *op, ArrayRef<HostTensor> inputs) {
  if (inputs.size() != op->getNumOperands())
    return makeError(llvm::formatv("'{0}' has {1} operand(s), got {2} "
                                   "input tensor(s)",
                                   op->getName(), op->getNumOperands(),
                                   inputs.size()));
  SmallVector<HostTensor> operands;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    std::optional<mlir::hkg::SliceView> view = mlir::hkg::getSliceView(operand);
    if (!view) {
      operands.push_back(inputs[i]);
      continue;
    }
    HostTensor t = inputs[i];
    for (Operation *viewOp : view->ops) {
      Expected<HostTensor> next = evaluateViewOp(viewOp, t);
      if (!next)
        return makeError(llvm::formatv("operand #{0} of '{1}': {2}", i,
                                       op->getName(),
                                       llvm::toString(next.takeError())));
      t = std::move(*next);
    }
    operands.push_back(std::move(t));
  }
  return operands;
}

Expected<ReferenceResult>
hkg::rt::evaluateReference(Operation *op, ArrayRef<HostTensor> inputs,
                           const ReferenceOptions &options) {
  Expected<const KernelModel &> model = getKernelModel(op);
  if (!model)
    return model.takeError();
  return evaluateReference(*model, op, inputs, options);
}

Expected<ReferenceResult>
hkg::rt::evaluateReference(const KernelModel &model, Operation *op,
                           ArrayRef<HostTensor> inputs,
                           const ReferenceOptions &options) {
  if (!model.reference)
    return makeError(llvm::formatv("no reference for '{0}'", op->getName()));
  if (inputs.size() != op->getNumOperands())
    return makeError(llvm::formatv("'{0}' has {1} operand(s), got {2} "
                                   "input tensor(s)",
                                   op->getName(), op->getNumOperands(),
                                   inputs.size()));
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = mlir::dyn_cast<ShapedType>(operand.getType());
    if (!type || type.getShape() != inputs[i].getShape())
      return makeError(llvm::formatv(
          "input #{0} of '{1}' has shape {2}, expected the operand's shape", i,
          op->getName(), inputs[i].getTypeString()));
  }
  Expected<ReferenceResult> result = model.reference(op, inputs, options);
  if (!result)
    return result.takeError();
  if (result->outputs.size() != op->getNumResults())
    return makeError(llvm::formatv(
        "the reference of '{0}' gave {1} output(s) for {2} result(s)",
        op->getName(), result->outputs.size(), op->getNumResults()));
  for (auto [i, value] : llvm::enumerate(op->getResults())) {
    auto type = mlir::dyn_cast<ShapedType>(value.getType());
    const HostTensor &tensor = result->outputs[i].tensor;
    if (!type || type.getShape() != tensor.getShape())
      return makeError(llvm::formatv(
          "the reference of '{0}' gave {1} for result #{2} of type {3}",
          op->getName(), tensor.getTypeString(), i, value.getType()));
  }
  return result;
}
