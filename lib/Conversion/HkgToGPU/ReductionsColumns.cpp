//===- ReductionsColumns.cpp - row ops down the columns -------------------===//
//
// The column emitter (ReductionsColumns.h) and the kernels built on it:
// hkg.reduce over axes with kept dims after them (its kinds' states folded
// down each column, the thread rows combined, the epilogue run per lane,
// thread row 0 stores) and hkg.softmax (or log_softmax) over such an axis
// (the max and the sum of exp(x - max) each folded and combined, then every
// element rewritten).
//
//===----------------------------------------------------------------------===//

#include "ReductionsColumns.h"
#include "MathRewrites.h"
#include "ReductionsKinds.h"

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
  return foldState(splat(identity), combine,
                   [&](Value raw, Value) -> SmallVector<Value> {
                     return {map(toF32(b, loc, raw))};
                   })
      .front();
}

SmallVector<Value> ColumnEmitter::foldState(
    ValueRange identity, const Combiner &combine,
    function_ref<SmallVector<Value>(Value, Value)> element) {
  size_t n = identity.size();
  auto ifValid = scf::IfOp::create(b, loc, identity.getTypes(), valid,
                                   /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifValid.thenBlock());
  SmallVector<Value> init;
  for (int64_t u = 0; u < unroll; ++u)
    llvm::append_range(init, identity);
  auto loop = scf::ForOp::create(b, loc, c(0), c(len), c(down * unroll), init);
  // Each step already has `unroll` loads in flight.
  disableLLVMUnroll(loop);
  b.setInsertionPointToStart(loop.getBody());
  Value r0 = arith::AddIOp::create(b, loc, loop.getInductionVar(), ty);
  // Every load of the step first (clamped to the last row), then the
  // masked combines.
  SmallVector<Value> rows, clampedRows, loaded;
  for (int64_t u = 0; u < unroll; ++u) {
    Value r = arith::AddIOp::create(b, loc, r0, c(u * down));
    Value clamped = arith::MinUIOp::create(b, loc, r, c(len - 1));
    rows.push_back(r);
    clampedRows.push_back(clamped);
    loaded.push_back(loadVector(b, loc, in, ValueRange{o, clamped, col}, vw,
                                vectorAlignment(inT, vw)));
  }
  SmallVector<Value> next;
  for (int64_t u = 0; u < unroll; ++u) {
    ValueRange acc = loop.getRegionIterArgs().slice(u * n, n);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          rows[u], c(len));
    SmallVector<Value> combined =
        combine(b, loc, acc, element(loaded[u], clampedRows[u]));
    for (auto [x, old] : llvm::zip(combined, acc))
      next.push_back(arith::SelectOp::create(b, loc, inRange, x, old));
  }
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointAfter(loop);
  SmallVector<Value> acc = SmallVector<Value>(loop.getResults().take_front(n));
  for (int64_t u = 1; u < unroll; ++u)
    acc = combine(b, loc, acc, loop.getResults().slice(u * n, n));
  scf::YieldOp::create(b, loc, acc);
  b.setInsertionPointToStart(ifValid.elseBlock());
  scf::YieldOp::create(b, loc, identity);
  return SmallVector<Value>(ifValid.getResults());
}

SmallVector<Value> ColumnEmitter::combineRowsState(ValueRange partial,
                                                   const Combiner &combine) {
  if (down == 1)
    return llvm::to_vector(partial);
  if (partial.size() == 1 &&
      getElementTypeOrSelf(partial.front().getType()).isF32())
    return {combineRows(partial.front(), combine)};
  // One f32 buffer [n * down, tile] for the n values (i32 ones bitcast).
  int64_t n = static_cast<int64_t>(partial.size());
  int64_t tileCols = across * vw;
  Value buf = kc.addLds({n * down, tileCols}, b.getF32Type());
  Value at = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, threadIdX(b, loc), c(across)),
      c(vw));
  auto bufRow = [&](int64_t j, Value r) {
    return arith::AddIOp::create(b, loc, c(j * down), r);
  };
  for (auto [j, v] : llvm::enumerate(partial)) {
    Value w = v.getType() == f32Vec
                  ? v
                  : arith::BitcastOp::create(b, loc, f32Vec, v).getResult();
    vector::StoreOp::create(b, loc, w, buf, ValueRange{bufRow(j, ty), at});
  }
  gpu::BarrierOp::create(b, loc);
  auto readRow = [&](Value r) {
    SmallVector<Value> vals;
    for (auto [j, v] : llvm::enumerate(partial)) {
      Value w = vector::LoadOp::create(b, loc, f32Vec, buf,
                                       ValueRange{bufRow(j, r), at});
      vals.push_back(
          v.getType() == f32Vec
              ? w
              : arith::BitcastOp::create(b, loc, v.getType(), w).getResult());
    }
    return vals;
  };
  // Every thread folds the rows in the same order: the same total.
  auto loop = scf::ForOp::create(b, loc, c(1), c(down), c(1), readRow(c(0)));
  disableLLVMUnroll(loop);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(b, loc,
                         combine(b, loc, loop.getRegionIterArgs(),
                                 readRow(loop.getInductionVar())));
  }
  gpu::BarrierOp::create(b, loc);
  return SmallVector<Value>(loop.getResults());
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
  // Fully unrolled, LLVM would hoist every row's LDS read (gfx942: 131
  // VGPRs for a column sum of 32 thread rows, three waves per SIMD).
  disableLLVMUnroll(loop);
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
  Value w =
      getElementTypeOrSelf(v.getType()) == outT ? v : fromF32(b, loc, v, outT);
  storeVector(b, loc, w, out, ValueRange{o, c(0), col},
              vectorAlignment(outT, vw));
}

