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
      across(sched.threads / sched.rowsPerBlock), unroll(sched.unroll),
      split(sched.axisSplit), chunk(llvm::divideCeil(len, sched.axisSplit)),
      cached(sched.columnCache == RowCache::Registers) {
  int64_t tileCols = across * vw;
  int64_t tiles = llvm::divideCeil(inner, tileCols);
  kc.grid = {outer * tiles * split, 1, 1};
  kc.block = {sched.threads, 1, 1};
  if (split > 1)
    kc.cluster = {split, 1, 1};
  inT = cast<MemRefType>(input.getType()).getElementType();
  outT = cast<MemRefType>(output.getType()).getElementType();
  f32Vec = VectorType::get({vw}, b.getF32Type());
  in = reshapeView(b, loc, input, {outer, len, inner});
  out = reshapeView(b, loc, output, {outer, outLen, inner});
  Value tid = threadIdX(b, loc), bid = blockIdX(b, loc);
  // A cluster's workgroups are consecutive along x: rank = bid % split.
  Value strip = bid;
  rowBegin = c(0);
  rowEnd = c(len);
  if (split > 1) {
    rank = arith::RemUIOp::create(b, loc, bid, c(split));
    strip = arith::DivUIOp::create(b, loc, bid, c(split));
    rowBegin = arith::MulIOp::create(b, loc, rank, c(chunk));
    rowEnd = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, rowBegin, c(chunk)), c(len));
  }
  o = arith::DivUIOp::create(b, loc, strip, c(tiles));
  Value tile = arith::RemUIOp::create(b, loc, strip, c(tiles));
  tx = arith::RemUIOp::create(b, loc, tid, c(across));
  ty = arith::DivUIOp::create(b, loc, tid, c(across));
  col = arith::AddIOp::create(b, loc,
                              arith::MulIOp::create(b, loc, tile, c(tileCols)),
                              arith::MulIOp::create(b, loc, tx, c(vw)));
  valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, c(inner));
  if (cached)
    loadCache();
}

void ColumnEmitter::loadCache() {
  // Every load of the thread's share up front, in bounds: the row clamped
  // to the last, the column of a thread past the columns to the last
  // vector (vector_width divides them); those lanes are never stored.
  Value safeCol = arith::MinUIOp::create(b, loc, col, c(inner - vw));
  // The smallest share (the last workgroup's): rows below it are in every
  // workgroup's share.
  int64_t minChunk = std::max<int64_t>(0, len - (split - 1) * chunk);
  int64_t perThread = llvm::divideCeil(chunk, down);
  Value first = arith::AddIOp::create(b, loc, rowBegin, ty);
  for (int64_t k = 0; k < perThread; ++k) {
    Value r = arith::AddIOp::create(b, loc, first, c(k * down));
    Value inRange;
    if ((k + 1) * down > minChunk)
      inRange =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r, rowEnd);
    Value clamped = arith::MinUIOp::create(b, loc, r, c(len - 1));
    Value raw = loadVector(b, loc, in, ValueRange{o, clamped, safeCol}, vw,
                           vectorAlignment(inT, vw));
    cache.push_back({raw, clamped, inRange});
  }
}

Value ColumnEmitter::cachedF32(Value raw) {
  if (!inT.isBF16())
    return toF32(b, loc, raw);
  // Three forms (arith.extf, the bits by word, by element) that CSE does not
  // merge: the row stays packed between passes instead of living as f32.
  switch (passes % 3) {
  case 0:
    return toF32(b, loc, raw);
  case 1:
    return bf16ToF32Bits(b, loc, raw, /*wordwise=*/true);
  default:
    return bf16ToF32Bits(b, loc, raw, /*wordwise=*/false);
  }
}

Value ColumnEmitter::splat(double v) {
  return vector::BroadcastOp::create(b, loc, f32Vec, constF32(b, loc, v));
}

Value ColumnEmitter::fold(double identity, const Combiner &combine,
                          function_ref<Value(Value)> map) {
  if (cached) {
    Value acc = splat(identity);
    for (const CachedRow &row : cache) {
      Value next = combine(b, loc, acc, map(cachedF32(row.raw))).front();
      acc = row.inRange
                ? arith::SelectOp::create(b, loc, row.inRange, next, acc)
                : next;
    }
    ++passes;
    return acc;
  }
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
  auto loop =
      scf::ForOp::create(b, loc, rowBegin, rowEnd, c(down * unroll), init);
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
                                          rows[u], rowEnd);
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

/// `v` (a vector of 32-bit lanes) from lane `lane ^ offset` of the wave.
static Value shuffleXor(OpBuilder &b, Location loc, Value v, int64_t offset,
                        int64_t wave) {
  auto vt = cast<VectorType>(v.getType());
  SmallVector<Value> lanes;
  for (int64_t l = 0; l < vt.getNumElements(); ++l) {
    Value x = vector::ExtractOp::create(b, loc, v, l);
    lanes.push_back(
        gpu::ShuffleOp::create(b, loc, x, offset, wave, gpu::ShuffleMode::XOR)
            .getShuffleResult());
  }
  return vector::FromElementsOp::create(b, loc, vt, lanes);
}

