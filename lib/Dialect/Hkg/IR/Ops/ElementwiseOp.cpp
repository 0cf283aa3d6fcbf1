//===- ElementwiseOp.cpp - hkg.elementwise and hkg.index verifiers --------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

SmallVector<AffineMap> ElementwiseOp::getInputMaps() {
  return resolveOperandMaps(getContext(), getInputs(), getIndexingMaps(),
                            getResult().getType().getShape());
}

LogicalResult ElementwiseOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  if (failed(verifyOperandMaps(*this, getInputs(), getIndexingMaps(),
                               getResult().getType().getShape(), "input",
                               "result")))
    return failure();
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

//===----------------------------------------------------------------------===//
// IndexOp
//===----------------------------------------------------------------------===//

LogicalResult IndexOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (auto reduce = dyn_cast<ReduceOp>(parent)) {
    if ((*this)->getParentRegion() != &reduce.getPrologue())
      return emitOpError("expected to be in the prologue of 'hkg.reduce' (the "
                         "epilogue computes one result from reduced values, "
                         "which have no index)");
    int64_t rank = reduce.getInput().getType().getRank();
    if (static_cast<int64_t>(getDim()) >= rank)
      return emitOpError("expected 'dim' in [0, ")
             << rank << ") for an input of rank " << rank << ", got "
             << getDim();
    return success();
  }
  int64_t rank = cast<ElementwiseOp>(parent).getResult().getType().getRank();
  if (static_cast<int64_t>(getDim()) >= rank)
    return emitOpError("expected 'dim' in [0, ")
           << rank << ") for a result of rank " << rank << ", got " << getDim();
  return success();
}
