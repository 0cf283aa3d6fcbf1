//===- ReduceKinds.h - what a reduction kind keeps --------------*- C++ -*-===//
//
// Facts about hkg.reduce's kinds that its verifier, its schedule space and
// its lowering (ReductionsKinds.h) share.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_REDUCEKINDS_H
#define HKG_DIALECT_HKG_IR_REDUCEKINDS_H

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"

namespace mlir::hkg {

/// argmax / argmin: the reduced value is a position (i32 or i64).
inline bool isPositionKind(ReduceKind kind) {
  return kind == ReduceKind::Argmax || kind == ReduceKind::Argmin;
}

/// Values in the kind's running state: one (sum, prod, max, min) or two
/// (logsumexp: the max and the rescaled sum; argmax / argmin: the value and
/// its position).
inline unsigned getStateWidth(ReduceKind kind) {
  return kind == ReduceKind::LogSumExp || isPositionKind(kind) ? 2 : 1;
}

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_REDUCEKINDS_H
