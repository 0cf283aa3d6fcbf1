//===- Check.cpp - comparing kernel outputs against references ------------===//

#include "hkg/Runtime/Check.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace hkg::rt;

Tolerance hkg::rt::getDefaultTolerance(DType type) {
  switch (type) {
  case DType::F64:
    return {1e-12, 1e-10, 1e-10};
  case DType::F32:
    return {1e-5, 1e-4, 1e-4};
  case DType::F16:
    return {1e-3, 4e-3, 4e-3};
  case DType::BF16:
    return {1e-2, 1.6e-2, 1.6e-2};
  case DType::I32:
    return {0, 0, 0};
  }
  return {0, 0, 0};
}

Tolerance hkg::rt::getOpTolerance(mlir::Operation *op, DType type) {
  Tolerance t = getDefaultTolerance(type);
  if (auto attention = llvm::dyn_cast<mlir::hkg::AttentionOp>(op)) {
    mlir::Type in = attention.getQuery().getType().getElementType();
    int mantissa = in.isBF16() ? 8 : in.isF16() ? 11 : 24;
    t.elemScaled = 2 * std::ldexp(1.0, -mantissa);
  }
  return t;
}

uint64_t hkg::rt::getPoisonBits(DType type) {
  switch (type) {
  case DType::F16:
    return 0x7dad;
  case DType::BF16:
    return 0x7fba;
  case DType::F32:
  case DType::I32:
    return 0x7fbadbad;
  case DType::F64:
    return 0x7ff7badbadbadbadull;
  }
  return 0;
}

void hkg::rt::poison(HostTensor &tensor) {
  tensor.fillBits(getPoisonBits(tensor.getDType()));
}

std::string hkg::rt::formatIndex(llvm::ArrayRef<int64_t> shape, int64_t index) {
  llvm::SmallVector<int64_t> idx(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    idx[d] = index % shape[d];
    index /= shape[d];
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(idx, os);
  os << "]";
  return s;
}

CheckResult hkg::rt::compareTensors(const HostTensor &actual,
                                    const ReferenceResult &expected,
                                    const Tolerance &tolerance) {
  CheckResult r;
  const HostTensor &ref = expected.output;
  if (actual.getShape() != ref.getShape()) {
    r.message = llvm::formatv("output shape {0} differs from the reference's",
                              actual.getTypeString());
    return r;
  }
  llvm::ArrayRef<int64_t> shape = actual.getShape();
  int64_t n = actual.getNumElements();
  uint64_t poisonBits = getPoisonBits(actual.getDType());
  std::vector<double> got(n), want(n);
  actual.toDoubles(got.data());
  ref.toDoubles(want.data());
  std::vector<bool> unwritten(n);
  for (int64_t i = 0; i < n; ++i)
    unwritten[i] = actual.getBits(i) == poisonBits;

  int64_t firstUnwritten = -1, firstNaN = -1, firstRefBad = -1;
  double sumSqRef = 0, sumSqDiff = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (unwritten[i]) {
      if (r.unwritten++ == 0)
        firstUnwritten = i;
      continue;
    }
    double a = got[i];
    if (std::isnan(a)) {
      if (r.nans++ == 0)
        firstNaN = i;
      continue;
    }
    if (!expected.isComputed(i))
      continue;
    double e = want[i];
    if (!std::isfinite(e)) {
      if (firstRefBad < 0)
        firstRefBad = i;
      continue;
    }
    ++r.checked;
    sumSqRef += e * e;
    sumSqDiff += (a - e) * (a - e);
    r.maxAbsError = std::max(r.maxAbsError, std::fabs(a - e));
  }
  double rms = r.checked ? std::sqrt(sumSqRef / r.checked) : 0;
  r.normRelError = sumSqRef > 0 ? std::sqrt(sumSqDiff / sumSqRef)
                                : (sumSqDiff > 0 ? INFINITY : 0);

  int64_t firstMismatch = -1;
  double bound = tolerance.elemAbs * rms;
  bool scaled = tolerance.elemScaled > 0 && !expected.errorScale.empty();
  for (int64_t i = 0; i < n; ++i) {
    if (!expected.isComputed(i) || unwritten[i])
      continue;
    double a = got[i], e = want[i];
    if (std::isnan(a) || !std::isfinite(e))
      continue;
    double allowed = tolerance.elemRel * std::fabs(e) + bound;
    if (scaled)
      allowed += tolerance.elemScaled * expected.errorScale[i];
    if (std::fabs(a - e) > allowed) {
      if (r.mismatched++ == 0)
        firstMismatch = i;
    }
  }

  std::string msg;
  llvm::raw_string_ostream os(msg);
  auto sep = [&] {
    if (!msg.empty())
      os << "; ";
  };
  if (r.unwritten) {
    sep();
    os << r.unwritten << " element(s) never written (first at "
       << formatIndex(shape, firstUnwritten) << ")";
  }
  if (r.nans) {
    sep();
    os << r.nans << " NaN(s) in the output (first at "
       << formatIndex(shape, firstNaN) << ")";
  }
  if (firstRefBad >= 0) {
    sep();
    os << "the reference is not finite at " << formatIndex(shape, firstRefBad);
  }
  if (r.normRelError > tolerance.normRel) {
    sep();
    os << llvm::formatv("norm-wise relative error {0:e2} > {1:e1}",
                        r.normRelError, tolerance.normRel);
  }
  if (r.mismatched) {
    sep();
    os << llvm::formatv("{0} element(s) outside {1:e1}*|ref| + {2:e1}*rms",
                        r.mismatched, tolerance.elemRel, tolerance.elemAbs);
    if (scaled)
      os << llvm::formatv(" + {0:e1}*scale", tolerance.elemScaled);
    os << llvm::formatv(" (first at {0}: got {1:e6}, expected {2:e6}",
                        formatIndex(shape, firstMismatch), got[firstMismatch],
                        want[firstMismatch]);
    if (scaled)
      os << llvm::formatv(", scale {0:e3}",
                          expected.errorScale[firstMismatch]);
    os << ")";
  }
  r.message = msg;
  r.passed = msg.empty();
  return r;
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
      // Admissible if the nucleus grown by cdfTolerance of mass holds it.
      std::vector<double> probs = computeNucleusProbabilities(row, 1.0, t);
      double above = 0;
      for (int64_t i = 0; i < v; ++i)
        if (probs[i] > probs[tok])
          above += probs[i];
      if (above >= p + cdfTolerance) {
        ++r.mismatched;
        fail(b, llvm::formatv("token {0} (probability {1:e3}) is outside the "
                              "top-p nucleus",
                              tok, probs[tok]));
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
