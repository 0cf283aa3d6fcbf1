//===- RopeModel.cpp - the runtime model of hkg.rope ----------------------===//
//
// The reference rotates feature pairs (neox: (i, i + D/2); gptj: (2i,
// 2i + 1)) by table row `s + offset`: with half-width tables ([P, D/2]) both
// outputs of pair k use entry k, with full-width ones ([P, D]) each output
// uses the entry at its own feature index. The cos/sin operands are real
// RoPE tables (base 10000), not random numbers; a full-width table holds
// each pair's angle at both of its features' entries (Hugging Face's
// cat(freqs, freqs) for neox, interleaved for gptj).
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
  int64_t tableWidth = inputs[1].getShape()[1];
  bool full = op.hasFullWidthTables();
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
    int64_t tableRow = (si + offset) * tableWidth;
    for (int64_t i = 0; i < half; ++i) {
      int64_t ia = neox ? i : 2 * i, ib = neox ? i + half : 2 * i + 1;
      // The table entries of out_a and out_b.
      int64_t ta = full ? ia : i, tb = full ? ib : i;
      double a = x[base + ia], bb = x[base + ib];
      out[base + ia] = a * cosT[tableRow + ta] - bb * sinT[tableRow + ta];
      out[base + ib] = bb * cosT[tableRow + tb] + a * sinT[tableRow + tb];
    }
  });
  return result;
}

/// Fills `table` ([rows, D/2], or with `full` [rows, D]) with the cos or sin
/// of real RoPE angles: pair k's angle at entry k, or in a full-width table
/// at the entries of both its features (k and k + D/2 for neox, 2k and
/// 2k + 1 for gptj).
static void fillRopeTable(HostTensor &table, bool isSin, bool full, bool neox) {
  int64_t rows = table.getShape()[0], width = table.getShape()[1];
  int64_t half = full ? width / 2 : width;
  for (int64_t pos = 0; pos < rows; ++pos)
    for (int64_t e = 0; e < width; ++e) {
      int64_t pair = !full ? e : neox ? e % half : e / 2;
      double angle = pos * std::pow(10000.0, -static_cast<double>(pair) / half);
      table.set(pos * width + e, isSin ? std::sin(angle) : std::cos(angle));
    }
}

static llvm::Error ropeInputs(mlir::hkg::RopeOp op,
                              llvm::MutableArrayRef<InputRange> ranges) {
  bool full = op.hasFullWidthTables();
  bool neox = op.getLayout() == mlir::hkg::RopeLayout::Neox;
  ranges[1] = InputRange::custom(
      [=](HostTensor &t) { fillRopeTable(t, /*isSin=*/false, full, neox); });
  ranges[2] = InputRange::custom(
      [=](HostTensor &t) { fillRopeTable(t, /*isSin=*/true, full, neox); });
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