LogicalResult colop::checkStaticColumns(Operation *op,
                                        const KernelContext &kc) {
  if (!kc.hasSizes())
    return success();
  return op->emitOpError(
      "with dynamic dims reduces over its innermost dims (rows) only; down "
      "columns (kept dims after the reduced axes) its shape must be static");
}

LogicalResult mlir::hkg::lowerReduceColumns(ReduceOp op, KernelContext &kc) {
  if (failed(checkStaticColumns(op, kc)))
    return failure();
  auto [outer, len, inner] = op.getReductionGeometry();
  ColumnEmitter e(kc, RowSchedule::decode(kc.schedule), kc.args[0],
                  kc.args.back(), outer, len, inner, /*outLen=*/1);
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  reduce::KindState kinds(op);
  reduce::Prologue prologue(op, b, loc,
                            ValueRange(kc.args).drop_front().drop_back());
  reduce::InputDims dims(op, kc);
  Combiner combine = kinds.combiner();
  size_t numKinds = kinds.getKinds().size();

  SmallVector<Value> partial = e.foldState(
      kinds.identity(b, loc, e.splat(0.0)), combine,
      [&](Value raw, Value r) -> SmallVector<Value> {
        SmallVector<Value> values;
        if (!prologue.exists()) {
          values.assign(numKinds, toF32(b, loc, raw));
        } else {
          // Lane l is column col + l of the tile (vector_width divides the
          // columns: all in range).
          values = prologue.applyLanes(raw, e.vw, [&](int64_t l) {
            Value col = l == 0 ? e.col
                               : arith::AddIOp::create(b, loc, e.col,
                                                       constIndex(b, loc, l));
            return dims.index(b, loc, e.o, r, col);
          });
        }
        Value position = arith::IndexCastOp::create(b, loc, b.getI32Type(), r);
        return kinds.ofElements(b, loc, values, position);
      });
  SmallVector<Value> state = e.combineRowsState(partial, combine);
  SmallVector<Value> reduced = kinds.finish(b, loc, state);
  // The epilogue per lane, each lane one output column (without one, the
  // value converts as a vector).
  if (op.getEpilogue().empty()) {
    e.storeTotal(reduce::applyEpilogue(op, b, loc, reduced));
  } else {
    SmallVector<Value> results;
    for (int64_t l = 0; l < e.vw; ++l) {
      SmallVector<Value> lane = llvm::map_to_vector(reduced, [&](Value v) {
        return vector::ExtractOp::create(b, loc, v, l).getResult();
      });
      results.push_back(reduce::applyEpilogue(op, b, loc, lane));
    }
    e.storeTotal(vector::FromElementsOp::create(
        b, loc, VectorType::get({e.vw}, results.front().getType()), results));
  }
  if (prologue.exists())
    applyActivationRewrites(kc.func);
  return success();
}

LogicalResult mlir::hkg::lowerSoftmaxColumns(SoftmaxOp op, KernelContext &kc) {
  if (failed(checkStaticColumns(op, kc)))
    return failure();
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
  if (op.getLog()) {
    // log_softmax: x - (m + log s).
    Value shift =
        arith::AddFOp::create(b, loc, m, math::LogOp::create(b, loc, s));
    e.mapRows([&](Value x) -> Value {
      return arith::SubFOp::create(b, loc, x, shift);
    });
    return success();
  }
  Value rcp = arith::DivFOp::create(
      b, loc,
      vector::BroadcastOp::create(b, loc, e.f32Vec, constF32(b, loc, 1.0)), s);
  e.mapRows([&](Value x) -> Value {
    Value ex = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, m));
    return arith::MulFOp::create(b, loc, ex, rcp);
  });
  return success();
}
