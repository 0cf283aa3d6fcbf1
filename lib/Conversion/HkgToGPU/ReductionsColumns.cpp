//===- ReductionsColumns.cpp - row ops down the columns -------------------===//
//
// The column emitter (ReductionsColumns.h) and the kernels built on it:
// hkg.reduce over axes with kept dims after them (a fold, the thread rows
// combined, thread row 0 stores) and hkg.softmax over such an axis (the max
// and the sum of exp(x - max) each folded and combined, then every element
// rewritten).
//
//===----------------------------------------------------------------------===//

#include "ReductionsColumns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::colop;

ColumnEmitter::ColumnEmitter(KernelContext &kc, const RowSchedule &sched,
                             Value input, Value output, int64_t outer,
                             int64_t len, int64_t inner, int64_t outLen)
    : kc(kc), b(kc.b), loc(kc.loc), outer(outer), len(len), inner(inner),
      vw(sched.vectorWidth), down(sched.rowsPerBlock),
      across(sched.threads / sched.rowsPerBlock), unroll(sched.unroll) {
  int64_t tileCols = across * vw;
  int64_t tiles = llvm::divideCeil(inner, tileCols);
  kc.grid = {outer * tiles, 1, 1};
  kc.block = {sched.threads, 1, 1};
  inT = cast<MemRefType>(input.getType()).getElementType();
  outT = cast<MemRefType>(output.getType()).getElementType();
  f32Vec = VectorType::get({vw}, b.getF32Type());
  in = reshapeView(b, loc, input, {outer, len, inner});
  out = reshapeView(b, loc, output, {outer, outLen, inner});
  Value tid = threadIdX(b, loc), bid = blockIdX(b, loc);
  o = arith::DivUIOp::create(b, loc, bid, c(tiles));
  Value tile = arith::RemUIOp::create(b, loc, bid, c(tiles));
  Value tx = arith::RemUIOp::create(b, loc, tid, c(across));
  ty = arith::DivUIOp::create(b, loc, tid, c(across));
  col = arith::AddIOp::create(b, loc,
                              arith::MulIOp::create(b, loc, tile, c(tileCols)),
                              arith::MulIOp::create(b, loc, tx, c(vw)));
  valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, c(inner));
  if (down > 1)
    lds = kc.addLds({down, tileCols}, b.getF32Type());
}

Value ColumnEmitter::splat(double v) {
  return vector::BroadcastOp::create(b, loc, f32Vec, constF32(b, loc, v));
}

Value ColumnEmitter::fold(double identity, const Combiner &combine,
                          function_ref<Value(Value)> map) {
  Value id = splat(identity);
  auto ifValid = scf::IfOp::create(b, loc, TypeRange{f32Vec}, valid,
                                   /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifValid.thenBlock());
  SmallVector<Value> init(unroll, id);
  auto loop = scf::ForOp::create(b, loc, c(0), c(len), c(down * unroll), init);
  b.setInsertionPointToStart(loop.getBody());
  Value r0 = arith::AddIOp::create(b, loc, loop.getInductionVar(), ty);
  // Every load of the step first (clamped to the last row), then the
  // masked combines.
  SmallVector<Value> rows, loaded;
  for (int64_t u = 0; u < unroll; ++u) {
    Value r = arith::AddIOp::create(b, loc, r0, c(u * down));
    Value clamped = arith::MinUIOp::create(b, loc, r, c(len - 1));
    rows.push_back(r);
    loaded.push_back(loadVector(b, loc, in, ValueRange{o, clamped, col}, vw,
                                vectorAlignment(inT, vw)));
  }
  SmallVector<Value> next;
  for (int64_t u = 0; u < unroll; ++u) {
    Value acc = loop.getRegionIterArgs()[u];
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          rows[u], c(len));
    Value combined =
        combine(b, loc, acc, map(toF32(b, loc, loaded[u]))).front();
    next.push_back(arith::SelectOp::create(b, loc, inRange, combined, acc));
  }
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointAfter(loop);
  Value acc = loop.getResult(0);
  for (int64_t u = 1; u < unroll; ++u)
    acc = combine(b, loc, acc, loop.getResult(u)).front();
  scf::YieldOp::create(b, loc, acc);
  b.setInsertionPointToStart(ifValid.elseBlock());
  scf::YieldOp::create(b, loc, id);
  return ifValid.getResult(0);
}

