//===- ReductionsNormColumns.cpp - layernorm and rmsnorm down columns -----===//
//
// hkg.layernorm and hkg.rmsnorm over one axis with kept dims after it (the
// channels of [B, C, L]): the input seen as [outer, len, inner], each column
// (o, i) normalized over its len rows, with the column emitter
// (ReductionsColumns.h). Its statistics are folded down the column and
// combined over the workgroup's thread rows, then every element rewritten;
// the weight and bias follow the axis, one scalar per row, broadcast over
// the column tile.
//
// Numerics: in f32. Layernorm takes the mean, then the variance as the mean
// of squared deviations (two passes, no cancellation), as the row kernel's
// default does (ReductionsNorms.cpp).
//
//===----------------------------------------------------------------------===//

#include "ReductionsColumns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::colop;

/// `v` (an f32 scalar) over the column tile.
static Value splatTile(ColumnEmitter &e, Value v) {
  return vector::BroadcastOp::create(e.b, e.loc, e.f32Vec, v);
}

/// The [len] operand `m` (weight or bias) at `row`, as f32 over the tile.
static Value rowScalar(ColumnEmitter &e, Value m, Value row) {
  Value v = memref::LoadOp::create(e.b, e.loc, m, ValueRange{row});
  return splatTile(e, toF32(e.b, e.loc, v));
}

/// The column's sum of map(x), combined over the thread rows.
static Value columnSum(ColumnEmitter &e, function_ref<Value(Value)> map) {
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  return e.combineRows(e.fold(0.0, sumC, map), sumC);
}

/// 1 / sqrt(sum / len + eps) over the tile.
static Value rstdOf(ColumnEmitter &e, Value sum, double eps) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value mean = arith::MulFOp::create(
      b, loc, sum,
      splatTile(e, constF32(b, loc, 1.0 / static_cast<double>(e.len))));
  return math::RsqrtOp::create(
      b, loc,
      arith::AddFOp::create(b, loc, mean, splatTile(e, constF32(b, loc, eps))));
}

LogicalResult mlir::hkg::lowerLayerNormColumns(LayerNormOp op,
                                               KernelContext &kc) {
  if (failed(colop::checkStaticColumns(op, kc)))
    return failure();
  auto [outer, len, inner] = op.getNormGeometry();
  unsigned argIdx = 1;
  Value weight = op.getWeight() ? kc.args[argIdx++] : Value();
  Value bias = op.getBias() ? kc.args[argIdx++] : Value();
  ColumnEmitter e(kc, RowSchedule::decode(kc.schedule), kc.args[0],
                  kc.args.back(), outer, len, inner, len);
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  Value invLen = splatTile(e, constF32(b, loc, 1.0 / static_cast<double>(len)));
  Value mean = arith::MulFOp::create(
      b, loc, columnSum(e, [](Value x) { return x; }), invLen);
  Value sq = columnSum(e, [&](Value x) -> Value {
    Value d = arith::SubFOp::create(b, loc, x, mean);
    return arith::MulFOp::create(b, loc, d, d);
  });
  Value rstd = rstdOf(e, sq, op.getEps().convertToDouble());
  e.mapRows([&](Value x, Value row) -> Value {
    Value y = arith::MulFOp::create(
        b, loc, arith::SubFOp::create(b, loc, x, mean), rstd);
    if (weight)
      y = arith::MulFOp::create(b, loc, y, rowScalar(e, weight, row));
    if (bias)
      y = arith::AddFOp::create(b, loc, y, rowScalar(e, bias, row));
    return y;
  });
  return success();
}

LogicalResult mlir::hkg::lowerRMSNormColumns(RMSNormOp op, KernelContext &kc) {
  if (failed(colop::checkStaticColumns(op, kc)))
    return failure();
  auto [outer, len, inner] = op.getNormGeometry();
  Value weight = op.getWeight() ? kc.args[1] : Value();
  ColumnEmitter e(kc, RowSchedule::decode(kc.schedule), kc.args[0],
                  kc.args.back(), outer, len, inner, len);
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  Value sq = columnSum(
      e, [&](Value x) -> Value { return arith::MulFOp::create(b, loc, x, x); });
  Value rstd = rstdOf(e, sq, op.getEps().convertToDouble());
  e.mapRows([&](Value x, Value row) -> Value {
    Value y = arith::MulFOp::create(b, loc, x, rstd);
    if (weight)
      y = arith::MulFOp::create(b, loc, y, rowScalar(e, weight, row));
    return y;
  });
  return success();
}
