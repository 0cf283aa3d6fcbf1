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
  if (getValues().size() != 1)
    return emitOpError("expected exactly one yielded value, got ")
           << getValues().size();
  return success();
}

#define GET_OP_CLASSES
#include "hkg/Dialect/Hkg/IR/HkgOps.cpp.inc"
