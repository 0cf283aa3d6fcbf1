//===- ElementwiseModel.cpp - the runtime model of hkg.elementwise --------===//
//
// The reference runs the body through the ScalarInterpreter per element,
// each operand read through its indexing map (BroadcastMaps.h) and
// `hkg.index` given the element's result index. Float inputs are [0.1, 4)
// for bodies that take logarithms or roots, else [-3, 3); integer inputs are
// whole numbers in (-101, 101) (i8: every value, i1: 0 or 1).
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Runtime/ScalarInterpreter.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/IR/TypeUtilities.h"

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
  SmallVector<int64_t> shape = llvm::to_vector(shapeOf(op.getResult()));
  SmallVector<SmallVector<int64_t>> strides;
  for (auto [in, map] : llvm::zip(op.getInputs(), op.getInputMaps()))
    strides.push_back(mlir::hkg::operandStridesPerResultDim(
        map, mlir::cast<mlir::ShapedType>(in.getType()).getShape()));
  ReferenceResult result = makeF64Result(shape);
  HostTensor &output = result.outputs.front().tensor;
  double *out = output.getF64Data();
  int64_t n = output.getNumElements();
  size_t rank = shape.size();
  constexpr int64_t chunk = 1 << 14;
  forEach((n + chunk - 1) / chunk, [&](int64_t c) {
    ScalarProgram local = *program; // evaluate() is stateful
    SmallVector<double> args(values.size());
    int64_t begin = c * chunk, end = std::min(n, begin + chunk);
    // The result index of `begin`, then counted up element by element.
    SmallVector<int64_t> index(rank, 0);
    for (int64_t rest = begin, j = rank - 1; j >= 0; --j) {
      index[j] = rest % shape[j];
      rest /= shape[j];
    }
    for (int64_t i = begin; i < end; ++i) {
      for (auto [k, v] : llvm::enumerate(values)) {
        int64_t offset = 0;
        for (size_t j = 0; j < rank; ++j)
          offset += strides[k][j] * index[j];
        args[k] = v[offset];
      }
      out[i] = local.evaluate(args, index);
      for (int64_t j = rank - 1; j >= 0; --j) {
        if (++index[j] < shape[j])
          break;
        index[j] = 0;
      }
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
  InputRange floats = program->needsPositiveInputs()
                          ? InputRange::uniform(0.1, 4.0)
                          : InputRange::uniform(-3.0, 3.0);
  for (auto [range, in] : llvm::zip(ranges, op.getInputs())) {
    mlir::Type et = mlir::getElementTypeOrSelf(in.getType());
    // Integers: set() truncates toward zero.
    if (et.isInteger(1))
      range = InputRange::uniform(0.0, 2.0);
    else if (et.isInteger(8))
      range = InputRange::uniform(-128.0, 128.0);
    else if (et.isInteger())
      range = InputRange::uniform(-100.0, 101.0);
    else
      range = floats;
  }
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
