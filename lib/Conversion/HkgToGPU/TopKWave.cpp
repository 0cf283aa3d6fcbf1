//===- TopKWave.cpp - hkg.topk, a wave per slice --------------------------===//
//
// For short slices and small k (mixture-of-experts gating: 2 of 64 experts
// per token): each wave of a workgroup takes one slice. Lane l holds the
// keys (TopK.h) of vectors l, l + W, l + 2W... of the slice in registers
// (key 0, below every element's, past the end); each of k rounds finds the
// largest key with a butterfly over the wave (equal keys: the lower
// position), lane 0 stores it, and the lane holding it sets it to 0. No
// LDS, no barrier: waves of a workgroup are independent.
//
//===----------------------------------------------------------------------===//

#include "TopK.h"

#include "hkg/Dialect/Hkg/IR/Schedules/TopKSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;

/// Keeps the larger (key, position) pair: the larger key, on equal keys the
/// lower position.
static SmallVector<Value> maxPair(OpBuilder &b, Location loc, ValueRange x,
                                  ValueRange y) {
  Value larger =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, y[0], x[0]);
  Value tie = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y[0], x[0]),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y[1], x[1]));
  Value takeY = arith::OrIOp::create(b, loc, larger, tie);
  return {arith::SelectOp::create(b, loc, takeY, y[0], x[0]),
          arith::SelectOp::create(b, loc, takeY, y[1], x[1])};
}

LogicalResult mlir::hkg::lowerTopKPerWave(TopKOp op, KernelContext &kc) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  TopKSchedule sched = TopKSchedule::decode(kc.schedule);
  auto in = op.getInput().getType();
  int64_t axis = op.getAxis(), length = in.getDimSize(axis), k = op.getK();
  int64_t outer = 1, inner = 1;
  for (int64_t d : in.getShape().take_front(axis))
    outer *= d;
  for (int64_t d : in.getShape().drop_front(axis + 1))
    inner *= d;
  Type elementType = in.getElementType();
  int64_t wave = kc.waveSize(), vw = sched.vectorWidth;
  int64_t numVectors = length / vw;
  int64_t perLane = llvm::divideCeil(numVectors, wave);
  int64_t slices = outer * inner, perBlock = sched.threads / wave;
  kc.grid = {static_cast<int64_t>(llvm::divideCeil(slices, perBlock)), 1, 1};
  kc.block = {sched.threads, 1, 1};

  Value input = inner == 1
                    ? reshapeView(b, loc, kc.args[0], {outer, length})
                    : reshapeView(b, loc, kc.args[0], {outer, length, inner});
  Value values = reshapeView(b, loc, kc.args[1], {outer, k, inner});
  Value indices = reshapeView(b, loc, kc.args[2], {outer, k, inner});
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  Value tid = threadIdX(b, loc);
  Value lane = arith::RemUIOp::create(b, loc, tid, c(wave));
  Value slice = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, blockIdX(b, loc), c(perBlock)),
      arith::DivUIOp::create(b, loc, tid, c(wave)));
  Value inSlices =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slice, c(slices));
  emitIfThen(b, loc, inSlices, [&] {
    Value o = arith::DivUIOp::create(b, loc, slice, c(inner));
    Value n = arith::RemUIOp::create(b, loc, slice, c(inner));
    // The lane's keys and their positions (i32) along the axis.
    SmallVector<Value> keys, positions;
    Value zeroKey = constI32(b, loc, 0);
    for (int64_t i = 0; i < perLane; ++i) {
      Value v = arith::AddIOp::create(b, loc, lane, c(i * wave));
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           v, c(numVectors));
      Value at = arith::MulIOp::create(
          b, loc, arith::SelectOp::create(b, loc, inside, v, c(0)), c(vw));
      Value x = inner == 1
                    ? loadVector(b, loc, input, {o, at}, vw,
                                 vectorAlignment(elementType, vw))
                    : memref::LoadOp::create(b, loc, input,
                                             ValueRange{o, at, n})
                          .getResult();
      Value vkeys = topKKeyOf(b, loc, x);
      Value pos = arith::IndexCastUIOp::create(
          b, loc, b.getI32Type(), arith::MulIOp::create(b, loc, v, c(vw)));
      for (int64_t l = 0; l < vw; ++l) {
        Value key = isa<VectorType>(vkeys.getType())
                        ? vector::ExtractOp::create(b, loc, vkeys, l).getResult()
                        : vkeys;
        keys.push_back(arith::SelectOp::create(b, loc, inside, key, zeroKey));
        positions.push_back(
            arith::AddIOp::create(b, loc, pos, constI32(b, loc, l)));
      }
    }
    auto rounds = scf::ForOp::create(b, loc, c(0), c(k), c(1), keys);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rounds.getBody());
    ValueRange held = rounds.getRegionIterArgs();
    // The lane's best (its positions rise with the index, so the first of
    // equal keys is the lowest position), then the wave's.
    SmallVector<Value> best = {held[0], positions[0]};
    for (size_t e = 1; e < held.size(); ++e)
      best = maxPair(b, loc, best, {held[e], positions[e]});
    SmallVector<Value> top =
        subgroupReduce(b, loc, best, maxPair, wave, wave);
    Value r = rounds.getInductionVar();
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, c(0));
    emitIfThen(b, loc, first, [&] {
      memref::StoreOp::create(b, loc,
                              topKValueOfKey(b, loc, top[0], elementType),
                              values, ValueRange{o, r, n});
      Value p = top[1];
      Type indexType = op.getIndices().getType().getElementType();
      if (!indexType.isInteger(32))
        p = arith::ExtUIOp::create(b, loc, indexType, p);
      memref::StoreOp::create(b, loc, p, indices, ValueRange{o, r, n});
    });
    SmallVector<Value> next;
    for (auto [key, pos] : llvm::zip(held, positions)) {
      Value taken =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, pos, top[1]);
      next.push_back(arith::SelectOp::create(b, loc, taken, zeroKey, key));
    }
    scf::YieldOp::create(b, loc, next);
  });
  return success();
}
