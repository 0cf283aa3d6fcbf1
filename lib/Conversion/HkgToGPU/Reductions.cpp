//===- Reductions.cpp - row ops: reduce and softmax -----------------------===//
//
// hkg.reduce over trailing axes and hkg.softmax over the rows of their input
// (over other axes, down columns: ReductionsColumns.cpp), one row group per
// workgroup, with the passes of RowEmitter (ReductionsRowEmitter.h: how a
// row is laid out over threads, cached between passes and stored); the
// norms are in ReductionsNorms.cpp.
//
// hkg.reduce's kinds, prologue and epilogue are ReductionsKinds.h's.
//
// Numerics: everything is accumulated in f32. Softmax subtracts the row max
// (`online = 1`: one pass computing the running max and rescaled sum
// together; `online = 0`: a max pass, then a sum pass).
//
//===----------------------------------------------------------------------===//

#include "MathRewrites.h"
#include "ReductionsKinds.h"
#include "ReductionsRowEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::rowop;

//===----------------------------------------------------------------------===//
// hkg.reduce
//===----------------------------------------------------------------------===//

LogicalResult mlir::hkg::lowerReduce(ReduceOp op, KernelContext &kc) {
  if (op.getReductionGeometry()[2] > 1)
    return lowerReduceColumns(op, kc);
  auto in = op.getInput().getType();
  int64_t first = op.getAxes().front();
  RowCount rows = RowCount::of(kc, 0, first);
  int64_t len = kc.staticExtent(0, first, in.getRank());
  RowSchedule sched = RowSchedule::decode(kc.schedule);
  RowEmitter e(kc, sched, op, kc.args[0], kc.args.back(), rows, len,
               /*cacheable=*/false);
  e.outputPass = 0; // its one read of the row is the last
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  reduce::KindState kinds(op);
  reduce::Prologue prologue(op, b, loc,
                            ValueRange(kc.args).drop_front().drop_back());
  if (failed(prologue.checkStrides()))
    return failure();
  reduce::InputDims dims(op, kc);
  Combiner combine = kinds.combiner();
  size_t numKinds = kinds.getKinds().size();
  SmallVector<Value> acc = e.pass(
      0, kinds.identity(b, loc, constF32(b, loc, 0.0)),
      [&](const Slot &s, ValueRange a) -> SmallVector<Value> {
        SmallVector<Value> values;
        if (!prologue.exists()) {
          Value x = e.f32(s);
          for (size_t k = 0; k < numKinds; ++k)
            values.push_back(e.mask(s, x, kinds.maskValue(k)));
        } else {
          // Element by element, at its index in the input (positions past
          // the row clamped to its last element: those lanes are masked).
          SmallVector<Value> mapped =
              prologue.applyLanes(s.raw, s.width, [&](int64_t l) {
                Value col = l == 0 ? s.col
                                   : arith::AddIOp::create(
                                         b, loc, s.col, constIndex(b, loc, l));
                if (s.valid)
                  col = arith::MinUIOp::create(b, loc, col,
                                               constIndex(b, loc, len - 1));
                return dims.index(b, loc, e.rowClamped, col,
                                  constIndex(b, loc, 0));
              });
          for (auto [k, v] : llvm::enumerate(mapped))
            values.push_back(e.mask(s, v, kinds.maskValue(k)));
        }
        Value position =
            arith::IndexCastOp::create(b, loc, b.getI32Type(), s.col);
        return kinds.accumulateLanes(b, loc, a, values, position);
      },
      &combine);
  SmallVector<Value> state = e.reduceRow(acc, combine);
  Value r = reduce::applyEpilogue(op, b, loc, kinds.finish(b, loc, state));
  e.storeRowScalar(reshapeView(b, loc, kc.args.back(), {rows.value}), r);
  if (prologue.exists())
    applyActivationRewrites(kc.func);
  return success();
}

//===----------------------------------------------------------------------===//
// hkg.softmax
//===----------------------------------------------------------------------===//

