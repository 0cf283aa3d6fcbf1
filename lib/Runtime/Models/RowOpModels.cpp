//===- RowOpModels.cpp - runtime models of reductions and norms -----------===//
//
// hkg.reduce (sum/prod/max/min over trailing dims), hkg.softmax (any axis),
// hkg.layernorm (biased variance, optional weight and bias) and hkg.rmsnorm:
// float64 references over independent rows, and input ranges that keep
// their results well conditioned (prod near 1, logits [-6, 6), a layernorm
// input with a non-zero mean, weights near 1).
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::MutableArrayRef;

//===----------------------------------------------------------------------===//
// hkg.reduce
//===----------------------------------------------------------------------===//

static Expected<ReferenceResult> reduceReference(mlir::hkg::ReduceOp op,
                                                 ArrayRef<HostTensor> inputs,
                                                 const ReferenceOptions &) {
  // The input as [outer, reduced, inner]; output element (o, i) reduces
  // x[o, r, i] over r.
  std::array<int64_t, 3> g = op.getReductionGeometry();
  int64_t outer = g[0], len = g[1], inner = g[2];
  std::vector<double> x = toDoubles(inputs[0]);
  ReferenceResult result = makeF64Result(shapeOf(op.getResult()));
  HostTensor &output = result.outputs.front().tensor;
  double *out = output.getF64Data();
  mlir::hkg::ReduceKind kind = op.getKind();
  forEach(outer, [&](int64_t o) {
    for (int64_t i = 0; i < inner; ++i) {
      const double *first = x.data() + o * len * inner + i;
      double acc = kind == mlir::hkg::ReduceKind::Prod ? 1.0 : first[0];
      for (int64_t r = kind == mlir::hkg::ReduceKind::Prod ? 0 : 1; r < len;
           ++r) {
        double v = first[r * inner];
        switch (kind) {
        case mlir::hkg::ReduceKind::Sum:
          acc += v;
          break;
        case mlir::hkg::ReduceKind::Prod:
          acc *= v;
          break;
        case mlir::hkg::ReduceKind::Max:
          acc = std::max(acc, v);
          break;
        case mlir::hkg::ReduceKind::Min:
          acc = std::min(acc, v);
          break;
        }
      }
      out[o * inner + i] = acc;
    }
  });
  return result;
}

static llvm::Error reduceInputs(mlir::hkg::ReduceOp op,
                                MutableArrayRef<InputRange> ranges) {
  if (op.getKind() == mlir::hkg::ReduceKind::Prod)
    ranges[0] = InputRange::uniform(0.99, 1.01);
  return llvm::Error::success();
}

const KernelModel &hkg::rt::getReduceModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::ReduceOp>(reduceReference);
    m.inputs = inputsOf<mlir::hkg::ReduceOp>(reduceInputs);
    return m;
  }();
  return model;
}

//===----------------------------------------------------------------------===//
// hkg.softmax
//===----------------------------------------------------------------------===//

static Expected<ReferenceResult> softmaxReference(mlir::hkg::SoftmaxOp op,
                                                  ArrayRef<HostTensor> inputs,
                                                  const ReferenceOptions &) {
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t axis = op.getAxis();
  int64_t outer = product(shape.take_front(axis)), len = shape[axis],
          inner = product(shape.drop_front(axis + 1));
  std::vector<double> x = toDoubles(inputs[0]);
  ReferenceResult result = makeF64Result(shape);
  double *out = result.outputs.front().tensor.getF64Data();
  // One line per (outer, inner) pair, strided by `inner` along the axis.
  forEach(outer * inner, [&](int64_t line) {
    int64_t o = line / inner, in = line % inner;
    int64_t base = o * len * inner + in;
    double mx = -INFINITY;
    for (int64_t i = 0; i < len; ++i)
      mx = std::max(mx, x[base + i * inner]);
    double sum = 0;
    for (int64_t i = 0; i < len; ++i)
      sum += std::exp(x[base + i * inner] - mx);
    for (int64_t i = 0; i < len; ++i)
      out[base + i * inner] = std::exp(x[base + i * inner] - mx) / sum;
  });
  return result;
}

