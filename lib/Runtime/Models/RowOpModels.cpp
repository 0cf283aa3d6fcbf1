//===- RowOpModels.cpp - runtime models of reductions and norms -----------===//
//
// hkg.reduce (every kind, any adjacent axes, prologue and epilogue bodies),
// hkg.softmax and log-softmax (any axis),
// hkg.layernorm (biased variance, optional weight and bias) and hkg.rmsnorm
// (optional weight), over trailing axes or one inner axis: float64 references
// over independent rows or columns, and input ranges that keep
// their results well conditioned (prod near 1, logits [-6, 6), a layernorm
// input with a non-zero mean, weights near 1).
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Runtime/ScalarInterpreter.h"

#include "mlir/IR/TypeUtilities.h"

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

namespace {
/// The float64 accumulator of one reduction kind over one line.
struct KindAccumulator {
  mlir::hkg::ReduceKind kind;
  double value = 0, sum = 0; // sum: logsumexp's sum of exp(v - value)
  int64_t position = -1;     // argmax / argmin; -1 before the first value

  explicit KindAccumulator(mlir::hkg::ReduceKind kind) : kind(kind) {
    using mlir::hkg::ReduceKind;
    value = kind == ReduceKind::Prod        ? 1.0
            : kind == ReduceKind::Sum       ? 0.0
            : kind == ReduceKind::LogSumExp ? -INFINITY
                                            : NAN;
  }

  void add(double v, int64_t r) {
    using mlir::hkg::ReduceKind;
    switch (kind) {
    case ReduceKind::Sum:
      value += v;
      return;
    case ReduceKind::Prod:
      value *= v;
      return;
    case ReduceKind::Max: // a NaN loses (arith.maxnumf)
      if (r == 0 || std::isnan(value))
        value = v;
      else if (!std::isnan(v))
        value = std::max(value, v);
      return;
    case ReduceKind::Min:
      if (r == 0 || std::isnan(value))
        value = v;
      else if (!std::isnan(v))
        value = std::min(value, v);
      return;
    case ReduceKind::Maximum: // a NaN anywhere is the answer
      if (r == 0 || std::isnan(v))
        value = v;
      else if (!std::isnan(value))
        value = std::max(value, v);
      return;
    case ReduceKind::Minimum:
      if (r == 0 || std::isnan(v))
        value = v;
      else if (!std::isnan(value))
        value = std::min(value, v);
      return;
    case ReduceKind::LogSumExp: {
      if (v == -INFINITY)
        return;
      double m = std::max(value, v);
      sum = sum * std::exp(value - m) + std::exp(v - m);
      value = m;
      return;
    }
    case ReduceKind::Argmax:
    case ReduceKind::Argmin: {
      // The first extreme value; a NaN beats every number (PyTorch).
      bool better;
      if (position < 0)
        better = true;
      else if (std::isnan(value))
        better = false;
      else if (std::isnan(v))
        better = true;
      else
        better = kind == ReduceKind::Argmax ? v > value : v < value;
      if (better) {
        value = v;
        position = r;
      }
      return;
    }
    }
  }

  double finish() const {
    using mlir::hkg::ReduceKind;
    if (kind == ReduceKind::Argmax || kind == ReduceKind::Argmin)
      return static_cast<double>(position);
    if (kind == ReduceKind::LogSumExp)
      return value == -INFINITY ? -INFINITY : value + std::log(sum);
    return value;
  }
};
} // namespace