SmallVector<Value> ColumnEmitter::combineWorkgroup(ValueRange partial,
                                                   const Combiner &combine) {
  SmallVector<Value> acc(partial);
  if (down == 1)
    return acc;
  // The thread rows of a wave share its lanes above the tile's (lane =
  // (ty % rowsPerWave) * across + tx): a butterfly over those bits.
  int64_t wave = kc.waveSize();
  int64_t rowsPerWave = std::min<int64_t>(
      down, across < wave ? wave / across : static_cast<int64_t>(1));
  for (int64_t offset = across; offset < across * rowsPerWave; offset *= 2) {
    SmallVector<Value> other = llvm::map_to_vector(
        acc, [&](Value v) { return shuffleXor(b, loc, v, offset, wave); });
    acc = combine(b, loc, acc, other);
  }
  int64_t groups = down / rowsPerWave;
  if (groups == 1)
    return acc;
  // One row per wave through LDS: [n * groups, tile] f32 (i32 states
  // bitcast), a buffer of its own per call (no trailing barrier).
  int64_t n = static_cast<int64_t>(acc.size());
  int64_t tileCols = across * vw;
  Value buf = kc.addLds({n * groups, tileCols}, b.getF32Type());
  Value at = arith::MulIOp::create(b, loc, tx, c(vw));
  Value group = arith::DivUIOp::create(b, loc, ty, c(rowsPerWave));
  Value leader = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, ty, c(rowsPerWave)), c(0));
  auto bufRow = [&](int64_t j, Value g) {
    return arith::AddIOp::create(b, loc, c(j * groups), g);
  };
  emitIfThen(b, loc, leader, [&] {
    for (auto [j, v] : llvm::enumerate(acc)) {
      Value w = v.getType() == f32Vec
                    ? v
                    : arith::BitcastOp::create(b, loc, f32Vec, v).getResult();
      vector::StoreOp::create(b, loc, w, buf, ValueRange{bufRow(j, group), at});
    }
  });
  gpu::BarrierOp::create(b, loc);
  SmallVector<Type> types = llvm::to_vector(
      llvm::map_range(acc, [](Value v) { return v.getType(); }));
  auto readRow = [&](Value g) {
    SmallVector<Value> vals;
    for (auto [j, t] : llvm::enumerate(types)) {
      Value w = vector::LoadOp::create(b, loc, f32Vec, buf,
                                       ValueRange{bufRow(j, g), at});
      vals.push_back(
          t == f32Vec ? w : arith::BitcastOp::create(b, loc, t, w).getResult());
    }
    return vals;
  };
  // Every thread folds the rows in the same order: the same total.
  auto loop = scf::ForOp::create(b, loc, c(1), c(groups), c(1), readRow(c(0)));
  // Fully unrolled, LLVM would hoist every row's LDS read.
  disableLLVMUnroll(loop);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  scf::YieldOp::create(b, loc,
                       combine(b, loc, loop.getRegionIterArgs(),
                               readRow(loop.getInductionVar())));
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> ColumnEmitter::combineCluster(ValueRange total,
                                                 const Combiner &combine) {
  // Thread row 0 parks the workgroup's totals (one vector per column
  // slot of the tile).
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ty, c(0));
  return clusterCombine(kc, total, combine, split, across, tx, first);
}

SmallVector<Value> ColumnEmitter::combineRowsState(ValueRange partial,
                                                   const Combiner &combine) {
  SmallVector<Value> acc = combineWorkgroup(partial, combine);
  if (split > 1)
    acc = combineCluster(acc, combine);
  return acc;
}

Value ColumnEmitter::combineRows(Value partial, const Combiner &combine) {
  return combineRowsState(ValueRange{partial}, combine).front();
}

void ColumnEmitter::mapRows(function_ref<Value(Value)> emit) {
  mapRows([&](Value x, Value) { return emit(x); });
}

void ColumnEmitter::mapRows(function_ref<Value(Value, Value)> emit) {
  if (cached) {
    for (const CachedRow &row : cache) {
      Value cond = row.inRange
                       ? arith::AndIOp::create(b, loc, valid, row.inRange)
                       : valid;
      emitIfThen(b, loc, cond, [&] {
        storeVector(
            b, loc, fromF32(b, loc, emit(cachedF32(row.raw), row.row), outT),
            out, ValueRange{o, row.row, col}, vectorAlignment(outT, vw));
      });
    }
    ++passes;
    return;
  }
  auto ifValid = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifValid.thenBlock());
  Value first = arith::AddIOp::create(b, loc, rowBegin, ty);
  auto loop = scf::ForOp::create(b, loc, first, rowEnd, c(down));
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
  Value cond = arith::AndIOp::create(b, loc, valid, first);
  // Every workgroup of the cluster holds the total: rank 0 stores it.
  if (rank)
    cond = arith::AndIOp::create(
        b, loc, cond,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank, c(0)));
  auto ifStore = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
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
  Value s = e.combineRows(
      e.fold(0.0, sumC,
             [&](Value x) -> Value {
               return expBelowMax(b, loc, arith::SubFOp::create(b, loc, x, m));
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
    Value ex = expBelowMax(b, loc, arith::SubFOp::create(b, loc, x, m));
    return arith::MulFOp::create(b, loc, ex, rcp);
  });
  return success();
}
