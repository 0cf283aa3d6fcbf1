//===- RopeModel.cpp - the runtime model of hkg.rope ----------------------===//
//
// The reference rotates feature pairs (neox: (i, i + D/2); gptj: (2i,
// 2i + 1)) by table row `s + offset`. The cos/sin operands are real RoPE
// tables (base 10000), not random numbers.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;

static Expected<ReferenceResult> ropeReference(mlir::hkg::RopeOp op,
                                               ArrayRef<HostTensor> inputs,
                                               const ReferenceOptions &) {
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
  ReferenceResult result = makeF64Result(shape);
  double *out = result.outputs.front().tensor.getF64Data();
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

/// Fills `table` ([rows, D/2]) with the cos or sin of real RoPE angles.
static void fillRopeTable(HostTensor &table, bool isSin) {
  int64_t rows = table.getShape()[0], half = table.getShape()[1];
  for (int64_t pos = 0; pos < rows; ++pos)
    for (int64_t i = 0; i < half; ++i) {
      double angle = pos * std::pow(10000.0, -static_cast<double>(i) / half);
      table.set(pos * half + i, isSin ? std::sin(angle) : std::cos(angle));
    }
}

static llvm::Error ropeInputs(mlir::hkg::RopeOp,
                              llvm::MutableArrayRef<InputRange> ranges) {
  ranges[1] = InputRange::custom(
      [](HostTensor &t) { fillRopeTable(t, /*isSin=*/false); });
  ranges[2] = InputRange::custom(
      [](HostTensor &t) { fillRopeTable(t, /*isSin=*/true); });
  return llvm::Error::success();
}

const KernelModel &hkg::rt::getRopeModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::RopeOp>(ropeReference);
    m.inputs = inputsOf<mlir::hkg::RopeOp>(ropeInputs);
    return m;
  }();
  return model;
}
