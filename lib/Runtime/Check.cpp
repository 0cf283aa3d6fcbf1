//===- Check.cpp - comparing kernel outputs against references ------------===//
//
// The generic checks: poison, NaN and tolerance per output, and the
// dispatch to an op's own check through its KernelModel.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/KernelModel.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <memory>

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
  // 8-bit float outputs: half an ulp of a 3-bit (e4m3) or 2-bit (e5m2)
  // mantissa, 2^-4 and 2^-3 of the value.
  case DType::F8E4M3FN:
  case DType::F8E4M3FNUZ:
    return {6.25e-2, 6.25e-2, 6.25e-2};
  case DType::F8E5M2:
  case DType::F8E5M2FNUZ:
    return {1.25e-1, 1.25e-1, 1.25e-1};
  case DType::I32:
  case DType::I64:
  case DType::I8:
  case DType::I1:
    return {0, 0, 0};
  }
  return {0, 0, 0};
}

Tolerance hkg::rt::getOpTolerance(const KernelModel &model, mlir::Operation *op,
                                  DType type, unsigned resultIndex) {
  Tolerance t = getDefaultTolerance(type);
  if (model.tolerance)
    model.tolerance(op, resultIndex, t);
  return t;
}

Tolerance hkg::rt::getOpTolerance(mlir::Operation *op, DType type,
                                  unsigned resultIndex) {
  const KernelModel *model = lookupKernelModel(op);
  return model ? getOpTolerance(*model, op, type, resultIndex)
               : getDefaultTolerance(type);
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
  case DType::I64:
    return 0x7fbadbad7fbadbadull;
  case DType::F64:
    return 0x7ff7badbadbadbadull;
  case DType::I8:
    return 0x7b;
  case DType::I1:
    return 0xbd; // not 0 or 1: a kernel that wrote nothing is caught
  // NaN in each format (e4m3fn: S.1111.111; FNUZ: 0x80; e5m2: a quiet NaN).
  case DType::F8E4M3FN:
    return 0x7f;
  case DType::F8E5M2:
    return 0x7e;
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return 0x80;
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
                                    const ExpectedOutput &expected,
                                    const Tolerance &tolerance) {
  CheckResult r;
  const HostTensor &ref = expected.tensor;
  if (actual.getShape() != ref.getShape()) {
    r.message = llvm::formatv("output shape {0} differs from the reference's",
                              actual.getTypeString());
    return r;
  }
  llvm::ArrayRef<int64_t> shape = actual.getShape();
  int64_t n = actual.getNumElements();
  uint64_t poisonBits = getPoisonBits(actual.getDType());
  // Both sides as doubles (converted in parallel, left uninitialized
  // before: a tuning trial compares 64 M elements).
  std::unique_ptr<double[]> gotBuffer(new double[n]), wantBuffer(new double[n]);
  double *got = gotBuffer.get(), *want = wantBuffer.get();
  actual.toDoubles(got);
  ref.toDoubles(want);
  // Every i8 value is a legal result: there the poison byte counts as
  // unwritten only where the reference is not that very value.
  bool poisonIsValue = actual.getDType() == DType::I8;
  double poisonValue = static_cast<int8_t>(static_cast<uint8_t>(poisonBits));
  auto isUnwritten = [&](int64_t i) {
    return actual.getBits(i) == poisonBits &&
           !(poisonIsValue && want[i] == poisonValue);
  };

  // Two passes over fixed chunks, in parallel; each chunk's counts, first
  // indices and sums are combined in chunk order, so the result does not
  // depend on the number of threads.
  constexpr int64_t kChunk = 1 << 16;
  size_t numChunks = (n + kChunk - 1) / kChunk;
  struct Partial {
    int64_t unwritten = 0, nans = 0, checked = 0, mismatched = 0;
    int64_t firstUnwritten = -1, firstNaN = -1, firstRefBad = -1,
            firstMismatch = -1;
    double sumSqRef = 0, sumSqDiff = 0, maxAbsError = 0;
  };
  std::vector<Partial> partials(numChunks);
  llvm::parallelFor(0, numChunks, [&](size_t c) {
    Partial &p = partials[c];
    int64_t end = std::min<int64_t>(n, (c + 1) * kChunk);
    for (int64_t i = c * kChunk; i < end; ++i) {
      if (isUnwritten(i)) {
        if (p.unwritten++ == 0)
          p.firstUnwritten = i;
        continue;
      }
      double a = got[i];
      if (std::isnan(a)) {
        if (p.nans++ == 0)
          p.firstNaN = i;
        continue;
      }
      if (!expected.isComputed(i))
        continue;
      double e = want[i];
      if (!std::isfinite(e)) {
        if (p.firstRefBad < 0)
          p.firstRefBad = i;
        continue;
      }
      ++p.checked;
      p.sumSqRef += e * e;
      p.sumSqDiff += (a - e) * (a - e);
      p.maxAbsError = std::max(p.maxAbsError, std::fabs(a - e));
    }
  });
  int64_t firstUnwritten = -1, firstNaN = -1, firstRefBad = -1;
  double sumSqRef = 0, sumSqDiff = 0;
  for (const Partial &p : partials) {
    if (firstUnwritten < 0)
      firstUnwritten = p.firstUnwritten;
    if (firstNaN < 0)
      firstNaN = p.firstNaN;
    if (firstRefBad < 0)
      firstRefBad = p.firstRefBad;
    r.unwritten += p.unwritten;
    r.nans += p.nans;
    r.checked += p.checked;
    sumSqRef += p.sumSqRef;
    sumSqDiff += p.sumSqDiff;
    r.maxAbsError = std::max(r.maxAbsError, p.maxAbsError);
  }
  double rms = r.checked ? std::sqrt(sumSqRef / r.checked) : 0;
  r.normRelError = sumSqRef > 0 ? std::sqrt(sumSqDiff / sumSqRef)
                                : (sumSqDiff > 0 ? INFINITY : 0);

  double bound = tolerance.elemAbs * rms;
  bool scaled = tolerance.elemScaled > 0 && !expected.errorScale.empty();
  llvm::parallelFor(0, numChunks, [&](size_t c) {
    Partial &p = partials[c];
    int64_t end = std::min<int64_t>(n, (c + 1) * kChunk);
    for (int64_t i = c * kChunk; i < end; ++i) {
      if (!expected.isComputed(i) || isUnwritten(i))
        continue;
      double a = got[i], e = want[i];
      if (std::isnan(a) || !std::isfinite(e))
        continue;
      double allowed = tolerance.elemRel * std::fabs(e) + bound;
      if (scaled)
        allowed += tolerance.elemScaled * expected.errorScale[i];
      if (std::fabs(a - e) > allowed) {
        if (p.mismatched++ == 0)
          p.firstMismatch = i;
      }
    }
  });
  int64_t firstMismatch = -1;
  for (const Partial &p : partials) {
    if (firstMismatch < 0)
      firstMismatch = p.firstMismatch;
    r.mismatched += p.mismatched;
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
      os << llvm::formatv(", scale {0:e3}", expected.errorScale[firstMismatch]);
    os << ")";
  }
  r.message = msg;
  r.passed = msg.empty();
  return r;
}

