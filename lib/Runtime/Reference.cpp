//===- Reference.cpp - host reference implementations of hkg ops ----------===//
//
// Plain loops in double precision: obviously correct rather than fast. The
// only concession to size is ReferenceOptions::maxMultiplyAdds, which lets
// matmul and attention check a spread of output rows instead of all of them.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Reference.h"
#include "hkg/Runtime/ScalarInterpreter.h"

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace hkg::rt;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::SmallVector;
using mlir::cast;
using mlir::DialectRegistry;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::Operation;
using mlir::OwningOpRef;
using mlir::ShapedType;
using mlir::Value;
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

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::vector<double> toDoubles(const HostTensor &t) {
  std::vector<double> v(t.getNumElements());
  t.toDoubles(v.data());
  return v;
}

/// Runs `fn(i)` for i in [0, n) on LLVM's thread pool. References split
/// their work into independent rows, so they parallelize trivially.
static void forEach(int64_t n, llvm::function_ref<void(int64_t)> fn) {
  llvm::parallelFor(0, n, [&](size_t i) { fn(static_cast<int64_t>(i)); });
}

static int64_t product(ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

/// Rows to compute out of `numRows` when one row costs `rowCost`
/// multiply-adds: all, or an even spread (first and last included).
static std::vector<int64_t> pickRows(int64_t numRows, double rowCost,
                                     const ReferenceOptions &options) {
  int64_t count = numRows;
  if (options.maxMultiplyAdds > 0 && rowCost > 0)
    count = std::clamp<int64_t>(
        static_cast<int64_t>(options.maxMultiplyAdds / rowCost), 2, numRows);
  std::vector<int64_t> rows;
  if (count >= numRows) {
    rows.resize(numRows);
    std::iota(rows.begin(), rows.end(), 0);
    return rows;
  }
  for (int64_t i = 0; i < count; ++i)
    rows.push_back(i * (numRows - 1) / (count - 1));
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

static ReferenceResult makeResult(ArrayRef<int64_t> shape) {
  ReferenceResult result;
  result.output = HostTensor(DType::F64, shape);
  return result;
}

static void markRows(ReferenceResult &result, ArrayRef<int64_t> rows,
                     int64_t numRows, int64_t rowSize) {
  if (static_cast<int64_t>(rows.size()) == numRows)
    return;
  result.computed.assign(numRows * rowSize, false);
  for (int64_t r : rows)
    std::fill_n(result.computed.begin() + r * rowSize, rowSize, true);
}

//===----------------------------------------------------------------------===//
// Op references
//===----------------------------------------------------------------------===//

static Expected<ReferenceResult>
matmulReference(mlir::hkg::MatmulOp op, ArrayRef<HostTensor> inputs,
                const ReferenceOptions &options) {
  int64_t batch = op.getBatchSize(), m = op.getM(), n = op.getN(),
          k = op.getK();
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  std::vector<double> lhs = toDoubles(inputs[0]), rhs = toDoubles(inputs[1]);
  SmallVector<std::vector<double>> epilogue;
  for (const HostTensor &t : inputs.drop_front(2))
    epilogue.push_back(toDoubles(t));

  std::optional<ScalarProgram> program;
  if (op.hasEpilogue()) {
    Expected<ScalarProgram> compiled =
        ScalarProgram::compile(op.getEpilogue().front());
    if (!compiled)
      return compiled.takeError();
    program = std::move(*compiled);
  }

  ReferenceResult result = makeResult(shapeOf(op.getResult()));
  std::vector<int64_t> rows =
      pickRows(batch * m, static_cast<double>(n) * k, options);
  markRows(result, rows, batch * m, n);
  double *out = result.output.getF64Data();
  forEach(rows.size(), [&](int64_t r) {
    int64_t row = rows[r];
    std::optional<ScalarProgram> local = program; // evaluate() is stateful
    SmallVector<double> args(1 + epilogue.size());
    std::vector<double> acc(n);
    int64_t b = row / m, i = row % m;
    const double *a = lhs.data() + b * m * k;
    const double *w = rhs.data() + b * k * n;
    std::fill(acc.begin(), acc.end(), 0.0);
    if (tb) {
      // W is [N, K]: one contiguous dot product per output, summed over k in
      // the same order as the other layout (so the same bits), instead of a
      // K-strided walk down W's columns for every k, which misses the cache
      // on every multiply-add and made the reference, not the kernel, the
      // cost of a tuning trial on large linear layers.
      std::vector<double> aRow(k);
      for (int64_t kk = 0; kk < k; ++kk)
        aRow[kk] = ta ? a[kk * m + i] : a[i * k + kk];
      // Eight outputs at a time: eight independent sums in flight, each
      // still accumulated in k order.
      constexpr int64_t kLanes = 8;
      int64_t j = 0;
      for (; j + kLanes <= n; j += kLanes) {
        double sums[kLanes] = {};
        const double *wr = w + j * k;
        for (int64_t kk = 0; kk < k; ++kk)
          for (int64_t t = 0; t < kLanes; ++t)
            sums[t] += aRow[kk] * wr[t * k + kk];
        std::copy_n(sums, kLanes, acc.begin() + j);
      }
      for (; j < n; ++j) {
        const double *wr = w + j * k;
        double sum = 0.0;
        for (int64_t kk = 0; kk < k; ++kk)
          sum += aRow[kk] * wr[kk];
        acc[j] = sum;
      }
    } else {
      for (int64_t kk = 0; kk < k; ++kk) {
        double av = ta ? a[kk * m + i] : a[i * k + kk];
        const double *wr = w + kk * n;
        for (int64_t j = 0; j < n; ++j)
          acc[j] += av * wr[j];
      }
    }
    for (int64_t j = 0; j < n; ++j) {
      int64_t flat = row * n + j;
      double v = acc[j];
      if (local) {
        args[0] = v;
        for (auto [e, values] : llvm::enumerate(epilogue))
          args[1 + e] = values[flat % values.size()];
        v = local->evaluate(args);
      }
      out[flat] = v;
    }
  });
  return result;
}

static Expected<ReferenceResult>
elementwiseReference(mlir::hkg::ElementwiseOp op, ArrayRef<HostTensor> inputs) {
  Expected<ScalarProgram> program =
      ScalarProgram::compile(op.getBody().front());
  if (!program)
    return program.takeError();
  SmallVector<std::vector<double>> values;
  for (const HostTensor &t : inputs)
    values.push_back(toDoubles(t));
  ReferenceResult result = makeResult(shapeOf(op.getResult()));
  double *out = result.output.getF64Data();
  int64_t n = result.output.getNumElements();
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

static Expected<ReferenceResult> reduceReference(mlir::hkg::ReduceOp op,
                                                 ArrayRef<HostTensor> inputs) {
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t inner = product(shape.take_back(op.getDims()));
  std::vector<double> x = toDoubles(inputs[0]);
  ReferenceResult result = makeResult(shapeOf(op.getResult()));
  int64_t outer = result.output.getNumElements();
  double *out = result.output.getF64Data();
  forEach(outer, [&](int64_t o) {
    const double *row = x.data() + o * inner;
    double acc;
    switch (op.getKind()) {
    case mlir::hkg::ReduceKind::Sum:
      acc = std::accumulate(row, row + inner, 0.0);
      break;
    case mlir::hkg::ReduceKind::Prod:
      acc = std::accumulate(row, row + inner, 1.0, std::multiplies<double>());
      break;
    case mlir::hkg::ReduceKind::Max:
      acc = *std::max_element(row, row + inner);
      break;
    case mlir::hkg::ReduceKind::Min:
      acc = *std::min_element(row, row + inner);
      break;
    }
    out[o] = acc;
  });
  return result;
}

static Expected<ReferenceResult> softmaxReference(mlir::hkg::SoftmaxOp op,
                                                  ArrayRef<HostTensor> inputs) {
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t axis = op.getAxis();
  int64_t outer = product(shape.take_front(axis)), len = shape[axis],
          inner = product(shape.drop_front(axis + 1));
  std::vector<double> x = toDoubles(inputs[0]);
  ReferenceResult result = makeResult(shape);
  double *out = result.output.getF64Data();
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

static Expected<ReferenceResult>
layerNormReference(mlir::hkg::LayerNormOp op, ArrayRef<HostTensor> inputs) {
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
  ReferenceResult result = makeResult(shape);
  double *out = result.output.getF64Data();
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

static Expected<ReferenceResult> rmsNormReference(mlir::hkg::RMSNormOp op,
                                                  ArrayRef<HostTensor> inputs) {
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t d = shape.back(), rows = product(shape) / d;
  double eps = op.getEps().convertToFloat();
  std::vector<double> x = toDoubles(inputs[0]), w = toDoubles(inputs[1]);
  ReferenceResult result = makeResult(shape);
  double *out = result.output.getF64Data();
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

static Expected<ReferenceResult> ropeReference(mlir::hkg::RopeOp op,
                                               ArrayRef<HostTensor> inputs) {
  ArrayRef<int64_t> shape = inputs[0].getShape();
  if (shape.size() != 4)
    return makeError("expected a rank-4 'input' for hkg.rope");
  int64_t b = shape[0], s = shape[1], h = shape[2], d = shape[3], half = d / 2;
  int64_t offset = op.getOffset();
  bool neox = op.getLayout() == mlir::hkg::RopeLayout::Neox;
  std::vector<double> x = toDoubles(inputs[0]), cosT = toDoubles(inputs[1]),
                      sinT = toDoubles(inputs[2]);
  int64_t tableRows = inputs[1].getShape()[0];
  if (s + offset > tableRows)
    return makeError(llvm::formatv(
        "hkg.rope needs {0} table rows (S + offset), the tables have {1}",
        s + offset, tableRows));
  ReferenceResult result = makeResult(shape);
  double *out = result.output.getF64Data();
  // One feature vector per (batch, token, head).
  forEach(b * s * h, [&](int64_t vec) {
    int64_t si = (vec / h) % s;
    int64_t base = vec * d;
    int64_t tableRow = (si + offset) * half;
    for (int64_t i = 0; i < half; ++i) {
      int64_t ia = neox ? i : 2 * i, ib = neox ? i + half : 2 * i + 1;
      double a = x[base + ia], bb = x[base + ib];
      double c = cosT[tableRow + i], sn = sinT[tableRow + i];
      out[base + ia] = a * c - bb * sn;
      out[base + ib] = bb * c + a * sn;
    }
  });
  return result;
}

static Expected<ReferenceResult>
attentionReference(mlir::hkg::AttentionOp op, ArrayRef<HostTensor> inputs,
                   const ReferenceOptions &options) {
  ArrayRef<int64_t> qs = inputs[0].getShape(), ks = inputs[1].getShape(),
                    vs = inputs[2].getShape();
  int64_t b = qs[0], hq = qs[1], sq = qs[2], d = qs[3];
  int64_t hkv = ks[1], skv = ks[2], dv = vs[3];
  int64_t group = hq / hkv;
  double scale = op.getEffectiveScale();
  bool causal = op.getCausal();
  std::vector<double> q = toDoubles(inputs[0]), k = toDoubles(inputs[1]),
                      v = toDoubles(inputs[2]);
  ReferenceResult result = makeResult(shapeOf(op.getResult()));
  int64_t numRows = b * hq * sq;
  std::vector<int64_t> rows =
      pickRows(numRows, static_cast<double>(skv) * (d + dv), options);
  markRows(result, rows, numRows, dv);
  result.errorScale.assign(numRows * dv, 0.0);
  double *outData = result.output.getF64Data();
  forEach(rows.size(), [&](int64_t r) {
    int64_t row = rows[r];
    std::vector<double> scores(skv), out(dv), errScale(dv);
    int64_t i = row % sq, h = (row / sq) % hq, bi = row / (sq * hq);
    int64_t kh = h / group;
    const double *qr = q.data() + row * d;
    const double *kb = k.data() + (bi * hkv + kh) * skv * d;
    const double *vb = v.data() + (bi * hkv + kh) * skv * dv;
    int64_t last = causal ? std::min(skv - 1, i + (skv - sq)) : skv - 1;
    std::fill(out.begin(), out.end(), 0.0);
    if (last >= 0) {
      double mx = -INFINITY;
      for (int64_t j = 0; j <= last; ++j) {
        double dot = 0;
        for (int64_t c = 0; c < d; ++c)
          dot += qr[c] * kb[j * d + c];
        scores[j] = dot * scale;
        mx = std::max(mx, scores[j]);
      }
      double sum = 0;
      for (int64_t j = 0; j <= last; ++j) {
        scores[j] = std::exp(scores[j] - mx);
        sum += scores[j];
      }
      for (int64_t j = 0; j <= last; ++j) {
        double p = scores[j] / sum;
        for (int64_t c = 0; c < dv; ++c) {
          out[c] += p * vb[j * dv + c];
          errScale[c] += p * std::fabs(vb[j * dv + c]);
        }
      }
    }
    for (int64_t c = 0; c < dv; ++c) {
      outData[row * dv + c] = out[c];
      result.errorScale[row * dv + c] = errScale[c];
    }
  });
  return result;
}

std::vector<double>
hkg::rt::computeNucleusProbabilities(llvm::ArrayRef<double> logits, double p,
                                     double temperature) {
  int64_t v = logits.size();
  std::vector<double> probs(v);
  double mx = -INFINITY;
  for (double l : logits)
    mx = std::max(mx, l / temperature);
  double sum = 0;
  for (int64_t i = 0; i < v; ++i) {
    probs[i] = std::exp(logits[i] / temperature - mx);
    sum += probs[i];
  }
  for (double &pr : probs)
    pr /= sum;
  std::vector<int64_t> order(v);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return probs[a] > probs[b] || (probs[a] == probs[b] && a < b);
  });
  std::vector<double> nucleus(v, 0.0);
  double mass = 0;
  for (int64_t idx : order) {
    nucleus[idx] = probs[idx];
    mass += probs[idx];
    if (mass >= p)
      break;
  }
  for (double &pr : nucleus)
    pr /= mass;
  return nucleus;
}

int64_t hkg::rt::sampleFromNucleus(llvm::ArrayRef<double> nucleusProbs,
                                   double u) {
  double cdf = 0;
  int64_t lastInNucleus = -1;
  for (int64_t i = 0, e = nucleusProbs.size(); i < e; ++i) {
    if (nucleusProbs[i] <= 0)
      continue;
    lastInNucleus = i;
    cdf += nucleusProbs[i];
    if (cdf > u)
      return i;
  }
  return lastInNucleus; // u at the very top of [0, 1) with rounding.
}

static Expected<ReferenceResult>
topPSampleReference(mlir::hkg::TopPSampleOp op, ArrayRef<HostTensor> inputs) {
  if (!op.getUniform())
    return makeError("hkg.top_p_sample draws from its own generator ('seed'); "
                     "its tokens can only be checked for nucleus membership");
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t rows = shape[0], v = shape[1];
  std::vector<double> logits = toDoubles(inputs[0]);
  ReferenceResult result;
  result.output = HostTensor(DType::I32, {rows});
  double p = op.getP().convertToFloat(),
         t = op.getTemperature().convertToFloat();
  std::vector<int64_t> tokens(rows);
  forEach(rows, [&](int64_t r) {
    std::vector<double> nucleus = computeNucleusProbabilities(
        ArrayRef<double>(logits).slice(r * v, v), p, t);
    tokens[r] = sampleFromNucleus(nucleus, inputs[1].get(r));
  });
  for (int64_t r = 0; r < rows; ++r)
    result.output.set(r, tokens[r]);
  return result;
}

Expected<ReferenceResult>
hkg::rt::evaluateReference(Operation *op, ArrayRef<HostTensor> inputs,
                           const ReferenceOptions &options) {
  if (op->getNumResults() != 1)
    return makeError("expected a kernel op with one result");
  if (inputs.size() != op->getNumOperands())
    return makeError(llvm::formatv("'{0}' has {1} operand(s), got {2} "
                                   "input tensor(s)",
                                   op->getName(), op->getNumOperands(),
                                   inputs.size()));
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (shapeOf(operand) != inputs[i].getShape())
      return makeError(llvm::formatv(
          "input #{0} of '{1}' has shape {2}, expected the operand's shape", i,
          op->getName(), inputs[i].getTypeString()));
  }
  using Result = Expected<ReferenceResult>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([&](mlir::hkg::MatmulOp o) {
        return matmulReference(o, inputs, options);
      })
      .Case([&](mlir::hkg::ElementwiseOp o) {
        return elementwiseReference(o, inputs);
      })
      .Case([&](mlir::hkg::ReduceOp o) { return reduceReference(o, inputs); })
      .Case([&](mlir::hkg::SoftmaxOp o) { return softmaxReference(o, inputs); })
      .Case([&](mlir::hkg::LayerNormOp o) {
        return layerNormReference(o, inputs);
      })
      .Case([&](mlir::hkg::RMSNormOp o) { return rmsNormReference(o, inputs); })
      .Case([&](mlir::hkg::RopeOp o) { return ropeReference(o, inputs); })
      .Case([&](mlir::hkg::AttentionOp o) {
        return attentionReference(o, inputs, options);
      })
      .Case([&](mlir::hkg::TopPSampleOp o) {
        return topPSampleReference(o, inputs);
      })
      .Default([&](Operation *o) -> Result {
        return makeError(llvm::formatv("no reference for '{0}'", o->getName()));
      });
}
