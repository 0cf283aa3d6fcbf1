//===- Payload.cpp - a linalg.generic's payload as an hkg body ------------===//

#include "Raise.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::hkg;

/// The values the payload reads from outside the generic, in order of use.
static SmallVector<Value> getCapturedValues(linalg::GenericOp generic) {
  SmallVector<Value> captured;
  Region &region = generic.getRegion();
  region.walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (!region.isAncestor(v.getParentRegion()) &&
          !llvm::is_contained(captured, v))
        captured.push_back(v);
  });
  return captured;
}

bool raise::capturesOnlyConstants(linalg::GenericOp generic, std::string &why) {
  for (Value v : getCapturedValues(generic)) {
    if (matchPattern(v, m_Constant()))
      continue;
    llvm::raw_string_ostream os(why);
    os << "its body reads a value computed outside it";
    if (Operation *def = v.getDefiningOp())
      os << " (by '" << def->getName() << "')";
    else
      os << " (a block argument)";
    return false;
  }
  return true;
}

SmallVector<Value> raise::clonePayload(OpBuilder &b, linalg::GenericOp generic,
                                       IRMapping &map, ArrayRef<int64_t> dims,
                                       ArrayRef<Operation *> skip) {
  for (Value v : getCapturedValues(generic))
    if (!map.contains(v))
      map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  Block &body = generic.getRegion().front();
  for (Operation &op : body.without_terminator()) {
    if (llvm::is_contained(skip, &op))
      continue;
    // Fusion rewrites a producer's linalg.index as an affine.apply of the
    // consumer's indices: spelled out in arith, as hkg bodies are.
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
      SmallVector<Value> operands =
          llvm::map_to_vector(apply.getMapOperands(),
                              [&](Value v) { return map.lookupOrDefault(v); });
      AffineMap m = apply.getAffineMap();
      ValueRange dimValues = ValueRange(operands).take_front(m.getNumDims());
      ValueRange symValues = ValueRange(operands).drop_front(m.getNumDims());
      map.map(apply.getResult(),
              affine::expandAffineExpr(b, apply.getLoc(), m.getResult(0),
                                       dimValues, symValues));
      continue;
    }
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      map.map(index.getResult(),
              IndexOp::create(b, index.getLoc(), b.getIndexType(),
                              dims[index.getDim()])
                  .getResult());
      continue;
    }
    b.clone(op, map);
  }
  return llvm::map_to_vector(body.getTerminator()->getOperands(),
                             [&](Value v) { return map.lookupOrDefault(v); });
}

std::optional<TypedAttr> raise::getFillConstant(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return std::nullopt;
  Attribute value;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return std::nullopt;
  if (auto typed = dyn_cast<TypedAttr>(value))
    return typed;
  return std::nullopt;
}

bool raise::isHkgElementType(Type type) {
  return type.isF64() || type.isF32() || type.isF16() || type.isBF16() ||
         type.isInteger(1) || type.isInteger(8) || type.isInteger(32) ||
         type.isInteger(64);
}
