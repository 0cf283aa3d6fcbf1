//===- SamplingRow.cpp - the passes over a row of logits ------------------===//
//
// LogitRow (SamplingKernel.h): a workgroup's share of a row of logits, the
// strided and contiguous passes over it, z = logits / temperature and the
// order-preserving keys of z.
//
//===----------------------------------------------------------------------===//

#include "SamplingKernel.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::topp;

LogitRow::LogitRow(KernelContext &kc, TopPSampleOp op,
                   const TopPSchedule &sched)
    : kc(kc), b(kc.b), loc(kc.loc) {
  auto t = op.getLogits().getType();
  rows = t.getDimSize(0);
  vocab = t.getDimSize(1);
  vw = sched.vectorWidth;
  threads = sched.threads;
  unroll = sched.unroll;
  // ctas_per_row = 2: a cluster of two workgroups per row, workgroup
  // `rank` of it owning the tokens [rank V / 2, (rank + 1) V / 2) (V a
  // multiple of 2 vector_width: no tail).
  split = sched.ctasPerRow;
  numVec = vocab / vw / split;
  tail = split > 1 ? 0 : vocab % vw;
  vecsPerThread = llvm::divideCeil(numVec, threads);
  tailSlots = llvm::divideCeil(tail, threads);
  inType = t.getElementType();
  align = vocab % vw == 0 ? vectorAlignment(inType, vw)
                          : vectorAlignment(inType, 1);
  temperature = op.getTemperature().convertToDouble();
  invTemp = 1.0 / temperature;
  int exponent;
  // x * (1 / T) equals x / T exactly only when 1 / T is a power of two.
  invTempExact = std::frexp(invTemp, &exponent) == 0.5 &&
                 static_cast<double>(static_cast<float>(invTemp)) == invTemp;
  kc.grid = {rows * split, 1, 1};
  if (split > 1)
    kc.cluster = {split, 1, 1};
  kc.block = {threads, 1, 1};
  logits = kc.args[0];
  tid = threadIdX(b, loc);
  row = blockIdX(b, loc);
  if (split > 1) {
    Value bid = row;
    row = arith::DivUIOp::create(b, loc, bid, constIndex(b, loc, split));
    rank = arith::RemUIOp::create(b, loc, bid, constIndex(b, loc, split));
    colBase =
        arith::MulIOp::create(b, loc, rank, constIndex(b, loc, vocab / split));
  }
}

SmallVector<Value> LogitRow::passStep(Value step, int64_t u, bool contiguous,
                                      bool guard, bool partialStep,
                                      ValueRange args, ChunkFn fn) {
  SmallVector<Value> raws, cols, valids;
  for (int64_t k = 0; k < u; ++k) {
    Value sIdx = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, step, constIndex(b, loc, u)),
        constIndex(b, loc, k));
    Value vi = contiguous
                   ? arith::AddIOp::create(
                         b, loc,
                         arith::MulIOp::create(
                             b, loc, tid, constIndex(b, loc, vecsPerThread)),
                         sIdx)
                   : arith::AddIOp::create(
                         b, loc,
                         arith::MulIOp::create(b, loc, sIdx,
                                               constIndex(b, loc, threads)),
                         tid);
    Value valid;
    if (guard) {
      Value last = constIndex(b, loc, numVec - 1);
      valid =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, vi, last);
      if (partialStep)
        valid = arith::AndIOp::create(
            b, loc, valid,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, sIdx,
                                  constIndex(b, loc, vecsPerThread)));
      vi = arith::MinUIOp::create(b, loc, vi, last);
    }
    Value col = arith::MulIOp::create(b, loc, vi, constIndex(b, loc, vw));
    if (colBase)
      col = arith::AddIOp::create(b, loc, col, colBase);
    raws.push_back(load(col, vw));
    cols.push_back(col);
    valids.push_back(valid);
  }
  SmallVector<Value> a(args);
  for (int64_t k = 0; k < u; ++k)
    a = fn(finish(raws[k], cols[k], vw, valids[k]), a);
  return a;
}

