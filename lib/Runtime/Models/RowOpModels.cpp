//===- RowOpModels.cpp - runtime models of reductions and norms -----------===//
//
// hkg.reduce (sum/prod/max/min over trailing dims), hkg.softmax (any axis),
// hkg.layernorm (biased variance, optional weight and bias) and hkg.rmsnorm
// (optional weight), over trailing axes or one inner axis: float64 references
// over independent rows or columns, and input ranges that keep
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
// hkg.layernorm and hkg.rmsnorm
//===----------------------------------------------------------------------===//

/// Normalizes every line of x seen as [outer, len, inner] (the normalized
/// dims flattened to len; line (o, i) strided by `inner`): y = (x - mean) *
/// rstd * weight + bias, weight and bias (optional) indexed by the position
/// along the line. `center`: layernorm (mean and biased variance) or rmsnorm
/// (mean of squares, no centering).
static void normalizeLines(std::array<int64_t, 3> g, const double *x,
                           const std::vector<double> &weight,
                           const std::vector<double> &bias, double eps,
                           bool center, double *out) {
  int64_t len = g[1], inner = g[2];
  forEach(g[0] * inner, [&](int64_t line) {
    int64_t base = (line / inner) * len * inner + line % inner;
    auto at = [&](int64_t r) { return base + r * inner; };
    double mean = 0;
    if (center) {
      for (int64_t r = 0; r < len; ++r)
        mean += x[at(r)];
      mean /= len;
    }
    double sq = 0;
    for (int64_t r = 0; r < len; ++r)
      sq += (x[at(r)] - mean) * (x[at(r)] - mean);
    double inv = 1.0 / std::sqrt(sq / len + eps);
    for (int64_t r = 0; r < len; ++r) {
      double y = (x[at(r)] - mean) * inv;
      if (!weight.empty())
        y *= weight[r];
      if (!bias.empty())
        y += bias[r];
      out[at(r)] = y;
    }
  });
}

static Expected<ReferenceResult> layerNormReference(mlir::hkg::LayerNormOp op,
                                                    ArrayRef<HostTensor> inputs,
                                                    const ReferenceOptions &) {
  std::vector<double> x = toDoubles(inputs[0]);
  // Optional operands: the inputs follow the op's operand order.
  unsigned next = 1;
  std::vector<double> weight, bias;
  if (op.getWeight())
    weight = toDoubles(inputs[next++]);
  if (op.getBias())
    bias = toDoubles(inputs[next++]);
  ReferenceResult result = makeF64Result(inputs[0].getShape());
  normalizeLines(op.getNormGeometry(), x.data(), weight, bias,
                 op.getEps().convertToFloat(), /*center=*/true,
                 result.outputs.front().tensor.getF64Data());
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

static Expected<ReferenceResult> rmsNormReference(mlir::hkg::RMSNormOp op,
                                                  ArrayRef<HostTensor> inputs,
                                                  const ReferenceOptions &) {
  std::vector<double> x = toDoubles(inputs[0]), weight;
  if (op.getWeight())
    weight = toDoubles(inputs[1]);
  ReferenceResult result = makeF64Result(inputs[0].getShape());
  normalizeLines(op.getNormGeometry(), x.data(), weight, {},
                 op.getEps().convertToFloat(), /*center=*/false,
                 result.outputs.front().tensor.getF64Data());
  return result;
}

static llvm::Error rmsNormInputs(mlir::hkg::RMSNormOp op,
                                 MutableArrayRef<InputRange> ranges) {
  ranges[0] = InputRange::uniform(-2.0, 2.0);
  if (op.getWeight())
    ranges[1] = InputRange::uniform(0.5, 1.5);
  return llvm::Error::success();
}

const KernelModel &hkg::rt::getRMSNormModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::RMSNormOp>(rmsNormReference);
    m.inputs = inputsOf<mlir::hkg::RMSNormOp>(rmsNormInputs);
    return m;
  }();
  return model;
}