static Expected<ReferenceResult> reduceReference(mlir::hkg::ReduceOp op,
                                                 ArrayRef<HostTensor> inputs,
                                                 const ReferenceOptions &) {
  // The input as [outer, reduced, inner]; output element (o, i) reduces
  // prologue(x[o, r, i], ins...) over r, then runs the epilogue.
  std::array<int64_t, 3> g = op.getReductionGeometry();
  int64_t outer = g[0], len = g[1], inner = g[2];
  llvm::SmallVector<mlir::hkg::ReduceKind> kinds = op.getKindList();
  std::optional<ScalarProgram> prologue, epilogue;
  if (!op.getPrologue().empty()) {
    Expected<ScalarProgram> p =
        ScalarProgram::compile(op.getPrologue().front());
    if (!p)
      return p.takeError();
    prologue = std::move(*p);
  }
  if (!op.getEpilogue().empty()) {
    Expected<ScalarProgram> p =
        ScalarProgram::compile(op.getEpilogue().front());
    if (!p)
      return p.takeError();
    epilogue = std::move(*p);
  }
  llvm::SmallVector<std::vector<double>> values;
  for (const HostTensor &t : inputs)
    values.push_back(toDoubles(t));
  ArrayRef<int64_t> shape = shapeOf(op.getInput());
  size_t rank = shape.size();
  llvm::SmallVector<llvm::SmallVector<int64_t>> strides;
  for (auto [in, map] : llvm::zip(op.getIns(), op.getInsMaps()))
    strides.push_back(mlir::hkg::operandStridesPerResultDim(
        map, mlir::cast<mlir::ShapedType>(in.getType()).getShape()));
  ReferenceResult result = makeF64Result(shapeOf(op.getResult()));
  double *out = result.outputs.front().tensor.getF64Data();
  forEach(outer, [&](int64_t o) {
    std::optional<ScalarProgram> pro = prologue, epi = epilogue;
    llvm::SmallVector<double> args(values.size());
    llvm::SmallVector<int64_t> index(rank);
    for (int64_t i = 0; i < inner; ++i) {
      llvm::SmallVector<KindAccumulator> acc;
      for (mlir::hkg::ReduceKind k : kinds)
        acc.emplace_back(k);
      for (int64_t r = 0; r < len; ++r) {
        int64_t flat = (o * len + r) * inner + i;
        if (!pro) {
          for (KindAccumulator &a : acc)
            a.add(values[0][flat], r);
          continue;
        }
        for (int64_t rest = flat, j = rank - 1; j >= 0; --j) {
          index[j] = rest % shape[j];
          rest /= shape[j];
        }
        args[0] = values[0][flat];
        for (size_t k = 1; k < values.size(); ++k) {
          int64_t offset = 0;
          for (size_t j = 0; j < rank; ++j)
            offset += strides[k - 1][j] * index[j];
          args[k] = values[k][offset];
        }
        pro->evaluate(args, index);
        for (auto [k, a] : llvm::enumerate(acc))
          a.add(pro->getResult(k), r);
      }
      llvm::SmallVector<double> reduced;
      for (const KindAccumulator &a : acc)
        reduced.push_back(a.finish());
      out[o * inner + i] = epi ? epi->evaluate(reduced) : reduced.front();
    }
  });
  return result;
}

static llvm::Error reduceInputs(mlir::hkg::ReduceOp op,
                                MutableArrayRef<InputRange> ranges) {
  if (llvm::is_contained(op.getKindList(), mlir::hkg::ReduceKind::Prod))
    ranges[0] = InputRange::uniform(0.99, 1.01);
  if (op.getPrologue().empty())
    return llvm::Error::success();
  Expected<ScalarProgram> program =
      ScalarProgram::compile(op.getPrologue().front());
  if (!program)
    return program.takeError();
  if (program->needsPositiveInputs())
    ranges[0] = InputRange::uniform(0.1, 4.0);
  // Integer operands (set() truncates toward zero): masks 0 or 1; targets
  // and positions in [0, n) of the reduced extent, so one-hot picks hit.
  int64_t len = op.getReductionGeometry()[1];
  for (auto [k, in] : llvm::enumerate(op.getIns())) {
    mlir::Type et = mlir::getElementTypeOrSelf(in.getType());
    if (et.isInteger(1))
      ranges[k + 1] = InputRange::uniform(0.0, 2.0);
    else if (et.isInteger())
      ranges[k + 1] = InputRange::uniform(
          0.0, static_cast<double>(et.isInteger(8) ? std::min<int64_t>(len, 128)
                                                   : len));
    else
      ranges[k + 1] = program->needsPositiveInputs()
                          ? InputRange::uniform(0.1, 4.0)
                          : InputRange::uniform(-3.0, 3.0);
  }
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
    double logSum = std::log(sum);
    for (int64_t i = 0; i < len; ++i)
      out[base + i * inner] = op.getLog()
                                  ? x[base + i * inner] - mx - logSum
                                  : std::exp(x[base + i * inner] - mx) / sum;
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
