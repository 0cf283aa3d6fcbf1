//===- AttentionModel.cpp - the runtime model of hkg.attention ------------===//
//
// The float64 reference (scale or 1/sqrt(D), the additive mask broadcast
// from its [B|1, Hq|1, Sq|1, Skv|1], causal with j <= i + (Skv - Sq), GQA
// head h / (Hq / Hkv); a fully masked row is 0; operands in the op's bhsd or
// bshd layout), computed on an even spread of rows under
// ReferenceOptions::maxMultiplyAdds. It also returns each element's error
// scale sum_j p_ij |v_jc|, which the tolerance multiplies by 2 u_in, u_in
// the unit roundoff of the operands' type (2^-8 bf16, 2^-11 f16, 2^-24 f32):
// the kernel rounds the probabilities P to that type for the P V product (as
// FlashAttention and PyTorch's SDPA do), which moves an output by up to
// u_in sum_j p_ij |v_jc| -- an absolute error set by V's scale, not by the
// output's own (late causal rows average thousands of keys and are small).
// The floor of 16-bit attention uses the matrix-core peak.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Runtime/RandomInputs.h"

#include <algorithm>
#include <cmath>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;

static Expected<ReferenceResult>
attentionReference(mlir::hkg::AttentionOp op, ArrayRef<HostTensor> inputs,
                   const ReferenceOptions &options) {
  mlir::hkg::AttentionOp::Shape shape = op.getShape();
  int64_t b = shape.batch, hq = shape.qHeads, sq = shape.qLen,
          d = shape.headDim;
  int64_t hkv = shape.kvHeads, skv = shape.kvLen, dv = shape.valueDim;
  int64_t group = hq / hkv;
  // bshd stores [B, S, H, D]: consecutive rows of one sequence are H rows
  // apart, and the rows of one position's heads are adjacent.
  bool seqMajor = op.getLayoutOrDefault() == mlir::hkg::AttentionLayout::Bshd;
  double scale = op.getEffectiveScale();
  bool causal = op.getCausal();
  std::vector<double> q = toDoubles(inputs[0]), k = toDoubles(inputs[1]),
                      v = toDoubles(inputs[2]);
  // The mask's strides, 0 along its broadcast dims.
  std::vector<double> mask;
  int64_t maskStride[4] = {0, 0, 0, 0};
  if (mlir::Value m = op.getMask()) {
    mask = toDoubles(inputs[3]);
    llvm::ArrayRef<int64_t> dims =
        mlir::cast<mlir::RankedTensorType>(m.getType()).getShape();
    int64_t stride = 1;
    for (int dim = 3; dim >= 0; --dim) {
      maskStride[dim] = dims[dim] == 1 ? 0 : stride;
      stride *= dims[dim];
    }
  }
  ReferenceResult result = makeF64Result(shapeOf(op.getResult()));
  ExpectedOutput &output = result.outputs.front();
  int64_t numRows = b * hq * sq;
  std::vector<int64_t> rows =
      pickRows(numRows, static_cast<double>(skv) * (d + dv), options);
  markRows(output, rows, numRows, dv);
  output.errorScale.assign(numRows * dv, 0.0);
  double *outData = output.tensor.getF64Data();
  forEach(rows.size(), [&](int64_t r) {
    int64_t row = rows[r];
    std::vector<double> scores(skv), out(dv), errScale(dv);
    // `row` counts the result's rows of Dv elements in memory order.
    int64_t i = seqMajor ? (row / hq) % sq : row % sq;
    int64_t h = seqMajor ? row % hq : (row / sq) % hq;
    int64_t bi = row / (sq * hq);
    int64_t kh = h / group;
    // Key/value row j of head kh is at (kvBase + j * kvStride) rows.
    int64_t kvBase = seqMajor ? bi * skv * hkv + kh : (bi * hkv + kh) * skv;
    int64_t kvStride = seqMajor ? hkv : 1;
    const double *qr = q.data() + row * d;
    auto kr = [&](int64_t j) { return k.data() + (kvBase + j * kvStride) * d; };
    auto vr = [&](int64_t j) {
      return v.data() + (kvBase + j * kvStride) * dv;
    };
    int64_t last = causal ? std::min(skv - 1, i + (skv - sq)) : skv - 1;
    std::fill(out.begin(), out.end(), 0.0);
    const double *maskRow = mask.empty()
                                ? nullptr
                                : mask.data() + bi * maskStride[0] +
                                      h * maskStride[1] + i * maskStride[2];
    double mx = -INFINITY;
    for (int64_t j = 0; j <= last; ++j) {
      const double *kj = kr(j);
      double dot = 0;
      for (int64_t c = 0; c < d; ++c)
        dot += qr[c] * kj[c];
      scores[j] = dot * scale;
      if (maskRow)
        scores[j] += maskRow[j * maskStride[3]];
      mx = std::max(mx, scores[j]);
    }
    // A row that sees no key (causal, or a mask of -inf) stays 0.
    if (mx > -INFINITY) {
      double sum = 0;
      for (int64_t j = 0; j <= last; ++j) {
        scores[j] = std::exp(scores[j] - mx);
        sum += scores[j];
      }
      for (int64_t j = 0; j <= last; ++j) {
        double p = scores[j] / sum;
        const double *vj = vr(j);
        for (int64_t c = 0; c < dv; ++c) {
          out[c] += p * vj[c];
          errScale[c] += p * std::fabs(vj[c]);
        }
      }
    }
    for (int64_t c = 0; c < dv; ++c) {
      outData[row * dv + c] = out[c];
      output.errorScale[row * dv + c] = errScale[c];
    }
  });
  return result;
}

