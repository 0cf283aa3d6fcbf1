//===- RuntimeTestUtils.h - helpers shared by the runtime unit tests -----===//

#ifndef HKG_TEST_UNIT_RUNTIMETESTUTILS_H
#define HKG_TEST_UNIT_RUNTIMETESTUTILS_H

#include "hkg/Runtime/HostTensor.h"
#include "hkg/Runtime/Reference.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <initializer_list>

namespace hkg::rt::testing {

/// An MLIRContext with the dialects a manifest `source` uses.
inline std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  registerReferenceDialects(registry);
  return std::make_unique<mlir::MLIRContext>(registry);
}

/// A tensor of `type` and `shape` holding `values` (row-major).
inline HostTensor makeTensor(DType type, llvm::ArrayRef<int64_t> shape,
                             std::initializer_list<double> values) {
  HostTensor t(type, shape);
  int64_t i = 0;
  for (double v : values)
    t.set(i++, v);
  EXPECT_EQ(i, t.getNumElements()) << "wrong number of values";
  return t;
}

/// Parses `source` and returns its kernel op (fails the test on error).
struct ParsedOp {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::Operation *op = nullptr;
};
inline ParsedOp parseOp(llvm::StringRef source) {
  ParsedOp p;
  p.context = makeContext();
  auto module = parseSourceModule(source, *p.context);
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError());
    return p;
  }
  p.module = std::move(*module);
  auto op = findKernelOp(p.module.get());
  if (!op) {
    ADD_FAILURE() << llvm::toString(op.takeError());
    return p;
  }
  p.op = *op;
  return p;
}

/// Evaluates the reference and returns its values as doubles.
inline std::vector<double> evaluate(const ParsedOp &p,
                                    llvm::ArrayRef<HostTensor> inputs,
                                    const ReferenceOptions &options = {}) {
  if (!p.op)
    return {};
  auto result = evaluateReference(p.op, inputs, options);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return {};
  }
  if (result->outputs.size() != 1) {
    ADD_FAILURE() << "expected one output, got " << result->outputs.size();
    return {};
  }
  const HostTensor &output = result->outputs.front().tensor;
  std::vector<double> v;
  for (int64_t i = 0, e = output.getNumElements(); i < e; ++i)
    v.push_back(output.get(i));
  return v;
}

} // namespace hkg::rt::testing

#endif // HKG_TEST_UNIT_RUNTIMETESTUTILS_H
