//===- TopKModel.cpp - the runtime model of hkg.topk ----------------------===//
//
// The reference sorts each slice, largest first (NaN above every number),
// ties by position, and keeps k. The check does not ask the kernel for the
// reference's positions among equal values (the op leaves their order
// open): the values must equal the reference's exactly, and the positions
// must be distinct, in range, and hold those values.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Runtime/Check.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <numeric>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;

namespace {
/// The slices of a top-k: `outer` x `inner` slices of `length` elements,
/// element j of slice (o, n) at o * length * inner + j * inner + n.
struct Slices {
  int64_t outer = 1, length = 1, inner = 1, k = 1;

  explicit Slices(mlir::hkg::TopKOp op) {
    ArrayRef<int64_t> shape = op.getInput().getType().getShape();
    int64_t axis = op.getAxis();
    length = shape[axis];
    for (int64_t d : shape.take_front(axis))
      outer *= d;
    for (int64_t d : shape.drop_front(axis + 1))
      inner *= d;
    k = op.getK();
  }
  int64_t count() const { return outer * inner; }
  int64_t at(int64_t slice, int64_t j, int64_t size) const {
    return (slice / inner) * size * inner + j * inner + slice % inner;
  }
};

/// a before b: larger first, NaN above every number.
bool before(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && !std::isnan(b);
  return a > b;
}

bool same(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

/// `v` as the shortest decimal that reads back as it ("7", "0.1").
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  for (int digits = 1; digits < 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof(shorter), "%.*g", digits, v);
    if (std::strtod(shorter, nullptr) == v || std::isnan(v))
      return shorter;
  }
  return buf;
}
} // namespace

static Expected<ReferenceResult> topKReference(mlir::hkg::TopKOp op,
                                               ArrayRef<HostTensor> inputs,
                                               const ReferenceOptions &) {
  Slices s(op);
  std::vector<double> x = toDoubles(inputs[0]);
  ArrayRef<int64_t> outShape = shapeOf(op.getValues());
  ReferenceResult result;
  result.outputs.push_back({HostTensor(DType::F64, outShape), {}, {}});
  result.outputs.push_back({HostTensor(DType::F64, outShape), {}, {}});
  double *values = result.outputs[0].tensor.getF64Data();
  double *positions = result.outputs[1].tensor.getF64Data();
  forEach(s.count(), [&](int64_t slice) {
    std::vector<int64_t> order(s.length);
    std::iota(order.begin(), order.end(), 0);
    auto value = [&](int64_t j) { return x[s.at(slice, j, s.length)]; };
    std::partial_sort(order.begin(), order.begin() + s.k, order.end(),
                      [&](int64_t a, int64_t b) {
                        if (before(value(a), value(b)))
                          return true;
                        if (before(value(b), value(a)))
                          return false;
                        return a < b;
                      });
    for (int64_t j = 0; j < s.k; ++j) {
      values[s.at(slice, j, s.k)] = value(order[j]);
      positions[s.at(slice, j, s.k)] = static_cast<double>(order[j]);
    }
  });
  return result;
}

static CheckResult checkTopK(const CheckContext &c) {
  auto op = llvm::cast<mlir::hkg::TopKOp>(c.op);
  Slices s(op);
  const HostTensor &in = c.inputs[0];
  const HostTensor &values = c.outputs[0], &positions = c.outputs[1];
  const HostTensor &expected = c.reference->outputs[0].tensor;
  uint64_t valuePoison = getPoisonBits(values.getDType());
  uint64_t positionPoison = getPoisonBits(positions.getDType());
  CheckResult r;
  std::string msg;
  llvm::raw_string_ostream os(msg);
  auto fail = [&](int64_t slice, int64_t j, const llvm::Twine &what) {
    ++r.mismatched;
    if (msg.empty()) // the first failure; the counts say the rest
      os << "slice " << slice << ", rank " << j << ": " << what;
  };
  for (int64_t slice = 0; slice < s.count(); ++slice) {
    llvm::DenseSet<int64_t> seen;
    for (int64_t j = 0; j < s.k; ++j) {
      int64_t i = s.at(slice, j, s.k);
      if (values.getBits(i) == valuePoison ||
          positions.getBits(i) == positionPoison) {
        ++r.unwritten;
        if (msg.empty())
          os << "slice " << slice << ", rank " << j << ": never written";
        continue;
      }
      ++r.checked;
      double v = values.get(i), want = expected.get(i);
      if (std::isnan(v))
        ++r.nans;
      if (!same(v, want)) {
        fail(slice, j, "value " + num(v) + ", expected " + num(want));
        r.maxAbsError = std::max(r.maxAbsError, std::fabs(v - want));
        continue;
      }
      double p = positions.get(i);
      if (p < 0 || p >= s.length || p != std::floor(p)) {
        fail(slice, j, llvm::formatv("position {0} outside [0, {1})", num(p),
                                     s.length));
        continue;
      }
      int64_t pos = static_cast<int64_t>(p);
      if (!seen.insert(pos).second) {
        fail(slice, j, llvm::formatv("position {0} repeated", pos));
        continue;
      }
      double at = in.get(s.at(slice, pos, s.length));
      if (!same(at, v))
        fail(slice, j,
             llvm::formatv("position {0} holds {1}, not the value {2}", pos,
                           num(at), num(v)));
    }
  }
  r.passed = r.unwritten == 0 && r.mismatched == 0;
  if (!r.passed)
    r.message = msg;
  return r;
}

const KernelModel &hkg::rt::getTopKModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::TopKOp>(topKReference);
    m.check = checkTopK;
    return m;
  }();
  return model;
}
