//===- ElementwiseOp.cpp - hkg.elementwise and hkg.index verifiers --------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/DynamicDims.h"

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

/// The result dims a map's results follow (-1 for a constant: a
/// broadcast size-1 dim).
static SmallVector<int64_t> followedDims(AffineMap map) {
  return llvm::map_to_vector(map.getResults(), [](AffineExpr e) -> int64_t {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return d.getPosition();
    return -1;
  });
}

SmallVector<int64_t> ElementwiseOp::getDynamicResultDims() {
  // The innermost dim of a result of rank >= 2 stays static: vectors that
  // must stay within one row need its extent (ElementwiseSchedules.cpp). A
  // rank-0 result has no dims at all.
  int64_t rank = getResult().getType().getRank();
  return llvm::to_vector(llvm::seq<int64_t>(0, rank <= 1 ? rank : rank - 1));
}

SmallVector<int64_t> ElementwiseOp::getResultDimsOfOperand(unsigned operand) {
  return followedDims(getInputMaps()[operand]);
}

LogicalResult ElementwiseOp::verify() {
  if (failed(verifyKernelShapes(*this, /*allowDynamic=*/true)))
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
  if (failed(verifyYieldsElement(
          *this, body, getResult().getType().getElementType(), "body")))
    return failure();
  return verifyDynamicDims(*this);
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
