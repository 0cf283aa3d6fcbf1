//===- ReductionsNorms.cpp - layernorm and rmsnorm ------------------------===//
//
// hkg.layernorm and hkg.rmsnorm over the rows of their input (trailing axes:
// a row is the product of the normalized dims, the weight and bias indexed by
// the flat column), one row group per workgroup (or `row_steps` of them in
// turn), with the passes of RowEmitter (ReductionsRowEmitter.h). Over one
// axis with kept dims after it, down columns: ReductionsNormColumns.cpp.
//
// Numerics: everything is accumulated in f32. Layernorm computes the mean,
// then the variance as the mean of squared deviations (two-pass, exact to
// rounding, no cancellation), or with `moments = merged` both from one row
// reduction of per-thread (count, mean, M2) triples (Chan et al.).
//
//===----------------------------------------------------------------------===//

#include "ReductionsRowEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::rowop;

/// The row's sum of `f(x)` over valid elements, reduced over the row.
/// `onSlot`, when given, is called on each slot before its sum.
static Value rowSum(RowEmitter &e, int pass, function_ref<Value(Value)> f,
                    function_ref<void(const Slot &)> onSlot = nullptr) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  Value acc =
      e.pass(
           pass, constF32(b, loc, 0.0),
           [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
             if (onSlot)
               onSlot(sl);
             Value v = e.mask(sl, f(e.f32(sl)), 0.0);
             return sumC(b, loc, a, reduceVector(b, loc, v, ReduceKind::Sum));
           },
           &sumC)
          .front();
  return e.reduceRow(acc, sumC).front();
}

/// Experimental, opt-in with the discardable attribute
/// `hkg.prefetch_columns` on a layernorm / rmsnorm op (not a schedule knob
/// yet; for side-by-side measurements): with row_cache = registers, the
/// weight / bias vectors are loaded in the first pass, next to the row's
/// loads, instead of after the row reductions, so their latency is not on
/// the row's critical path (costs registers).
namespace {
struct ColumnPrefetch {
  ColumnPrefetch(Operation *op, RowEmitter &e, ValueRange columns)
      : e(e), columns(columns.begin(), columns.end()) {
    enabled =
        op->hasAttr("hkg.prefetch_columns") && e.cache == RowCache::Registers;
  }
  /// Called on every slot of the first pass.
  void onSlot(const Slot &sl) {
    if (!enabled)
      return;
    // Kept in the column's type (bf16: half the registers of f32) until
    // its use.
    for (Value c : columns) {
      if (!c) {
        loaded.push_back(Value());
        continue;
      }
      Type et = cast<MemRefType>(c.getType()).getElementType();
      loaded.push_back(loadVector(e.b, e.loc, c, sl.col, sl.width,
                                  vectorAlignment(et, sl.width)));
    }
  }
  /// The column `i` (of `columns`) of the next slot of the last pass, in
  /// the column's element type (converted to f32 where it is used, so that
  /// the last pass's batched loads hold packed values).
  Value get(unsigned i, const Slot &sl) {
    if (!enabled)
      return columns[i] ? e.loadColumn(columns[i], sl) : Value();
    Value v = loaded[next + i];
    if (i + 1 == columns.size())
      next += columns.size();
    return v;
  }
  RowEmitter &e;
  SmallVector<Value> columns, loaded;
  size_t next = 0;
  bool enabled = false;
};
} // namespace