/// A mask's rows (its last dim) as an attention mask sees them: a window of
/// visible keys (the full row, or cut at either end) holding scores in
/// [-3, 1) with a few -inf inside it, 1 row in 16 fully -inf (that query
/// sees no key: its result is 0) and 1 in 16 fully the type's lowest finite
/// value (Hugging Face's padding: every key equally weighted). So that a
/// key/value block may be fully hidden at the start of a row, after visible
/// blocks, or everywhere.
static void fillMask(HostTensor &t) {
  RandomStream stream(0x6d61736b);
  int64_t cols = t.getShape().empty() ? 1 : t.getShape().back();
  int64_t rows = cols == 0 ? 0 : t.getNumElements() / cols;
  DType type = t.getDType();
  double lowest = type == DType::F16    ? -65504.0
                  : type == DType::BF16 ? -3.3895313892515355e38
                                        : -3.4028234663852886e38;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t lo = 0, hi = cols;
    double kind = stream.uniform(0, 1);
    if (kind < 1.0 / 16) {
      for (int64_t j = 0; j < cols; ++j)
        t.set(r * cols + j, lowest);
      continue;
    }
    bool hidden = kind < 2.0 / 16;
    if (stream.uniform(0, 1) < 0.5)
      lo = static_cast<int64_t>(stream.uniform(0, cols / 2.0));
    if (stream.uniform(0, 1) < 0.5)
      hi = cols - static_cast<int64_t>(stream.uniform(0, cols / 2.0));
    for (int64_t j = 0; j < cols; ++j) {
      bool visible =
          !hidden && j >= lo && j < hi && stream.uniform(0, 1) >= 1.0 / 16;
      t.set(r * cols + j, visible ? stream.uniform(-3, 1) : -INFINITY);
    }
  }
}

static llvm::Error attentionInputs(mlir::hkg::AttentionOp op,
                                   llvm::MutableArrayRef<InputRange> ranges) {
  if (op.getMask())
    ranges[3] = InputRange::custom(fillMask);
  return llvm::Error::success();
}

/// Adds 2 u_in to the error-scale term (see the file header).
static void attentionTolerance(mlir::Operation *op, unsigned,
                               Tolerance &tolerance) {
  auto attention = mlir::cast<mlir::hkg::AttentionOp>(op);
  mlir::Type in = attention.getQuery().getType().getElementType();
  int mantissa = in.isBF16() ? 8 : in.isF16() ? 11 : 24;
  tolerance.elemScaled = 2 * std::ldexp(1.0, -mantissa);
}

const KernelModel &hkg::rt::getAttentionModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::AttentionOp>(attentionReference);
    m.inputs = inputsOf<mlir::hkg::AttentionOp>(attentionInputs);
    m.tolerance = attentionTolerance;
    m.usesMatrixCorePeak = true;
    return m;
  }();
  return model;
}