LogicalResult mlir::hkg::lowerSoftmax(SoftmaxOp op, KernelContext &kc) {
  auto in = op.getInput().getType();
  int64_t axis = op.getAxis();
  // Rows where the axis' elements are contiguous (the dims after it, if
  // any, are 1); down columns otherwise.
  if (op.getAxisGeometry()[2] > 1)
    return lowerSoftmaxColumns(op, kc);
  int64_t len = in.getShape()[axis];
  RowCount rows = RowCount::of(kc, 0, axis);
  RowSchedule sched = RowSchedule::decode(kc.schedule);
  RowEmitter e(kc, sched, op, kc.args[0], kc.args[1], rows, len,
               /*cacheable=*/true);
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  double inf = std::numeric_limits<double>::infinity();
  Combiner maxC = makeCombiner(ReduceKind::Max);
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  Value m, s;
  if (sched.online) {
    // (max, sum of exp(x - max)) pairs, rescaled when the max grows.
    Combiner pairC = makeOnlineSoftmaxCombiner();
    SmallVector<Value> init = {constF32(b, loc, -inf), constF32(b, loc, 0.0)};
    SmallVector<Value> acc = e.pass(
        0, init,
        [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
          Value x = e.mask(sl, e.f32(sl), -inf);
          Value vm = reduceVector(b, loc, x, ReduceKind::Max);
          Value mNew = arith::MaxNumFOp::create(b, loc, a[0], vm);
          Value scaled = arith::MulFOp::create(
              b, loc, a[1], expDiffOrZero(b, loc, a[0], mNew));
          Value ex = reduceVector(b, loc, expDiffOrZero(b, loc, x, mNew),
                                  ReduceKind::Sum);
          return {mNew, arith::AddFOp::create(b, loc, scaled, ex)};
        },
        &pairC);
    SmallVector<Value> r = e.reduceRow(acc, pairC);
    m = r[0];
    s = r[1];
  } else {
    Value acc =
        e.pass(
             0, constF32(b, loc, -inf),
             [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
               Value x = e.mask(sl, e.f32(sl), -inf);
               return maxC(b, loc, a, reduceVector(b, loc, x, ReduceKind::Max));
             },
             &maxC)
            .front();
    m = e.reduceRow(acc, maxC).front();
    Value sum = e.pass(
                     1, constF32(b, loc, 0.0),
                     [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
                       Value x = e.mask(sl, e.f32(sl), -inf);
                       Value ex = expDiffOrZero(b, loc, x, m);
                       return sumC(b, loc, a,
                                   reduceVector(b, loc, ex, ReduceKind::Sum));
                     },
                     &sumC)
                    .front();
    s = e.reduceRow(sum, sumC).front();
  }
  // softmax: exp(x - m) * (1 / s); log_softmax: x - (m + log s).
  bool log = op.getLog();
  Value scale =
      log ? arith::AddFOp::create(b, loc, m, math::LogOp::create(b, loc, s))
                .getResult()
          : arith::DivFOp::create(b, loc, constF32(b, loc, 1.0), s).getResult();
  Value out =
      reshapeView(b, loc, kc.args[1], {rows.value, b.getIndexAttr(len)});
  e.outputPass = 2;
  e.pass(
      2, {},
      [&](const Slot &sl, ValueRange) -> SmallVector<Value> {
        Value x = e.f32(sl);
        Value y;
        if (log) {
          y = arith::SubFOp::create(b, loc, x, splatLike(b, loc, scale, x));
        } else {
          Value diff =
              arith::SubFOp::create(b, loc, x, splatLike(b, loc, m, x));
          y = arith::MulFOp::create(b, loc, expBelowMax(b, loc, diff),
                                    splatLike(b, loc, scale, x));
        }
        e.storeRow(out, sl, y);
        return {};
      },
      nullptr);
  e.flushBulkStore(kc.args[1], /*reuse=*/false);
  return success();
}