/// `moments = merged`: the row's mean and sum of squared deviations with a
/// single row reduction. Pass 0 sums each thread's elements and counts
/// them; pass 1 sums the squared deviations from the thread's own mean; the
/// (count, mean, M2) triples are combined over the row by Chan et al.'s
/// pairwise update (n = na + nb, d = mb - ma, mean = ma + d nb / n,
/// M2 = M2a + M2b + d^2 na nb / n), which stays exact where E[x^2] - mean^2
/// would cancel.
static std::pair<Value, Value> mergedMoments(RowEmitter &e,
                                             ColumnPrefetch &pf) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  Combiner pairSumC = [&](OpBuilder &bb, Location l, ValueRange x,
                          ValueRange y) -> SmallVector<Value> {
    return {arith::AddFOp::create(bb, l, x[0], y[0]),
            arith::AddFOp::create(bb, l, x[1], y[1])};
  };
  SmallVector<Value> sc = e.pass(
      0, {constF32(b, loc, 0.0), constF32(b, loc, 0.0)},
      [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
        pf.onSlot(sl);
        Value x = e.f32(sl);
        Value v = e.mask(sl, x, 0.0);
        // The slot's width, or 0 where it is masked off.
        Value n = constF32(b, loc, static_cast<double>(sl.width));
        if (sl.valid)
          n = arith::SelectOp::create(b, loc, sl.valid, n,
                                      constF32(b, loc, 0.0));
        return pairSumC(b, loc, a,
                        {reduceVector(b, loc, v, ReduceKind::Sum), n});
      },
      &pairSumC);
  Value count = sc[1];
  Value localMean = arith::DivFOp::create(
      b, loc, sc[0],
      arith::MaxNumFOp::create(b, loc, count, constF32(b, loc, 1.0)));
  Value m2 =
      e.pass(
           1, constF32(b, loc, 0.0),
           [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
             Value x = e.f32(sl);
             Value d = arith::SubFOp::create(b, loc, x,
                                             splatLike(b, loc, localMean, x));
             Value v = e.mask(
                 sl, arith::MulFOp::create(b, loc, d, d).getResult(), 0.0);
             return sumC(b, loc, a, reduceVector(b, loc, v, ReduceKind::Sum));
           },
           &sumC)
          .front();
  Combiner chanC = [](OpBuilder &bb, Location l, ValueRange x,
                      ValueRange y) -> SmallVector<Value> {
    Value n = arith::AddFOp::create(bb, l, x[0], y[0]);
    // A weight, not a result: the approximate reciprocal (rcp.approx on
    // NVIDIA, v_rcp_f32 on AMD; about 1 ulp) keeps the correctly rounded
    // division's registers out of the reduction tree.
    Value inv = arith::DivFOp::create(
        bb, l, constF32(bb, l, 1.0),
        arith::MaxNumFOp::create(bb, l, n, constF32(bb, l, 1.0)),
        arith::FastMathFlags::afn);
    Value d = arith::SubFOp::create(bb, l, y[1], x[1]);
    Value wb = arith::MulFOp::create(bb, l, y[0], inv);
    Value mean =
        arith::AddFOp::create(bb, l, x[1], arith::MulFOp::create(bb, l, d, wb));
    Value cross =
        arith::MulFOp::create(bb, l, arith::MulFOp::create(bb, l, d, d),
                              arith::MulFOp::create(bb, l, x[0], wb));
    Value m2 = arith::AddFOp::create(
        bb, l, arith::AddFOp::create(bb, l, x[2], y[2]), cross);
    return {n, mean, m2};
  };
  SmallVector<Value> r = e.reduceRow({count, localMean, m2}, chanC);
  return {r[1], r[2]};
}

/// The norm's weight or bias argument `m` (of the normalized dims' shape) as
/// the [len] vector a row's flat column indexes; null stays null.
static Value flatColumns(KernelContext &kc, Value m, int64_t len) {
  return m ? reshapeView(kc.b, kc.loc, m, {len}) : Value();
}

