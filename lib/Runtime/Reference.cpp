//===- Reference.cpp - host reference implementations of hkg ops ----------===//
//
// Parsing a manifest's `source` and the generic side of a reference: the
// inputs and outputs are checked against the op's operands and results
// around the op's own reference (its KernelModel, lib/Runtime/Models/).
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Reference.h"
#include "hkg/Runtime/KernelModel.h"

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

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

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void hkg::rt::registerReferenceDialects(DialectRegistry &registry) {
  registry.insert<mlir::hkg::HkgDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect>();
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
