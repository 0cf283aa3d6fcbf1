//===- SamplingModel.cpp - the runtime model of hkg.top_p_sample ----------===//
//
// The nucleus and the reference draw (CDF accumulated in token id order),
// peaked normal logits, and a check of the tokens against the inputs rather
// than against one reference draw: with a `seed` operand the kernel draws
// from its own generator, so each token is checked for nucleus membership;
// with a `uniform` operand it must be the reference draw, up to the
// device's float32 CDF at a boundary.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"
#include "hkg/Runtime/Models/Sampling.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;

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
topPSampleReference(mlir::hkg::TopPSampleOp op, ArrayRef<HostTensor> inputs,
                    const ReferenceOptions &) {
  if (!op.getUniform())
    return makeError("hkg.top_p_sample draws from its own generator ('seed'); "
                     "its tokens can only be checked for nucleus membership");
  ArrayRef<int64_t> shape = inputs[0].getShape();
  int64_t rows = shape[0], v = shape[1];
  std::vector<double> logits = toDoubles(inputs[0]);
  ReferenceResult result;
  result.outputs.emplace_back();
  HostTensor &output = result.outputs.front().tensor;
  output = HostTensor(DType::I32, {rows});
  double p = op.getP().convertToFloat(),
         t = op.getTemperature().convertToFloat();
  std::vector<int64_t> tokens(rows);
  forEach(rows, [&](int64_t r) {
    std::vector<double> nucleus = computeNucleusProbabilities(
        ArrayRef<double>(logits).slice(r * v, v), p, t);
    tokens[r] = sampleFromNucleus(nucleus, inputs[1].get(r));
  });
  for (int64_t r = 0; r < rows; ++r)
    output.set(r, tokens[r]);
  return result;
}

/// Whether a token outside the nucleus of `row` is admissible: the nucleus
/// grown by `cdfTolerance` of mass holds it.
static bool isNearNucleus(ArrayRef<double> row, int64_t tok, double p, double t,
                          double cdfTolerance, double &prob) {
  std::vector<double> probs = computeNucleusProbabilities(row, 1.0, t);
  double above = 0;
  for (int64_t i = 0, v = row.size(); i < v; ++i)
    if (probs[i] > probs[tok])
      above += probs[i];
  prob = probs[tok];
  return above < p + cdfTolerance;
}

CheckResult hkg::rt::checkTopPSample(mlir::Operation *rawOp,
                                     llvm::ArrayRef<HostTensor> inputs,
                                     const HostTensor &tokens,
                                     double cdfTolerance) {
  CheckResult r;
  auto op = llvm::cast<mlir::hkg::TopPSampleOp>(rawOp);
  const HostTensor &logits = inputs[0];
  int64_t rows = logits.getShape()[0], v = logits.getShape()[1];
  double p = op.getP().convertToFloat(),
         t = op.getTemperature().convertToFloat();
  bool hasUniform = static_cast<bool>(op.getUniform());
  uint64_t poisonBits = getPoisonBits(DType::I32);
  std::string msg;
  llvm::raw_string_ostream os(msg);
  auto fail = [&](int64_t row, const llvm::Twine &what) {
    if (!msg.empty())
      return; // Report the first failure only; counts say the rest.
    os << "row " << row << ": " << what;
  };
  std::vector<double> row(v);
  for (int64_t b = 0; b < rows; ++b) {
    if (tokens.getBits(b) == poisonBits) {
      ++r.unwritten;
      fail(b, "token never written");
      continue;
    }
    ++r.checked;
    int64_t tok = static_cast<int64_t>(tokens.get(b));
    if (tok < 0 || tok >= v) {
      ++r.mismatched;
      fail(b, llvm::formatv("token {0} outside [0, {1})", tok, v));
      continue;
    }
    for (int64_t i = 0; i < v; ++i)
      row[i] = logits.get(b * v + i);
    std::vector<double> nucleus = computeNucleusProbabilities(row, p, t);
    if (nucleus[tok] <= 0) {
      double prob;
      if (!isNearNucleus(row, tok, p, t, cdfTolerance, prob)) {
        ++r.mismatched;
        fail(b, llvm::formatv("token {0} (probability {1:e3}) is outside the "
                              "top-p nucleus",
                              tok, prob));
      }
      continue;
    }
    if (!hasUniform)
      continue;
    double u = inputs[1].get(b);
    int64_t expected = sampleFromNucleus(nucleus, u);
    if (expected == tok)
      continue;
    double lo = 0;
    for (int64_t i = 0; i < tok; ++i)
      lo += nucleus[i];
    double hi = lo + nucleus[tok];
    if (u >= lo - cdfTolerance && u < hi + cdfTolerance)
      continue;
    ++r.mismatched;
    fail(b, llvm::formatv("got token {0}, expected {1} (u = {2:f6}; the "
                          "nucleus CDF of {0} spans [{3:f6}, {4:f6}))",
                          tok, expected, u, lo, hi));
  }
  if (r.unwritten || r.mismatched)
    os << llvm::formatv(" ({0} unwritten, {1} wrong of {2} rows)", r.unwritten,
                        r.mismatched, rows);
  r.message = msg;
  r.passed = msg.empty();
  return r;
}

static llvm::Error topPSampleInputs(mlir::hkg::TopPSampleOp op,
                                    llvm::MutableArrayRef<InputRange> ranges) {
  // Peaked logits, like a language model's and like the benchmark's
  // (utils/bench/bench.py: randn * 4): normal with standard deviation 4, so
  // that over a 128256-token vocabulary the nucleus at p = 0.9 holds a few
  // hundred tokens. A sampler's speed depends on that (bin_cache,
  // light_tokens); uniform [-6, 6) logits put a fifth of the vocabulary in
  // the nucleus.
  ranges[0] = InputRange::normal(0.0, 4.0);
  if (op.getUniform())
    ranges[1] = InputRange::uniform(0.0, 1.0);
  return llvm::Error::success();
}

const KernelModel &hkg::rt::getTopPSampleModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::TopPSampleOp>(topPSampleReference);
    m.inputs = inputsOf<mlir::hkg::TopPSampleOp>(topPSampleInputs);
    // With a seed there is no reference draw: the tokens are checked
    // against the logits (and `uniform`) alone.
    m.check = [](const CheckContext &c) {
      return checkTopPSample(c.op, c.inputs, c.outputs.front());
    };
    m.checkUsesReference = false;
    return m;
  }();
  return model;
}