Value ColumnEmitter::combineRows(Value partial, const Combiner &combine) {
  if (down == 1)
    return partial;
  Value at = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, threadIdX(b, loc), c(across)),
      c(vw));
  vector::StoreOp::create(b, loc, partial, lds, ValueRange{ty, at});
  gpu::BarrierOp::create(b, loc);
  // Every thread folds the rows in the same order: the same total.
  Value first =
      vector::LoadOp::create(b, loc, f32Vec, lds, ValueRange{c(0), at});
  auto loop =
      scf::ForOp::create(b, loc, c(1), c(down), c(1), ValueRange{first});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value other = vector::LoadOp::create(
        b, loc, f32Vec, lds, ValueRange{loop.getInductionVar(), at});
    scf::YieldOp::create(
        b, loc, combine(b, loc, loop.getRegionIterArgs()[0], other).front());
  }
  // The buffer may be written again by the next combine.
  gpu::BarrierOp::create(b, loc);
  return loop.getResult(0);
}

void ColumnEmitter::mapRows(function_ref<Value(Value)> emit) {
  mapRows([&](Value x, Value) { return emit(x); });
}

void ColumnEmitter::mapRows(function_ref<Value(Value, Value)> emit) {
  auto ifValid = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifValid.thenBlock());
  auto loop = scf::ForOp::create(b, loc, ty, c(len), c(down));
  b.setInsertionPointToStart(loop.getBody());
  Value r = loop.getInductionVar();
  Value x = toF32(b, loc,
                  loadVector(b, loc, in, ValueRange{o, r, col}, vw,
                             vectorAlignment(inT, vw)));
  storeVector(b, loc, fromF32(b, loc, emit(x, r), outT), out,
              ValueRange{o, r, col}, vectorAlignment(outT, vw));
}

void ColumnEmitter::storeTotal(Value v) {
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ty, c(0));
  auto ifStore =
      scf::IfOp::create(b, loc, arith::AndIOp::create(b, loc, valid, first),
                        /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifStore.thenBlock());
  storeVector(b, loc, fromF32(b, loc, v, outT), out, ValueRange{o, c(0), col},
              vectorAlignment(outT, vw));
}

LogicalResult mlir::hkg::lowerReduceColumns(ReduceOp op, KernelContext &kc) {
  auto [outer, len, inner] = op.getReductionGeometry();
  ColumnEmitter e(kc, RowSchedule::decode(kc.schedule), kc.args[0], kc.args[1],
                  outer, len, inner, /*outLen=*/1);
  ReduceKind kind = op.getKind();
  Combiner combine = makeCombiner(kind);
  Value identity = reductionIdentity(kc.b, kc.loc, kind);
  double id = cast<FloatAttr>(
                  cast<arith::ConstantOp>(identity.getDefiningOp()).getValue())
                  .getValueAsDouble();
  Value partial = e.fold(id, combine, [](Value x) { return x; });
  e.storeTotal(e.combineRows(partial, combine));
  return success();
}

LogicalResult mlir::hkg::lowerSoftmaxColumns(SoftmaxOp op, KernelContext &kc) {
  auto [outer, len, inner] = op.getAxisGeometry();
  ColumnEmitter e(kc, RowSchedule::decode(kc.schedule), kc.args[0], kc.args[1],
                  outer, len, inner, len);
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  double inf = std::numeric_limits<double>::infinity();
  Combiner maxC = makeCombiner(ReduceKind::Max);
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  Value m = e.combineRows(e.fold(-inf, maxC, [](Value x) { return x; }), maxC);
  Value s =
      e.combineRows(e.fold(0.0, sumC,
                           [&](Value x) -> Value {
                             return math::ExpOp::create(
                                 b, loc, arith::SubFOp::create(b, loc, x, m));
                           }),
                    sumC);
  Value rcp = arith::DivFOp::create(
      b, loc,
      vector::BroadcastOp::create(b, loc, e.f32Vec, constF32(b, loc, 1.0)), s);
  e.mapRows([&](Value x) -> Value {
    Value ex = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, m));
    return arith::MulFOp::create(b, loc, ex, rcp);
  });
  return success();
}
