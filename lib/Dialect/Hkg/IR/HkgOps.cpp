//===- HkgOps.cpp - hkg.yield, shared verifier helpers, op classes --------===//
//
// The verifier helpers several op families share (VerifyUtils.h), hkg.yield,
// and the generated op classes. Each family's own rules (shape, rank,
// element-type and attribute-range; every diagnostic names the operand or
// attribute at fault and what was expected) live in Ops/<Family>.cpp.
// Schedules are checked against a target by hkg-verify-schedule, not here.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "VerifyUtils.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Checks that every op of `body` but its `hkg.yield` is a pure scalar op a
/// kernel body may contain. Runs before the block itself is verified, so the
/// block may be empty or lack a terminator.
LogicalResult mlir::hkg::detail::verifyScalarBody(Operation *parent, Block &body) {
  for (Operation &op : body) {
    if (isa<YieldOp>(op))
      continue;
    // hkg.index is checked by its own HasParent trait.
    if (isa<IndexOp>(op))
      continue;
    Dialect *d = op.getDialect();
    if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(d))
      return parent->emitOpError("expected only arith and math ops in the "
                                 "body, got '")
             << op.getName() << "'";
    for (Type t : op.getResultTypes())
      if (!t.isIntOrIndexOrFloat())
        return parent->emitOpError("expected scalar values in the body, got ")
               << t << " from '" << op.getName() << "'";
  }
  return success();
}

/// Checks the terminator of a scalar region yields one `expected` value.
LogicalResult mlir::hkg::detail::verifyYieldsElement(Operation *parent, Block &body,
                                         Type expected, StringRef what) {
  // Not Block::getTerminator(): the parent verifies before its blocks, and
  // an empty block has no terminator to return.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return parent->emitOpError("expected the ")
           << what << " to end with 'hkg.yield'";
  if (yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != expected)
    return parent->emitOpError("expected the ")
           << what << " to yield one value of the result element type "
           << expected << ", got " << yield.getValues().getTypes();
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  // A reduce's prologue yields one value per kind (its verifier counts
  // them); every other region yields the one output element.
  auto reduce = dyn_cast<ReduceOp>((*this)->getParentOp());
  if (reduce && (*this)->getParentRegion() == &reduce.getPrologue()) {
    if (getValues().empty())
      return emitOpError("expected at least one yielded value");
    return success();
  }
  if (getValues().size() != 1)
    return emitOpError("expected exactly one yielded value, got ")
           << getValues().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Indexing maps of extra operands (hkg.elementwise, hkg.reduce)
//===----------------------------------------------------------------------===//

LogicalResult mlir::hkg::detail::verifyOperandMaps(
    Operation *op, ValueRange operands, std::optional<ArrayAttr> maps,
    ArrayRef<int64_t> domain, StringRef operandName, StringRef domainName) {
  if (maps && maps->size() != operands.size())
    return op->emitOpError("expected one indexing map per ")
           << operandName << " (" << operands.size() << "), got "
           << maps->size();
  for (auto [i, in] : llvm::enumerate(operands)) {
    std::string why;
    if (maps) {
      auto map = dyn_cast<AffineMapAttr>((*maps)[i]);
      if (!map)
        return op->emitOpError("expected indexing map #")
               << i << " to be an affine map, got " << (*maps)[i];
      if (succeeded(
              checkBroadcastMap(map.getValue(), shapeOf(in), domain, why)))
        continue;
      InFlightDiagnostic diag = op->emitOpError("indexing map #");
      diag << i << " does not fit " << operandName << " #" << i << " of shape "
           << shapeStr(shapeOf(in)) << " to the " << domainName << " shape "
           << shapeStr(domain) << ": " << why;
      return diag;
    }
    if (succeeded(
            inferBroadcastMap(op->getContext(), shapeOf(in), domain, why)))
      continue;
    InFlightDiagnostic diag = op->emitOpError("cannot tell which ");
    diag << domainName << " dims " << operandName << " #" << i << " of shape "
         << shapeStr(shapeOf(in)) << " follows in the " << domainName
         << " shape " << shapeStr(domain) << ": " << why
         << "; say which with 'indexing_maps'";
    return diag;
  }
  return success();
}

SmallVector<AffineMap>
mlir::hkg::detail::resolveOperandMaps(MLIRContext *ctx, ValueRange operands,
                                      std::optional<ArrayAttr> maps,
                                      ArrayRef<int64_t> domain) {
  if (maps)
    return llvm::to_vector(maps->getAsValueRange<AffineMapAttr>());
  SmallVector<AffineMap> result;
  for (Value in : operands) {
    std::string why;
    FailureOr<AffineMap> map = inferBroadcastMap(ctx, shapeOf(in), domain, why);
    assert(succeeded(map) && "the verifier checks that every map exists");
    result.push_back(*map);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// custom<ReduceKinds>: `sum` or `logsumexp, sum`
//===----------------------------------------------------------------------===//

static ParseResult parseReduceKinds(OpAsmParser &parser, ArrayAttr &kinds) {
  SmallVector<Attribute> list;
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef word;
    if (parser.parseKeyword(&word))
      return failure();
    std::optional<ReduceKind> kind = symbolizeReduceKind(word);
    if (!kind)
      return parser.emitError(loc, "expected a reduction kind (sum, max, "
                                   "min, prod, argmax, argmin, logsumexp), "
                                   "got '")
             << word << "'";
    list.push_back(ReduceKindAttr::get(parser.getContext(), *kind));
    return success();
  };
  if (parser.parseCommaSeparatedList(parseOne))
    return failure();
  kinds = parser.getBuilder().getArrayAttr(list);
  return success();
}

static void printReduceKinds(OpAsmPrinter &p, Operation *, ArrayAttr kinds) {
  llvm::interleaveComma(kinds, p, [&](Attribute a) {
    p << stringifyReduceKind(cast<ReduceKindAttr>(a).getValue());
  });
}

#define GET_OP_CLASSES
#include "hkg/Dialect/Hkg/IR/HkgOps.cpp.inc"
