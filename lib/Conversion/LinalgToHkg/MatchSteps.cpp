//===- MatchSteps.cpp - one linalg.generic step of a composition ----------===//

#include "Compositions.h"
#include "Raise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::raise;

/// Whether `v` computes a constant (getScalarConstant's shape), wherever it
/// is defined.
static bool isConstantScalar(Value v) {
  return getScalarConstant(v).has_value() || matchPattern(v, m_Constant());
}

MapStep raise::getMapStep(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic->getNumResults() != 1 ||
      generic.getNumReductionLoops() != 0 ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return {};
  Block &body = generic.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  Operation *op = yielded.getDefiningOp();
  if (!op || op->getBlock() != &body)
    return {};
  for (Operation &other : body.without_terminator())
    if (&other != op && !llvm::all_of(other.getResults(), isConstantScalar))
      return {};
  return {generic, op};
}

OpOperand *MapStep::input(unsigned i) const {
  linalg::GenericOp generic = this->generic;
  auto arg = dyn_cast<BlockArgument>(op->getOperand(i));
  if (!arg || arg.getOwner() != &generic.getRegion().front() ||
      arg.getArgNumber() >= generic.getNumDpsInputs())
    return nullptr;
  return generic.getDpsInputOperand(arg.getArgNumber());
}

AffineMap MapStep::map(unsigned i) const {
  linalg::GenericOp generic = this->generic;
  OpOperand *in = input(i);
  return in ? generic.getMatchingIndexingMap(in) : AffineMap();
}

std::optional<double> MapStep::constant(unsigned i) const {
  if (std::optional<double> c = getScalarConstant(op->getOperand(i)))
    return c;
  OpOperand *in = input(i);
  DenseElementsAttr dense;
  if (!in || !matchPattern(in->get(), m_Constant(&dense)) || !dense.isSplat())
    return std::nullopt;
  Type elem = dense.getElementType();
  if (isa<FloatType>(elem))
    return dense.getSplatValue<APFloat>().convertToDouble();
  if (elem.isInteger(1))
    return dense.getSplatValue<bool>() ? 1.0 : 0.0;
  if (isa<IntegerType>(elem))
    return static_cast<double>(dense.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

std::optional<std::pair<Value, AffineMap>> raise::matchDataMovement(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic->getNumResults() != 1 ||
      generic.getNumDpsInputs() != 1 || generic.getNumReductionLoops() != 0 ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 1 ||
      body.getTerminator()->getOperand(0) != body.getArgument(0))
    return std::nullopt;
  OpOperand *in = generic.getDpsInputOperand(0);
  return std::make_pair(in->get(), generic.getMatchingIndexingMap(in));
}

std::optional<double> raise::getScalarConstant(Value v) {
  if (auto trunc = v.getDefiningOp<arith::TruncFOp>()) {
    std::optional<double> in = getScalarConstant(trunc.getIn());
    if (!in)
      return std::nullopt;
    auto type = dyn_cast<FloatType>(trunc.getType());
    if (!type)
      return std::nullopt;
    llvm::APFloat f(*in);
    bool lost;
    f.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  }
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    return getScalarConstant(ext.getIn());
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr); i && !i.getType().isIndex()) {
    APInt value = i.getValue();
    if (value.getBitWidth() == 1)
      return static_cast<double>(value.getZExtValue());
    return static_cast<double>(value.getSExtValue());
  }
  return std::nullopt;
}

Value raise::skipReshapes(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

LogicalResult raise::verifyQuietly(Operation *op, std::string &message) {
  ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  return verify(op);
}

Value raise::matchLastDimReduction(Value v, StringRef combine, double init) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g.getNumReductionLoops() != 1 ||
      g.getIteratorTypesArray().back() != utils::IteratorType::reduction ||
      !g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity())
    return {};
  unsigned r = cast<OpResult>(v).getResultNumber();
  AffineMap out = g.getMatchingIndexingMap(g.getDpsInitOperand(r));
  unsigned n = g.getNumLoops();
  SmallVector<AffineExpr> kept;
  for (unsigned i = 0; i + 1 < n; ++i)
    kept.push_back(getAffineDimExpr(i, g.getContext()));
  if (!isRowBroadcast(out) && out != AffineMap::get(n, 0, kept, g.getContext()))
    return {};
  Block &body = g.getRegion().front();
  Operation *op = body.getTerminator()->getOperand(r).getDefiningOp();
  if (!op || op->getName().getStringRef() != combine ||
      op->getNumOperands() != 2)
    return {};
  Value in = body.getArgument(0), acc = body.getArgument(1 + r);
  bool operandsMatch = (op->getOperand(0) == in && op->getOperand(1) == acc) ||
                       (op->getOperand(0) == acc && op->getOperand(1) == in);
  std::optional<TypedAttr> fill = getFillConstant(g.getDpsInits()[r]);
  auto f = fill ? dyn_cast<FloatAttr>(*fill) : FloatAttr();
  if (!operandsMatch || !f || f.getValueAsDouble() != init)
    return {};
  return g.getDpsInputs()[0];
}

bool raise::isRowBroadcast(AffineMap m) {
  unsigned n = m.getNumDims();
  if (n == 0 || m.getNumResults() != n || m.getNumSymbols() != 0)
    return false;
  for (unsigned i = 0; i + 1 < n; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(m.getResult(i));
    if (!dim || dim.getPosition() != i)
      return false;
  }
  auto last = dyn_cast<AffineConstantExpr>(m.getResult(n - 1));
  return last && last.getValue() == 0;
}

bool raise::hasIdentityMaps(linalg::GenericOp g) {
  return llvm::all_of(g.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); });
}
