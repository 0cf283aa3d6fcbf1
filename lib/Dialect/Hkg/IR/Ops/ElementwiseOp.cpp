//===- ElementwiseOp.cpp - hkg.elementwise verifier -----------------------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

LogicalResult ElementwiseOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  ArrayRef<int64_t> out = getResult().getType().getShape();
  for (auto [i, in] : llvm::enumerate(getInputs())) {
    if (!isSuffix(shapeOf(in), out)) {
      InFlightDiagnostic diag = emitOpError("expected input #");
      diag << i << " of shape " << shapeStr(shapeOf(in))
           << " to be a suffix of the result shape " << shapeStr(out);
      return diag;
    }
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("expected the body to have one argument per input (")
           << getInputs().size() << "), got " << body.getNumArguments();
  for (auto [i, in] : llvm::enumerate(getInputs()))
    if (body.getArgument(i).getType() != elementTypeOf(in))
      return emitOpError("expected body argument #")
             << i << " to be " << elementTypeOf(in)
             << " (the element type of input #" << i << "), got "
             << body.getArgument(i).getType();
  if (failed(verifyScalarBody(*this, body)))
    return failure();
  return verifyYieldsElement(*this, body,
                             getResult().getType().getElementType(), "body");
}
