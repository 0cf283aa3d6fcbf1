//===- TopPSampleOp.cpp - hkg.top_p_sample verifier -----------------------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// TopPSampleOp
//===----------------------------------------------------------------------===//

LogicalResult TopPSampleOp::verify() {
  if (failed(verifyKernelShapes(*this)))
    return failure();
  auto logits = getLogits().getType();
  if (logits.getRank() != 2)
    return emitOpError("expected 'logits' of rank 2 [B, V], got rank ")
           << logits.getRank();
  int64_t b = logits.getDimSize(0);
  float p = getP().convertToFloat();
  if (!(p > 0.0f && p <= 1.0f))
    return emitOpError("expected 'p' in (0, 1], got ") << p;
  float t = getTemperature().convertToFloat();
  if (!(t > 0.0f) || !std::isfinite(t))
    return emitOpError("expected 'temperature' > 0 and finite, got ") << t;
  bool hasSeed = getSeed().has_value(), hasUniform = bool(getUniform());
  if (hasSeed == hasUniform)
    return emitOpError("expected exactly one of 'seed' and 'uniform', got ")
           << (hasSeed ? "both" : "neither");
  if (hasUniform) {
    auto u = cast<RankedTensorType>(getUniform().getType());
    if (u.getRank() != 1 || u.getDimSize(0) != b ||
        !u.getElementType().isF32())
      return emitOpError("expected 'uniform' of type tensor<")
             << b << "xf32>, got " << u;
  }
  auto res = getResult().getType();
  if (res.getRank() != 1 || res.getDimSize(0) != b)
    return emitOpError("expected the result of type tensor<")
           << b << "xi32>, got " << res;
  return success();
}
