//===- Reference.cpp - hkg's C API: the float64 host references -----------===//
//
// hkgReferenceEvaluate runs the reference of one kernel's source on host
// tensors: the Python package composes it over a launch plan
// (hkg.Program.reference) to check what a program computes without a GPU.
//
//===----------------------------------------------------------------------===//

#include "hkg-c/Hkg.h"

#include "CAPISupport.h"

#include "hkg/Runtime/HostTensor.h"
#include "hkg/Runtime/Reference.h"
#include "hkg/Support/InputLimits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <cstring>

using hkg::capi::toCString;
namespace rt = hkg::rt;

char *hkgReferenceEvaluate(const char *source, size_t length,
                           const HkgTensorRef *inputs, size_t numInputs,
                           HkgTensorCallback callback, void *userData) {
  std::string error;
  ::hkg::runOnLargeStack([&] {
    mlir::DialectRegistry registry;
    rt::registerReferenceDialects(registry);
    mlir::MLIRContext context(registry);
    context.disableMultithreading();
    auto module =
        rt::parseSourceModule(llvm::StringRef(source, length), context);
    if (!module) {
      error = llvm::toString(module.takeError());
      return 1;
    }
    llvm::Expected<mlir::Operation *> op = rt::findKernelOp(**module);
    if (!op) {
      error = llvm::toString(op.takeError());
      return 1;
    }
    llvm::SmallVector<rt::HostTensor> hostInputs;
    for (size_t i = 0; i < numInputs; ++i) {
      const HkgTensorRef &in = inputs[i];
      std::optional<rt::DType> dtype = rt::parseDType(in.dtype);
      if (!dtype) {
        error = "input " + std::to_string(i) + ": unknown dtype '" +
                std::string(in.dtype) + "'";
        return 1;
      }
      llvm::ArrayRef<int64_t> shape(in.shape, in.rank);
      for (int64_t d : shape)
        if (d < 0) {
          error = "input " + std::to_string(i) + ": negative extent";
          return 1;
        }
      rt::HostTensor t(*dtype, shape);
      std::memcpy(t.data(), in.data, t.getNumBytes());
      hostInputs.push_back(std::move(t));
    }
    // The op's operands from the kernel's inputs (slice views evaluated).
    llvm::Expected<llvm::SmallVector<rt::HostTensor>> operands =
        rt::evaluateOperands(*op, hostInputs);
    if (!operands) {
      error = llvm::toString(operands.takeError());
      return 1;
    }
    llvm::Expected<rt::ReferenceResult> result =
        rt::evaluateReference(*op, *operands);
    if (!result) {
      error = llvm::toString(result.takeError());
      return 1;
    }
    for (auto [i, out] : llvm::enumerate(result->outputs)) {
      const rt::HostTensor &t = out.tensor;
      std::string dtype = rt::getDTypeName(t.getDType()).str();
      HkgTensorRef ref{dtype.c_str(), static_cast<size_t>(t.getRank()),
                       t.getShape().data(), t.data()};
      callback(userData, i, &ref);
    }
    return 0;
  });
  return error.empty() ? nullptr : toCString(error);
}