SmallVector<Value> LogitRow::pass(ValueRange init, ChunkFn fn,
                                  bool contiguous) {
  SmallVector<Value> acc(init);
  // `unroll` vectors per step: their loads are issued before any of them
  // is used (bytes in flight), then the chunks are visited in order.
  int64_t u = std::max<int64_t>(1, std::min(unroll, vecsPerThread));
  int64_t steps = llvm::divideCeil(vecsPerThread, u);
  bool partialStep = steps * u > vecsPerThread;
  bool mayOverrun =
      contiguous ? vecsPerThread * threads > numVec : numVec % threads != 0;
  if (vecsPerThread > 0) {
    auto forOp = scf::ForOp::create(
        b, loc, constIndex(b, loc, 0), constIndex(b, loc, steps),
        constIndex(b, loc, 1), acc,
        [&](OpBuilder &nested, Location, Value step, ValueRange args) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToEnd(nested.getInsertionBlock());
          SmallVector<Value> a =
              passStep(step, u, contiguous, mayOverrun || partialStep,
                       partialStep, args, fn);
          scf::YieldOp::create(b, loc, a);
        });
    acc = SmallVector<Value>(forOp.getResults());
  }
  if (contiguous) {
    if (tail == 0)
      return acc;
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                         constIndex(b, loc, threads - 1));
    for (int64_t j = 0; j < tail; ++j)
      acc = fn(chunk(constIndex(b, loc, numVec * vw + j), 1, isLast), acc);
    return acc;
  }
  for (int64_t j = 0; j < tailSlots; ++j) {
    Value e =
        arith::AddIOp::create(b, loc, constIndex(b, loc, j * threads), tid);
    Value valid;
    if ((j + 1) * threads > tail) {
      Value last = constIndex(b, loc, tail - 1);
      valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, e, last);
      e = arith::MinUIOp::create(b, loc, e, last);
    }
    Value col =
        arith::AddIOp::create(b, loc, e, constIndex(b, loc, numVec * vw));
    acc = fn(chunk(col, 1, valid), acc);
  }
  return acc;
}

Chunk LogitRow::vectorAt(Value vi) {
  Value col = arith::MulIOp::create(b, loc, vi, constIndex(b, loc, vw));
  if (colBase)
    col = arith::AddIOp::create(b, loc, col, colBase);
  return chunk(col, vw, Value());
}

SmallVector<Value> LogitRow::reduceAll(ValueRange values,
                                       const Combiner &combine) {
  return groupReduce(kc, values, combine, threads, 1, constIndex(b, loc, 0),
                     tid);
}

Value LogitRow::keyOf(Value z) {
  Type i32 = withI32(z.getType());
  Value bits = arith::BitcastOp::create(b, loc, i32, z);
  Value sign = arith::ShRSIOp::create(b, loc, bits, splat(31, bits));
  Value mask = arith::AndIOp::create(b, loc, sign, splat(0x7FFFFFFF, bits));
  return arith::XOrIOp::create(b, loc, bits, mask);
}

Value LogitRow::valueOfKey(Value key) {
  Value sign = arith::ShRSIOp::create(b, loc, key, constI32(b, loc, 31));
  Value mask =
      arith::AndIOp::create(b, loc, sign, constI32(b, loc, 0x7FFFFFFF));
  Value bits = arith::XOrIOp::create(b, loc, key, mask);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

Value LogitRow::splat(int64_t v, Value like) {
  return splatLike(b, loc, constI32(b, loc, v), like);
}

Value LogitRow::select(Value cond, Value x, Value y) {
  if (!cond)
    return x;
  return arith::SelectOp::create(b, loc, cond, x, y);
}

Type LogitRow::withI32(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.clone(b.getI32Type());
  return b.getI32Type();
}

Chunk LogitRow::chunk(Value col, int64_t width, Value valid) {
  return finish(load(col, width), col, width, valid);
}

Value LogitRow::load(Value col, int64_t width) {
  return loadVector(b, loc, logits, ValueRange{row, col}, width,
                    width == 1 ? vectorAlignment(inType, 1) : align);
}

Chunk LogitRow::finish(Value raw, Value col, int64_t width, Value valid) {
  Value x = toF32(b, loc, raw);
  // z = x / T correctly rounded (the reference's logits / temperature): a
  // multiply by 1 / T only where that is exact. A rounded z also keeps the
  // backend from fusing the scaling into exp's argument (x * c - max as one
  // fma) differently at different places.
  Value z =
      invTempExact
          ? arith::MulFOp::create(
                b, loc, x, splatLike(b, loc, constF32(b, loc, invTemp), x))
                .getResult()
          : arith::DivFOp::create(
                b, loc, x, splatLike(b, loc, constF32(b, loc, temperature), x))
                .getResult();
  // -0 + 0 = +0: equal logits get equal keys (ties), whatever their sign.
  z = arith::AddFOp::create(b, loc, z,
                            splatLike(b, loc, constF32(b, loc, 0.0), z));
  return {z, keyOf(z), valid, col, width};
}
