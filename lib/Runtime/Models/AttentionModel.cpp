//===- AttentionModel.cpp - the runtime model of hkg.attention ------------===//
//
// The float64 reference (scale or 1/sqrt(D), causal with j <= i + (Skv -
// Sq), GQA head h / (Hq / Hkv); a fully masked row is 0), computed on an
// even spread of rows under ReferenceOptions::maxMultiplyAdds. It also
// returns each element's error scale sum_j p_ij |v_jc|, which the tolerance
// multiplies by 2 u_in, u_in the unit roundoff of the operands' type (2^-8
// bf16, 2^-11 f16, 2^-24 f32): the kernel rounds the probabilities P to that
// type for the P V product (as FlashAttention and PyTorch's SDPA do), which
// moves an output by up to u_in sum_j p_ij |v_jc| -- an absolute error set by
// V's scale, not by the output's own (late causal rows average thousands of
// keys and are small). The floor of 16-bit attention uses the matrix-core
// peak.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <algorithm>
#include <cmath>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;

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
      output.errorScale[row * dv + c] = errScale[c];
    }
  });
  return result;
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
    m.tolerance = attentionTolerance;
    m.usesMatrixCorePeak = true;
    return m;
  }();
  return model;
}
