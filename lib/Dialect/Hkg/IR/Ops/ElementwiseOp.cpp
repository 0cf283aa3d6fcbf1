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
  if (std::optional<ArrayAttr> maps = getIndexingMaps())
    return llvm::to_vector(maps->getAsValueRange<AffineMapAttr>());
  SmallVector<AffineMap> maps;
  ArrayRef<int64_t> out = getResult().getType().getShape();
  for (Value in : getInputs()) {
    std::string why;
    FailureOr<AffineMap> map =
        inferBroadcastMap(getContext(), shapeOf(in), out, why);
    assert(succeeded(map) && "the verifier checks that every map exists");
    maps.push_back(*map);
  }
  return maps;
}

LogicalResult ElementwiseOp::verify() {
  if (failed(verifyStaticShapes(*this)))
    return failure();
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  ArrayRef<int64_t> out = getResult().getType().getShape();
  std::optional<ArrayAttr> maps = getIndexingMaps();
  if (maps && maps->size() != getInputs().size())
    return emitOpError("expected one indexing map per input (")
           << getInputs().size() << "), got " << maps->size();
  for (auto [i, in] : llvm::enumerate(getInputs())) {
    std::string why;
    if (maps) {
      auto map = dyn_cast<AffineMapAttr>((*maps)[i]);
      if (!map)
        return emitOpError("expected indexing map #")
               << i << " to be an affine map, got " << (*maps)[i];
      if (succeeded(checkBroadcastMap(map.getValue(), shapeOf(in), out, why)))
        continue;
      InFlightDiagnostic diag = emitOpError("indexing map #");
      diag << i << " does not fit input #" << i << " of shape "
           << shapeStr(shapeOf(in)) << " to the result shape " << shapeStr(out)
           << ": " << why;
      return diag;
    }
    if (succeeded(inferBroadcastMap(getContext(), shapeOf(in), out, why)))
      continue;
    InFlightDiagnostic diag =
        emitOpError("cannot tell which result dims input #");
    diag << i << " of shape " << shapeStr(shapeOf(in))
         << " follows in the result shape " << shapeStr(out) << ": " << why
         << "; say which with 'indexing_maps'";
    return diag;
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

//===----------------------------------------------------------------------===//
// IndexOp
//===----------------------------------------------------------------------===//

LogicalResult IndexOp::verify() {
  auto parent = (*this)->getParentOfType<ElementwiseOp>();
  int64_t rank = parent.getResult().getType().getRank();
  if (static_cast<int64_t>(getDim()) >= rank)
    return emitOpError("expected 'dim' in [0, ")
           << rank << ") for a result of rank " << rank << ", got " << getDim();
  return success();
}
