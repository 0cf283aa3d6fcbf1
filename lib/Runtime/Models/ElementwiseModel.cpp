//===- ElementwiseModel.cpp - the runtime model of hkg.elementwise --------===//
//
// The reference runs the body through the ScalarInterpreter per element
// (operands broadcast as suffixes of the result shape). Inputs are [0.1, 4)
// for bodies that take logarithms or roots, else [-3, 3).
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Runtime/ScalarInterpreter.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <algorithm>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::SmallVector;

static Expected<ReferenceResult>
elementwiseReference(mlir::hkg::ElementwiseOp op, ArrayRef<HostTensor> inputs,
                     const ReferenceOptions &) {
  Expected<ScalarProgram> program =
      ScalarProgram::compile(op.getBody().front());
  if (!program)
    return program.takeError();
  SmallVector<std::vector<double>> values;
  for (const HostTensor &t : inputs)
    values.push_back(toDoubles(t));
  ReferenceResult result = makeF64Result(shapeOf(op.getResult()));
  HostTensor &output = result.outputs.front().tensor;
  double *out = output.getF64Data();
  int64_t n = output.getNumElements();
  constexpr int64_t chunk = 1 << 14;
  forEach((n + chunk - 1) / chunk, [&](int64_t c) {
    ScalarProgram local = *program; // evaluate() is stateful
    SmallVector<double> args(values.size());
    for (int64_t i = c * chunk, e = std::min(n, i + chunk); i < e; ++i) {
      for (auto [j, v] : llvm::enumerate(values))
        args[j] = v[i % v.size()];
      out[i] = local.evaluate(args);
    }
  });
  return result;
}

static llvm::Error elementwiseInputs(mlir::hkg::ElementwiseOp op,
                                     llvm::MutableArrayRef<InputRange> ranges) {
  Expected<ScalarProgram> program =
      ScalarProgram::compile(op.getBody().front());
  if (!program)
    return program.takeError();
  InputRange r = program->needsPositiveInputs()
                     ? InputRange::uniform(0.1, 4.0)
                     : InputRange::uniform(-3.0, 3.0);
  std::fill(ranges.begin(), ranges.end(), r);
  return llvm::Error::success();
}

const KernelModel &hkg::rt::getElementwiseModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::ElementwiseOp>(elementwiseReference);
    m.inputs = inputsOf<mlir::hkg::ElementwiseOp>(elementwiseInputs);
    return m;
  }();
  return model;
}