LogicalResult mlir::hkg::lowerLayerNorm(LayerNormOp op, KernelContext &kc) {
  std::array<int64_t, 3> g = op.getNormGeometry();
  if (g[2] > 1)
    return lowerLayerNormColumns(op, kc);
  RowCount rows = RowCount::of(kc, 0, op.getNormAxes().front());
  int64_t len = g[1];
  unsigned argIdx = 1;
  Value weight = op.getWeight() ? kc.args[argIdx++] : Value();
  Value bias = op.getBias() ? kc.args[argIdx++] : Value();
  Value outArg = kc.args.back();
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  weight = flatColumns(kc, weight, len);
  bias = flatColumns(kc, bias, len);
  RowSchedule sched = RowSchedule::decode(kc.schedule);
  emitRowSteps(
      kc, sched, op, kc.args[0], outArg, rows, len, [&](RowEmitter &e) {
        Value invLen = constF32(b, loc, 1.0 / static_cast<double>(len));
        ColumnPrefetch pf(op, e, {weight, bias});
        Value mean, sq;
        if (sched.moments == RowMoments::Merged) {
          std::tie(mean, sq) = mergedMoments(e, pf);
        } else {
          Value sum = rowSum(
              e, 0, [](Value x) { return x; },
              [&](const Slot &sl) { pf.onSlot(sl); });
          mean = arith::MulFOp::create(b, loc, sum, invLen);
          sq = rowSum(e, 1, [&](Value x) {
            Value d =
                arith::SubFOp::create(b, loc, x, splatLike(b, loc, mean, x));
            return arith::MulFOp::create(b, loc, d, d).getResult();
          });
        }
        Value var = arith::MulFOp::create(b, loc, sq, invLen);
        Value eps = constF32(b, loc, op.getEps().convertToDouble());
        Value rstd = math::RsqrtOp::create(
            b, loc, arith::AddFOp::create(b, loc, var, eps));
        Value out =
            reshapeView(b, loc, outArg, {rows.value, b.getIndexAttr(len)});
        e.lastPass(
            2, (weight ? 1 : 0) + (bias ? 1 : 0),
            [&](const Slot &sl) -> SmallVector<Value> {
              Value w = pf.get(0, sl);
              return {w, pf.get(1, sl)};
            },
            [&](const Slot &sl, ArrayRef<Value> cols) {
              Value x = e.f32(sl);
              Value d =
                  arith::SubFOp::create(b, loc, x, splatLike(b, loc, mean, x));
              Value y =
                  arith::MulFOp::create(b, loc, d, splatLike(b, loc, rstd, x));
              if (weight)
                y = arith::MulFOp::create(b, loc, y, e.columnF32(cols[0]));
              if (bias)
                y = arith::AddFOp::create(b, loc, y, e.columnF32(cols[1]));
              e.storeRow(out, sl, y);
            });
      });
  return success();
}

LogicalResult mlir::hkg::lowerRMSNorm(RMSNormOp op, KernelContext &kc) {
  std::array<int64_t, 3> g = op.getNormGeometry();
  if (g[2] > 1)
    return lowerRMSNormColumns(op, kc);
  RowCount rows = RowCount::of(kc, 0, op.getNormAxes().front());
  int64_t len = g[1];
  Value weight = flatColumns(kc, op.getWeight() ? kc.args[1] : Value(), len);
  Value outArg = kc.args.back();
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  RowSchedule sched = RowSchedule::decode(kc.schedule);
  emitRowSteps(
      kc, sched, op, kc.args[0], outArg, rows, len, [&](RowEmitter &e) {
        ColumnPrefetch pf(op, e, {weight});
        Value sq = rowSum(
            e, 0,
            [&](Value x) {
              return arith::MulFOp::create(b, loc, x, x).getResult();
            },
            [&](const Slot &sl) { pf.onSlot(sl); });
        Value ms = arith::MulFOp::create(
            b, loc, sq, constF32(b, loc, 1.0 / static_cast<double>(len)));
        Value eps = constF32(b, loc, op.getEps().convertToDouble());
        Value rstd = math::RsqrtOp::create(
            b, loc, arith::AddFOp::create(b, loc, ms, eps));
        Value out =
            reshapeView(b, loc, outArg, {rows.value, b.getIndexAttr(len)});
        e.lastPass(
            1, weight ? 1 : 0,
            [&](const Slot &sl) -> SmallVector<Value> {
              return {pf.get(0, sl)};
            },
            [&](const Slot &sl, ArrayRef<Value> cols) {
              Value x = e.f32(sl);
              Value y =
                  arith::MulFOp::create(b, loc, x, splatLike(b, loc, rstd, x));
              if (weight)
                y = arith::MulFOp::create(b, loc, y, e.columnF32(cols[0]));
              e.storeRow(out, sl, y);
            });
      });
  return success();
}
