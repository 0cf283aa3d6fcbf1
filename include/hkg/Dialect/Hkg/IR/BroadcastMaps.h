//===- BroadcastMaps.h - which result dims an operand follows ---*- C++ -*-===//
//
// An operand of an elementwise computation (an `hkg.elementwise` input)
// follows some of the result's dims: an affine map from the result's dims to
// the operand's, each result of which is a result dim (same extent) or the
// constant 0 (a size-1 dim, broadcast). These helpers check such a map,
// derive the one an operand's shape implies where exactly one exists (never
// a guess: an ambiguous shape is an error that asks for a map), and turn a
// map into the per-result-dim strides the lowering and the reference use.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_BROADCASTMAPS_H
#define HKG_DIALECT_HKG_IR_BROADCASTMAPS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <string>

namespace mlir::hkg {

/// Checks that `map` sends a result of shape `result` to an operand of shape
/// `operand`: as many dims as the result, one result per operand dim, each a
/// result dim of the same extent (each result dim used at most once) or the
/// constant 0 for an operand dim of extent 1. On failure `why` says what is
/// wrong, in the user's terms.
LogicalResult checkBroadcastMap(AffineMap map, ArrayRef<int64_t> operand,
                                ArrayRef<int64_t> result, std::string &why);

/// The map an operand's shape implies, where exactly one exists: an operand
/// of the result's rank lines up dim by dim (extent 1 broadcasts); one of
/// lower rank lines up with the result's trailing dims, and that must be the
/// only way its dims fit an increasing sequence of the result's dims of
/// equal extents (a `[N]` operand of an `[N, N]` result fits two ways: an
/// error). On failure `why` says what does not fit, or names the placements
/// that do.
FailureOr<AffineMap> inferBroadcastMap(MLIRContext *ctx,
                                       ArrayRef<int64_t> operand,
                                       ArrayRef<int64_t> result,
                                       std::string &why);

/// For each result dim, the distance in operand elements between
/// neighbouring result indices along it (0 where the operand does not
/// follow that dim): the operand element of result index i is at
/// sum_j strides[j] * i[j] of the row-major operand.
SmallVector<int64_t> operandStridesPerResultDim(AffineMap map,
                                                ArrayRef<int64_t> operand);

/// The view `[batch, rows, cols]` in which a matmul epilogue reads an
/// operand that follows a result `[batch..., M, N]` by `map`: cols N where
/// it follows n, else 1; rows M where it follows m (after n, row-major),
/// else 1; batch the extent of the result's batch dims it follows, which
/// must be the innermost ones, in order (the element of batch index b is
/// at b mod batch). A per-column bias `[N]`, a per-row scale `[M, 1]` or
/// `[M]`, a residual `[M, N]`, a scalar, batched forms. Fails (with `why`)
/// for any other map: a transposed read, batch dims out of order.
FailureOr<std::array<int64_t, 3>> getEpilogueView(AffineMap map,
                                                  ArrayRef<int64_t> operand,
                                                  ArrayRef<int64_t> result,
                                                  std::string &why);

/// How an operand is addressed from the flat (row-major) index of a result
/// element, the cheapest form first.
enum class BroadcastAccess {
  /// The result's own layout: at the flat index.
  Flat,
  /// The result's trailing dims (a bias): at the flat index modulo the
  /// operand's size.
  Trailing,
  /// Anything else: at sum_j strides[j] * i_j of the result index i.
  Strided,
};

/// Classifies an operand by its `strides` per result dim
/// (operandStridesPerResultDim) over a result of shape `result`. Dims of
/// extent 1 are ignored.
BroadcastAccess classifyBroadcastAccess(ArrayRef<int64_t> strides,
                                        ArrayRef<int64_t> result);

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_BROADCASTMAPS_H
