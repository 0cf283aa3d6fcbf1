//===- TileIndexing.h - index arithmetic of the tiled kernels ---*- C++ -*-===//
//
// The `index` arithmetic the tiled kernels (matmul, attention) write their
// thread, tile and LDS coordinates in: constants, +, *, /, %, < and select,
// folding x + 0, x * 1 and x / 1 while the kernel is built, so that the IR
// holds no such op.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_TILEINDEXING_H
#define HKG_LIB_CONVERSION_HKGTOGPU_TILEINDEXING_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::hkg {

/// Builds `index` arithmetic at `loc` through `b`. Kernel builders derive
/// from it to write `add(row, mul(i, 16))`.
struct IndexArith {
  IndexArith(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
  }
  /// Unsigned: coordinates are never negative.
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, c(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
  Value lt(Value x, int64_t y) { return lt(x, c(y)); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  /// The conjunction of two conditions, either of which may be null (known
  /// true).
  Value andI(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return arith::AndIOp::create(b, loc, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }

  OpBuilder &b;
  Location loc;
};

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_TILEINDEXING_H