CheckResult hkg::rt::combineOutputChecks(std::vector<CheckResult> perOutput) {
  if (perOutput.size() == 1)
    return std::move(perOutput.front());
  CheckResult r;
  r.passed = true;
  std::string msg;
  llvm::raw_string_ostream os(msg);
  for (auto [i, out] : llvm::enumerate(perOutput)) {
    r.passed &= out.passed;
    r.checked += out.checked;
    r.unwritten += out.unwritten;
    r.nans += out.nans;
    r.mismatched += out.mismatched;
    r.normRelError = std::max(r.normRelError, out.normRelError);
    r.maxAbsError = std::max(r.maxAbsError, out.maxAbsError);
    if (out.message.empty())
      continue;
    if (!msg.empty())
      os << "; ";
    os << "output #" << i << ": " << out.message;
  }
  r.message = msg;
  r.outputs = std::move(perOutput);
  return r;
}

CheckResult hkg::rt::compareOutputs(llvm::ArrayRef<HostTensor> outputs,
                                    const ReferenceResult &expected,
                                    llvm::ArrayRef<Tolerance> tolerances) {
  if (outputs.size() != expected.outputs.size() ||
      outputs.size() != tolerances.size()) {
    CheckResult r;
    r.message = llvm::formatv("{0} output(s) for {1} expected tensor(s) and "
                              "{2} tolerance(s)",
                              outputs.size(), expected.outputs.size(),
                              tolerances.size());
    return r;
  }
  std::vector<CheckResult> perOutput;
  for (auto [i, actual] : llvm::enumerate(outputs))
    perOutput.push_back(
        compareTensors(actual, expected.outputs[i], tolerances[i]));
  return combineOutputChecks(std::move(perOutput));
}

llvm::Expected<CheckResult> hkg::rt::checkKernelOutputs(
    mlir::Operation *op, llvm::ArrayRef<HostTensor> inputs,
    llvm::ArrayRef<HostTensor> outputs, const ReferenceResult *reference) {
  llvm::Expected<const KernelModel &> model = getKernelModel(op);
  if (!model)
    return model.takeError();
  return checkKernelOutputs(*model, op, inputs, outputs, reference);
}

llvm::Expected<CheckResult>
hkg::rt::checkKernelOutputs(const KernelModel &model, mlir::Operation *op,
                            llvm::ArrayRef<HostTensor> inputs,
                            llvm::ArrayRef<HostTensor> outputs,
                            const ReferenceResult *reference) {
  if (outputs.size() != op->getNumResults())
    return llvm::createStringError(
        llvm::formatv("'{0}' has {1} result(s), got {2} output tensor(s)",
                      op->getName(), op->getNumResults(), outputs.size()));
  llvm::SmallVector<Tolerance> tolerances;
  for (auto [i, out] : llvm::enumerate(outputs))
    tolerances.push_back(getOpTolerance(model, op, out.getDType(), i));
  if (model.check) {
    CheckContext context{op, inputs, outputs,
                         model.checkUsesReference ? reference : nullptr,
                         tolerances};
    if (model.checkUsesReference && !reference)
      return llvm::createStringError(llvm::formatv(
          "the check of '{0}' needs its reference", op->getName()));
    return model.check(context);
  }
  if (!reference)
    return llvm::createStringError(llvm::formatv(
        "'{0}' is checked against its reference, and none was given",
        op->getName()));
  return compareOutputs(outputs, *reference, tolerances);
}
