//===- MatmulW4A16Op.cpp - hkg.matmul_w4a16 verifier ----------------------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

LogicalResult MatmulW4A16Op::verify() {
  if (failed(verifyKernelShapes(*this)))
    return failure();
  for (auto [name, v] : {std::pair<StringRef, Value>{"input", getInput()},
                         {"weights", getWeights()},
                         {"scales", getScales()},
                         {"zeros", getZeros()},
                         {"result", getResult()}}) {
    int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
    if (rank != 2)
      return emitOpError("expected '")
             << name << "' of rank 2, got rank " << rank;
  }
  int64_t m = getM(), k = getK(), n = getN();
  int64_t g = getGroupSize();
  if (g != 32 && g != 64 && g != 128)
    return emitOpError("expected 'group_size' of 32, 64 or 128, got ") << g;
  if (k % g != 0)
    return emitOpError("expected K (")
           << k << ", the input's dim 1) to be a multiple of 'group_size' ("
           << g << ")";
  auto expectShape = [&](StringRef name, Value v, ArrayRef<int64_t> expected,
                         StringRef what) -> LogicalResult {
    if (shapeOf(v) == expected)
      return success();
    return emitOpError("expected '")
           << name << "' of shape " << shapeStr(expected) << " (" << what
           << "), got " << shapeStr(shapeOf(v));
  };
  if (failed(expectShape("weights", getWeights(), {n, k / 2},
                         "[N, K / 2]: two int4 values per byte along K")) ||
      failed(expectShape("scales", getScales(), {n, k / g},
                         "[N, K / group_size]")) ||
      failed(expectShape("zeros", getZeros(), {n, k / g},
                         "[N, K / group_size]")) ||
      failed(expectShape("result", getResult(), {m, n}, "[M, N]")))
    return failure();
  Type act = getInput().getType().getElementType();
  if (getScales().getType().getElementType() != act)
    return emitOpError("expected 'scales' of the input's element type ")
           << act << ", got " << getScales().getType().getElementType();
  return success();
}
