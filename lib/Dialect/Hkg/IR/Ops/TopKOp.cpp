//===- TopKOp.cpp - hkg.topk verifier -------------------------------------===//

#include "../VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

LogicalResult TopKOp::verify() {
  if (failed(verifyKernelShapes(*this)))
    return failure();
  auto in = getInput().getType();
  if (in.getRank() < 1)
    return emitOpError("expected 'input' of rank >= 1, got rank 0");
  int64_t axis = getAxis();
  if (axis >= in.getRank())
    return emitOpError("expected 'axis' in [0, ")
           << in.getRank() - 1 << "], got " << axis;
  int64_t length = in.getDimSize(axis), k = getK();
  if (k > length)
    return emitOpError("expected 'k' <= the size of axis ")
           << axis << " (" << length << "), got " << k;
  SmallVector<int64_t> expected = llvm::to_vector(in.getShape());
  expected[axis] = k;
  for (auto [name, v] : {std::pair<StringRef, Value>{"values", getValues()},
                         {"indices", getIndices()}}) {
    ArrayRef<int64_t> shape = shapeOf(v);
    if (shape != ArrayRef<int64_t>(expected)) {
      InFlightDiagnostic diag = emitOpError("expected '")
                                << name << "' of shape " << shapeStr(expected)
                                << " (the input's, with axis " << axis
                                << " of size k), got ";
      diag << shapeStr(shape);
      return diag;
    }
  }
  if (getValues().getType().getElementType() != in.getElementType())
    return emitOpError("expected 'values' of the input's element type ")
           << in.getElementType() << ", got "
           << getValues().getType().getElementType();
  if (getIndices().getType().getElementType().isInteger(32) &&
      length > std::numeric_limits<int32_t>::max())
    return emitOpError("axis ")
           << axis << " has " << length
           << " positions, more than i32 'indices' can hold";
  return success();
}
