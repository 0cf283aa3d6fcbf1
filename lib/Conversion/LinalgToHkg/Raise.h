//===- Raise.h - linalg.generic to hkg ops, one generic at a time -*- C++
//-*-===//
//
// The pieces of hkg-raise-linalg: each raiser turns one linalg.generic of
// its shape into one hkg op, or says why it cannot (in the user's terms, for
// the remark the pass leaves on a generic it keeps). They share the cloning
// of the generic's payload into an hkg body.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_LINALGTOHKG_RAISE_H
#define HKG_LIB_CONVERSION_LINALGTOHKG_RAISE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::hkg::raise {

/// The outcome of a raiser: the hkg op built before the generic and the
/// value to replace the generic's result with (the op's result, or a view
/// of it), or why there is none. `applies` is false when the generic is not
/// of the raiser's shape (the next raiser is tried), true when it is but
/// something in it cannot be expressed (the reason is final). The raiser
/// does not replace the generic: the driver does once the op verifies.
struct RaiseResult {
  Operation *op = nullptr;
  Value replacement;
  bool applies = false;
  std::string why;

  static RaiseResult notMine(std::string why) {
    return {nullptr, {}, false, std::move(why)};
  }
  static RaiseResult refused(std::string why) {
    return {nullptr, {}, true, std::move(why)};
  }
  static RaiseResult raised(Operation *op, Value replacement) {
    return {op, replacement, true, {}};
  }
};

/// All loops parallel, one result: hkg.elementwise.
RaiseResult raiseElementwise(RewriterBase &rewriter, linalg::GenericOp generic);
/// Batch / M / N / K loops with a multiply-accumulate payload: hkg.matmul.
RaiseResult raiseContraction(RewriterBase &rewriter, linalg::GenericOp generic);
/// Reduction loops with a sum / prod / max / min combiner: hkg.reduce.
RaiseResult raiseReduction(RewriterBase &rewriter, linalg::GenericOp generic);

/// Whether the payload of `generic` (inputs a, b, init acc) is exactly
/// `acc + a * b` (either order of either), each operand used as it is or
/// widened by arith.extf, and nothing else: linalg's contraction check looks
/// through any unary op (a negation, an exp), which hkg.matmul would drop.
bool isMultiplyAccumulate(linalg::GenericOp generic);

/// Whether every value the payload of `generic` reads from outside it is a
/// constant (which cloneInto then copies into the new body); otherwise
/// `why` names the first that is not.
bool capturesOnlyConstants(linalg::GenericOp generic, std::string &why);

/// Clones the payload of `generic` but its terminator and `skip` at the
/// builder's insertion point (inside a new hkg body). `map` must map the
/// payload's block arguments that the cloned ops read; constants captured
/// from outside are cloned in; `linalg.index d` becomes `hkg.index
/// dims[d]`, and an `affine.apply` (what fusion makes of a producer's
/// linalg.index) its arith expansion. Returns the mapped yielded values.
SmallVector<Value> clonePayload(OpBuilder &b, linalg::GenericOp generic,
                                IRMapping &map, ArrayRef<int64_t> dims,
                                ArrayRef<Operation *> skip = {});

/// The scalar the init of a generic's output `init` is filled with
/// (`linalg.fill` of an `arith.constant`), if it is one.
std::optional<TypedAttr> getFillConstant(Value init);

/// Whether `type` is an element type hkg kernels read or write.
bool isHkgElementType(Type type);

} // namespace mlir::hkg::raise

#endif // HKG_LIB_CONVERSION_LINALGTOHKG_RAISE_H
