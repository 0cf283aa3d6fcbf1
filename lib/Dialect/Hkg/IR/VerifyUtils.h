//===- VerifyUtils.h - helpers shared by the ops' verifiers ---------------===//
//
// Rules every kernel op's verifier applies and the way their diagnostics
// render shapes, written once for all op families.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_DIALECT_HKG_IR_VERIFYUTILS_H
#define HKG_LIB_DIALECT_HKG_IR_VERIFYUTILS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::hkg::detail {

/// Renders a shape as `[a, b, c]`.
inline std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  os << "]";
  return s;
}

inline ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// Every tensor operand and result of a kernel op must have a static shape
/// (or, with `allowDynamic`, dynamic dims that verifyDynamicDims checks)
/// with no zero-size dim (an empty tensor is no kernel: the lowerings divide
/// by extents; a dynamic size of 0 launches nothing, docs/ABI.md).
inline LogicalResult verifyKernelShapes(Operation *op,
                                        bool allowDynamic = false) {
  auto check = [&](StringRef what, unsigned i, Value v) -> LogicalResult {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return success();
    if (!allowDynamic && !t.hasStaticShape())
      return op->emitOpError("expected ")
             << what << " #" << i << " to have a static shape, got " << t;
    if (llvm::is_contained(t.getShape(), 0))
      return op->emitOpError("expected ")
             << what << " #" << i << " to have no zero-size dim, got " << t;
    return success();
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(check("operand", i, v)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(check("result", i, v)))
      return failure();
  return success();
}

inline bool isSuffix(ArrayRef<int64_t> suffix, ArrayRef<int64_t> shape) {
  return suffix.size() <= shape.size() &&
         suffix == shape.take_back(suffix.size());
}

inline Type elementTypeOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// Checks that every op of `body` but its `hkg.yield` is a pure scalar op a
/// kernel body may contain (arith and math on scalars).
LogicalResult verifyScalarBody(Operation *parent, Block &body);

/// Checks that the terminator of a scalar region (`what`, e.g. "body")
/// yields one `expected` value.
LogicalResult verifyYieldsElement(Operation *parent, Block &body,
                                  Type expected, StringRef what);

/// Checks the indexing maps of `operands` (extra operands read by a scalar
/// body) into an iteration domain of shape `domain`: `maps` where given
/// (one per operand), else each operand's shape must imply one map
/// (BroadcastMaps.h). Diagnostics call the operands `operandName` and the
/// domain `domainName` ("input", "result").
LogicalResult verifyOperandMaps(Operation *op, ValueRange operands,
                                std::optional<ArrayAttr> maps,
                                ArrayRef<int64_t> domain, StringRef operandName,
                                StringRef domainName);

/// The maps verifyOperandMaps accepted: `maps`, or those the shapes imply.
SmallVector<AffineMap> resolveOperandMaps(MLIRContext *ctx, ValueRange operands,
                                          std::optional<ArrayAttr> maps,
                                          ArrayRef<int64_t> domain);

} // namespace mlir::hkg::detail

#endif // HKG_LIB_DIALECT_HKG_IR_VERIFYUTILS_H
