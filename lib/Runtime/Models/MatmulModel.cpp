//===- MatmulModel.cpp - the runtime model of hkg.matmul ------------------===//
//
// The float64 reference of a (batched, optionally transposed) matmul and its
// epilogue, computed on an even spread of rows when the full product would
// exceed ReferenceOptions::maxMultiplyAdds from the operands' exact values
// (8-bit floats decoded, i8 as integers). Inputs are uniform [-1, 1); the
// floor of a 16-bit matmul uses the matrix-core peak.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"
#include "Models.h"

#include "hkg/Runtime/ScalarInterpreter.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace hkg::rt;
using namespace hkg::rt::models;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::SmallVector;

/// acc[j] = sum_k a(i, k) * w(k, j) for one output row, w given as [N, K]:
/// one contiguous dot product per output, summed over k in the same order
/// as the [K, N] layout (so the same bits), instead of a K-strided walk down
/// W's columns for every k (a cache miss per multiply-add).
static void dotRowTransposedB(ArrayRef<double> aRow, const double *w, int64_t n,
                              int64_t k, std::vector<double> &acc) {
  // Eight outputs at a time: eight independent sums in flight, each still
  // accumulated in k order.
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
}

static Expected<ReferenceResult>
matmulReference(mlir::hkg::MatmulOp op, ArrayRef<HostTensor> inputs,
                const ReferenceOptions &options) {
  int64_t batch = op.getBatchSize(), m = op.getM(), n = op.getN(),
          k = op.getK();
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  std::vector<double> lhs = toDoubles(inputs[0]), rhs = toDoubles(inputs[1]);
  // Epilogue operands are read through their [batch, M or 1, N or 1] views
  // (MatmulOp::getEpilogueViews): the element of (b, i, j) is at
  // ((b mod batch) * rows + (rows == 1 ? 0 : i)) * cols + (cols == 1 ? 0 :
  // j).
  SmallVector<std::vector<double>> epilogue;
  SmallVector<std::array<int64_t, 3>> views = op.getEpilogueViews();
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

  ReferenceResult result = makeF64Result(shapeOf(op.getResult()));
  ExpectedOutput &output = result.outputs.front();
  std::vector<int64_t> rows =
      pickRows(batch * m, static_cast<double>(n) * k, options);
  markRows(output, rows, batch * m, n);
  double *out = output.tensor.getF64Data();
  forEach(rows.size(), [&](int64_t r) {
    int64_t row = rows[r];
    std::optional<ScalarProgram> local = program; // evaluate() is stateful
    SmallVector<double> args(1 + epilogue.size());
    std::vector<double> acc(n, 0.0);
    int64_t b = row / m, i = row % m;
    const double *a = lhs.data() + b * m * k;
    const double *w = rhs.data() + b * k * n;
    if (tb) {
      std::vector<double> aRow(k);
      for (int64_t kk = 0; kk < k; ++kk)
        aRow[kk] = ta ? a[kk * m + i] : a[i * k + kk];
      dotRowTransposedB(aRow, w, n, k, acc);
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
        for (auto [e, values] : llvm::enumerate(epilogue)) {
          auto [vb, vr, vc] = views[e];
          int64_t at = (b % vb) * vr + (vr == 1 ? 0 : i);
          args[1 + e] = values[at * vc + (vc == 1 ? 0 : j)];
        }
        v = local->evaluate(args);
      }
      out[flat] = v;
    }
  });
  return result;
}

/// A uniform(-1, 1) and B drawn like an initialized layer's weights
/// (variance 1 / (3 K)): each output is O(1) whatever K is, so that a
/// launch plan's later kernels (a softmax over attention scores, a norm)
/// see the magnitudes a model gives them, not ones that grow with every
/// matmul. The epilogue's inputs keep uniform(-1, 1).
///
/// 8-bit operands are the exact values of their type, and the reference
/// multiplies those: i8 operands uniform in (-8, 8), truncated to -7..7
/// (|sum| <= 49 K, exact in i32 up to K = 2^25); fp8 operands both
/// uniform(-1, 1) rounded to the format (products at most 1, far from
/// e4m3's 448 and e5m2's 57344; most draws normal numbers, whose 3 or 2
/// mantissa bits would round a 1 / sqrt(K) range to a few values).
static llvm::Error matmulInputs(mlir::hkg::MatmulOp op,
                                llvm::MutableArrayRef<InputRange> ranges) {
  mlir::Type elem = op.getLhs().getType().getElementType();
  if (elem.getIntOrFloatBitWidth() == 8 && ranges.size() > 1) {
    double r = elem.isInteger(8) ? 8.0 : 1.0;
    ranges[0] = ranges[1] = InputRange::uniform(-r, r);
    return llvm::Error::success();
  }
  int64_t k = op.getK();
  if (k > 0 && ranges.size() > 1) {
    double r = 1.0 / std::sqrt(static_cast<double>(k));
    ranges[1] = InputRange::uniform(-r, r);
  }
  return llvm::Error::success();
}

/// fp8 operands summed on sm_90's warpgroup MMAs (the schedule's `mma` is
/// wgmma_*): the tensor core keeps fp8 sums in an accumulator of about 13
/// bits, so an f32 result is judged by bf16's tolerance (docs/Runtime.md,
/// "8-bit operands": hkg's norm-wise errors at 8192^3 2.1e-3 with fast
/// accumulation and 1.3e-4 promoted, its largest ones equal to cuBLAS's in
/// either mode). 16-bit results keep their own rows (their rounding
/// dominates), and paths that sum in f32 (mma = none, AMD's MFMA) f32's.
static void matmulTolerance(mlir::Operation *op, unsigned,
                            Tolerance &tolerance) {
  auto mm = mlir::cast<mlir::hkg::MatmulOp>(op);
  mlir::Type in = mm.getLhs().getType().getElementType();
  if (!mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(in) ||
      !mm.getResult().getType().getElementType().isF32())
    return;
  mlir::hkg::ScheduleAttr schedule = mm.getScheduleAttr();
  std::optional<llvm::StringRef> mma =
      schedule ? schedule.getKeyword(mlir::hkg::kMma.name) : std::nullopt;
  if (!mma || mlir::hkg::MmaInstruction::parse(*mma).family !=
                  mlir::hkg::MmaFamily::Wgmma)
    return;
  Tolerance sums = getDefaultTolerance(DType::BF16);
  tolerance.normRel = std::max(tolerance.normRel, sums.normRel);
  tolerance.elemRel = std::max(tolerance.elemRel, sums.elemRel);
  tolerance.elemAbs = std::max(tolerance.elemAbs, sums.elemAbs);
}

const KernelModel &hkg::rt::getMatmulModel() {
  static const KernelModel model = [] {
    KernelModel m;
    m.reference = referenceOf<mlir::hkg::MatmulOp>(matmulReference);
    m.inputs = inputsOf<mlir::hkg::MatmulOp>(matmulInputs);
    m.tolerance = matmulTolerance;
    m.usesMatrixCorePeak = true;
    return m;
  }();
  return model;
}