const KernelModel &hkg::rt::getSoftmaxModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::SoftmaxOp>(softmaxReference);
    m.inputs = [](mlir::Operation *, MutableArrayRef<InputRange> ranges) {
      ranges[0] = InputRange::uniform(-6.0, 6.0);
      return llvm::Error::success();
    };
    return m;
  }();
  return model;
}

//===----------------------------------------------------------------------===//
// hkg.layernorm
//===----------------------------------------------------------------------===//

static Expected<ReferenceResult> layerNormReference(mlir::hkg::LayerNormOp op,
                                                    ArrayRef<HostTensor> inputs,
                                                    const ReferenceOptions &) {
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t d = shape.back(), rows = product(shape) / d;
  double eps = op.getEps().convertToFloat();
  std::vector<double> x = toDoubles(inputs[0]);
  // Optional operands: the inputs follow the op's operand order.
  unsigned next = 1;
  std::vector<double> weight, bias;
  if (op.getWeight())
    weight = toDoubles(inputs[next++]);
  if (op.getBias())
    bias = toDoubles(inputs[next++]);
  ReferenceResult result = makeF64Result(shape);
  double *out = result.outputs.front().tensor.getF64Data();
  forEach(rows, [&](int64_t r) {
    const double *row = x.data() + r * d;
    double mean = std::accumulate(row, row + d, 0.0) / d;
    double var = 0;
    for (int64_t i = 0; i < d; ++i)
      var += (row[i] - mean) * (row[i] - mean);
    var /= d;
    double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t i = 0; i < d; ++i) {
      double y = (row[i] - mean) * inv;
      if (!weight.empty())
        y *= weight[i];
      if (!bias.empty())
        y += bias[i];
      out[r * d + i] = y;
    }
  });
  return result;
}

static llvm::Error layerNormInputs(mlir::hkg::LayerNormOp op,
                                   MutableArrayRef<InputRange> ranges) {
  ranges[0] = InputRange::uniform(-1.5, 2.5);
  unsigned next = 1;
  if (op.getWeight())
    ranges[next++] = InputRange::uniform(0.5, 1.5);
  if (op.getBias())
    ranges[next++] = InputRange::uniform(-0.5, 0.5);
  return llvm::Error::success();
}

const KernelModel &hkg::rt::getLayerNormModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::LayerNormOp>(layerNormReference);
    m.inputs = inputsOf<mlir::hkg::LayerNormOp>(layerNormInputs);
    return m;
  }();
  return model;
}

//===----------------------------------------------------------------------===//
// hkg.rmsnorm
//===----------------------------------------------------------------------===//

static Expected<ReferenceResult> rmsNormReference(mlir::hkg::RMSNormOp op,
                                                  ArrayRef<HostTensor> inputs,
                                                  const ReferenceOptions &) {
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t d = shape.back(), rows = product(shape) / d;
  double eps = op.getEps().convertToFloat();
  std::vector<double> x = toDoubles(inputs[0]), w = toDoubles(inputs[1]);
  ReferenceResult result = makeF64Result(shape);
  double *out = result.outputs.front().tensor.getF64Data();
  forEach(rows, [&](int64_t r) {
    const double *row = x.data() + r * d;
    double ms = 0;
    for (int64_t i = 0; i < d; ++i)
      ms += row[i] * row[i];
    double inv = 1.0 / std::sqrt(ms / d + eps);
    for (int64_t i = 0; i < d; ++i)
      out[r * d + i] = row[i] * inv * w[i];
  });
  return result;
}

const KernelModel &hkg::rt::getRMSNormModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::RMSNormOp>(rmsNormReference);
    m.inputs = [](mlir::Operation *, MutableArrayRef<InputRange> ranges) {
      ranges[0] = InputRange::uniform(-2.0, 2.0);
      ranges[1] = InputRange::uniform(0.5, 1.5);
      return llvm::Error::success();
    };
    return m;
  }();
  return model;
}
