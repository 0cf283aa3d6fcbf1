//===- RopeOp.cpp - hkg.rope accessors and verifier -----------------------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// RopeOp
//===----------------------------------------------------------------------===//

bool RopeOp::hasFullWidthTables() {
  return getCos().getType().getDimSize(1) == getInput().getType().getDimSize(3);
}

LogicalResult RopeOp::verify() {
  if (failed(verifyKernelShapes(*this)))
    return failure();
  auto in = getInput().getType();
  if (in.getRank() != 4)
    return emitOpError("expected 'input' of rank 4 [B, S, H, D], got rank ")
           << in.getRank();
  int64_t s = in.getDimSize(1), d = in.getDimSize(3);
  if (d % 2 != 0)
    return emitOpError("expected the head dim D to be even, got ") << d;
  if (getCos().getType() != getSin().getType())
    return emitOpError("expected 'cos' and 'sin' of the same type, got ")
           << getCos().getType() << " and " << getSin().getType();
  auto tab = getCos().getType();
  int64_t need = s + getOffset();
  if (tab.getRank() != 2 ||
      (tab.getDimSize(1) != d / 2 && tab.getDimSize(1) != d) ||
      tab.getDimSize(0) < need) {
    InFlightDiagnostic diag = emitOpError("expected 'cos' and 'sin' of shape "
                                          "[P, ");
    diag << d / 2 << "] or [P, " << d << "] with P >= S + offset = " << need
         << ", got " << shapeStr(tab.getShape());
    return diag;
  }
  if (in != getResult().getType())
    return emitOpError("expected the result type to equal the input type ")
           << in << ", got " << getResult().getType();
  return success();
}
