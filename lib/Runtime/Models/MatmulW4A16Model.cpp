//===- MatmulW4A16Model.cpp - the runtime model of hkg.matmul_w4a16 -------===//
//
// The float64 reference multiplies the activations with the dequantized
// weights, (q - zero) * scale for each int4 value q (docs/ABI.md, "Packed
// int4 weights"), on an even spread of activation rows when the whole
// product would exceed ReferenceOptions::maxMultiplyAdds. Inputs: every
// byte of the packed weights uniform (both nibbles uniform in 0..15), zero
// points uniform in 0..15, positive scales of about 1 / (4 sqrt(K)) so that
// each output is O(1) whatever K is, activations uniform(-1, 1).
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

/// The int4 value k of a packed weight row (`bytes` as doubles of i8):
/// the low nibble of byte k / 2 for even k, the high nibble for odd k.
static int unpackInt4(const double *bytes, int64_t k) {
  int byte = static_cast<int>(bytes[k / 2]) & 0xff;
  return (k % 2 == 0) ? (byte & 0xf) : (byte >> 4);
}

static Expected<ReferenceResult>
matmulW4A16Reference(mlir::hkg::MatmulW4A16Op op, ArrayRef<HostTensor> inputs,
                     const ReferenceOptions &options) {
  int64_t m = op.getM(), n = op.getN(), k = op.getK();
  int64_t g = op.getGroupSize(), groups = op.getNumGroups();
  std::vector<double> x = toDoubles(inputs[0]), w = toDoubles(inputs[1]),
                      scales = toDoubles(inputs[2]),
                      zeros = toDoubles(inputs[3]);
  ReferenceResult result = makeF64Result(shapeOf(op.getResult()));
  ExpectedOutput &output = result.outputs.front();
  std::vector<int64_t> rows = pickRows(m, static_cast<double>(n) * k, options);
  markRows(output, rows, m, n);
  double *out = output.tensor.getF64Data();
  // One weight row at a time: dequantize it, then its dot product with
  // every chosen activation row.
  forEach(n, [&](int64_t j) {
    std::vector<double> row(k);
    const double *packed = w.data() + j * (k / 2);
    for (int64_t kk = 0; kk < k; ++kk) {
      int64_t group = j * groups + kk / g;
      double zero = static_cast<double>(static_cast<int>(zeros[group]));
      row[kk] = (unpackInt4(packed, kk) - zero) * scales[group];
    }
    for (int64_t i : rows) {
      const double *a = x.data() + i * k;
      double sum = 0.0;
      for (int64_t kk = 0; kk < k; ++kk)
        sum += a[kk] * row[kk];
      out[i * n + j] = sum;
    }
  });
  return result;
}

static llvm::Error matmulW4A16Inputs(mlir::hkg::MatmulW4A16Op op,
                                     llvm::MutableArrayRef<InputRange> ranges) {
  // i8 is filled by truncation then wrapped to a byte (HostTensor::set):
  // uniform(0, 256) draws every byte, uniform(0, 16) every zero point.
  ranges[1] = InputRange::uniform(0.0, 256.0);
  double s = 1.0 / (4.0 * std::sqrt(static_cast<double>(op.getK())));
  ranges[2] = InputRange::uniform(0.5 * s, 1.5 * s);
  ranges[3] = InputRange::uniform(0.0, 16.0);
  return llvm::Error::success();
}

/// The dequantized weights enter the matrix cores (or the FMAs) in the
/// activations' 16-bit type, as in every W4A16 kernel: whatever the output
/// type, a result is as exact as a product of 16-bit operands, so an f32
/// output is judged by the activation type's tolerance (the reference uses
/// the exact dequantized values).
static void matmulW4A16Tolerance(mlir::Operation *op, unsigned,
                                 Tolerance &tolerance) {
  auto w4a16 = mlir::cast<mlir::hkg::MatmulW4A16Op>(op);
  std::optional<DType> in =
      getDTypeFor(w4a16.getInput().getType().getElementType());
  if (!in)
    return;
  Tolerance operand = getDefaultTolerance(*in);
  tolerance.normRel = std::max(tolerance.normRel, operand.normRel);
  tolerance.elemRel = std::max(tolerance.elemRel, operand.elemRel);
  tolerance.elemAbs = std::max(tolerance.elemAbs, operand.elemAbs);
}

const KernelModel &hkg::rt::getMatmulW4A16Model() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::MatmulW4A16Op>(matmulW4A16Reference);
    m.inputs = inputsOf<mlir::hkg::MatmulW4A16Op>(matmulW4A16Inputs);
    m.tolerance = matmulW4A16Tolerance;
    return m;
  }();
  return model;
}
