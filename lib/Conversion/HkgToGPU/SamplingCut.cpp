//===- SamplingCut.cpp - the nucleus cut of top-p sampling ----------------===//
//
// Steps 3 and 4 of top-p sampling (Sampling.cpp), after the mass histogram
// (SamplingHistogram.cpp) has found the bin b* that holds the cut: a
// contiguous pass sums each thread's mass above b* and lists the tokens of
// b* in LDS (with the bin cache, only the vectors in or above b* are
// visited again); then the cut is found among the list's tokens or, when
// they are too many, by key histograms over the row.
//
//===----------------------------------------------------------------------===//

#include "SamplingKernel.h"

#include "hkg/Dialect/Hkg/Utils/SamplingLayout.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::topp;

using mlir::hkg::sampling::kListCapacity;
using mlir::hkg::sampling::kQueueCapacity;

static constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
static constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();

Nucleus TopPKernel::searchNucleus() {
  allocateSearchBuffers();
  massHistogram();
  SmallVector<Value> gathered = gatherCutBin();
  barrier();
  Combiner minMaxI = [&](OpBuilder &bb, Location l, ValueRange x,
                         ValueRange y) -> SmallVector<Value> {
    return {arith::MinSIOp::create(bb, l, x[0], y[0]),
            arith::MaxSIOp::create(bb, l, x[1], y[1])};
  };
  SmallVector<Value> binKeys = s.reduceAll({gathered[1], gathered[2]}, minMaxI);
  Value count = memref::LoadOp::create(b, loc, counter, ValueRange{ci(0)});
  // ctas_per_row > 1: the peers' counts and key ranges of the cut's bin.
  Value peerCount;
  SmallVector<Value> peerCounts;
  if (clustered)
    peerCount = exchangeBinTokens(count, binKeys, peerCounts);
  Value fits = cmpI(arith::CmpIPredicate::sle,
                    peerCount ? addI(count, peerCount) : count,
                    constI32(b, loc, kListCapacity));

  auto ifOp = scf::IfOp::create(b, loc, TypeRange{i32, i64, i64, i64}, fits,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, cutFromList(count, peerCounts, gathered[0]));
  }
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, cutFromKeyHistograms(binKeys));
  }
  Nucleus n;
  n.cut = ifOp.getResult(0);
  Value aboveCut = ifOp.getResult(1);
  n.own = ifOp.getResult(2);
  n.ties = ifOp.getResult(3);
  n.qCut = massOf(s.valueOfKey(n.cut));
  // ceil((P - F(c + 1)) / q_c) >= 1 tied tokens (q_c > 0 at the cut).
  Value safeQ = arith::MaxSIOp::create(b, loc, n.qCut, c64(1));
  n.kTies = arith::DivUIOp::create(
      b, loc, addI(subI(target, aboveCut), subI(safeQ, c64(1))), safeQ);
  n.kTies = arith::MaxSIOp::create(b, loc, n.kTies, c64(1));
  return n;
}

//===----------------------------------------------------------------------===//
// 3. The cut's bin gathered
//===----------------------------------------------------------------------===//

SmallVector<Value> TopPKernel::gatherChunk(const Chunk &c, ValueRange a) {
  Value q = massOf(c.z), bin = c.bin ? c.bin : binOf(c.z);
  Value cb = splatLike(b, loc, cutBin, bin);
  Value above =
      sumI(selectV(cmpI(arith::CmpIPredicate::ult, bin, cb), q, zeroLike(q)));
  above = s.select(c.valid, above, c64(0));
  Value inBin = cmpI(arith::CmpIPredicate::eq, bin, cb);
  if (c.valid)
    inBin = andI(inBin, splatLike(b, loc, c.valid, inBin));
  Value kMin = reduceI(selectV(inBin, c.key, s.splat(kIntMax, c.key)),
                       vector::CombiningKind::MINSI);
  Value kMax = reduceI(selectV(inBin, c.key, s.splat(kIntMin, c.key)),
                       vector::CombiningKind::MAXSI);
  for (int64_t l = 0; l < c.width; ++l) {
    ifThen(lane(inBin, l), [&] {
      Value slot = atomicAdd(constI32(b, loc, 1), counter, ci(0));
      ifThen(cmpI(arith::CmpIPredicate::slt, slot,
                  constI32(b, loc, kListCapacity)),
             [&] {
               Value at = toIndex(slot);
               Value id =
                   arith::IndexCastOp::create(b, loc, i32, addI(c.col, ci(l)));
               memref::StoreOp::create(b, loc, lane(c.key, l), listKey,
                                       ValueRange{at});
               memref::StoreOp::create(b, loc, id, listId, ValueRange{at});
               memref::StoreOp::create(b, loc, lane(q, l), listQ,
                                       ValueRange{at});
             });
    });
  }
  return {addI(a[0], above), arith::MinSIOp::create(b, loc, a[1], kMin),
          arith::MaxSIOp::create(b, loc, a[2], kMax)};
}

// hist[t] and hist[threads + t] now collect what the list adds to thread t
// (mass, ties).
SmallVector<Value> TopPKernel::gatherCutBin() {
  zero64(s.tid);
  zero64(addI(s.tid, ci(s.threads)));
  ifThen(isThread0, [&] {
    memref::StoreOp::create(b, loc, constI32(b, loc, 0), counter,
                            ValueRange{ci(0)});
    memref::StoreOp::create(b, loc, constI32(b, loc, kIntMin), cutSlot,
                            ValueRange{ci(0)});
    memref::StoreOp::create(b, loc, top.above, bcast, ValueRange{ci(1)});
    if (binCache)
      memref::StoreOp::create(b, loc, constI32(b, loc, 0), queueCount,
                              ValueRange{ci(0)});
  });
  barrier();
  SmallVector<Value> gatherInit = {c64(0), constI32(b, loc, kIntMax),
                                   constI32(b, loc, kIntMin)};
  if (binCache)
    return gatherQueued(gatherInit);
  return s.pass(
      gatherInit,
      [&](const Chunk &c, ValueRange a) { return gatherChunk(c, a); },
      /*contiguous=*/true);
}

// With the bin cache, a strided scan of the cached bins queues the vectors
// holding a token in or above the cut's bin (for peaked logits a few hundred
// per row), and the workgroup's threads then gather the queued vectors
// together, crediting each vector's mass above the cut's bin to its
// contiguous owner (LDS atomics on the slots the list's tokens are credited
// to below). A queue that overflows falls back to the contiguous gather over
// the whole share.
SmallVector<Value> TopPKernel::gatherQueued(ArrayRef<Value> init) {
  auto gather = [&](const Chunk &c, ValueRange a) { return gatherChunk(c, a); };
  forEachStrided(ci(s.numVec), [&](Value vi) {
    Value bins = cachedBins(vi);
    Value le =
        cmpI(arith::CmpIPredicate::ule, bins, splatLike(b, loc, cutBin, bins));
    Value need =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, le);
    ifThen(need, [&] {
      Value at = atomicAdd(constI32(b, loc, 1), queueCount, ci(0));
      ifThen(
          cmpI(arith::CmpIPredicate::slt, at, constI32(b, loc, kQueueCapacity)),
          [&] {
            memref::StoreOp::create(b, loc,
                                    arith::IndexCastOp::create(b, loc, i32, vi),
                                    queue, ValueRange{toIndex(at)});
          });
    });
  });
  barrier();
  Value queued = memref::LoadOp::create(b, loc, queueCount, ValueRange{ci(0)});
  auto ifQueue = scf::IfOp::create(
      b, loc, TypeRange{i64, i32, i32},
      cmpI(arith::CmpIPredicate::sle, queued, constI32(b, loc, kQueueCapacity)),
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifQueue.thenBlock());
    auto loop = scf::ForOp::create(b, loc, s.tid, toIndex(queued),
                                   ci(s.threads), ValueRange{init[1], init[2]});
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(loop.getBody());
      Value vi = toIndex(memref::LoadOp::create(
          b, loc, queue, ValueRange{loop.getInductionVar()}));
      Chunk c = s.vectorAt(vi);
      c.bin = cachedBins(vi);
      ValueRange acc = loop.getRegionIterArgs();
      SmallVector<Value> r = gather(c, {c64(0), acc[0], acc[1]});
      Value owner = arith::DivUIOp::create(b, loc, vi, ci(s.vecsPerThread));
      ifThen(cmpI(arith::CmpIPredicate::ne, r[0], c64(0)),
             [&] { atomicAdd64(r[0], owner); });
      scf::YieldOp::create(b, loc, ValueRange{r[1], r[2]});
    }
    scf::YieldOp::create(
        b, loc, ValueRange{c64(0), loop.getResult(0), loop.getResult(1)});
    b.setInsertionPointToStart(ifQueue.elseBlock());
    scf::YieldOp::create(b, loc, s.pass(init, gather, /*contiguous=*/true));
  }
  return SmallVector<Value>(ifQueue.getResults());
}

//===----------------------------------------------------------------------===//
// 4a. The cut among the list's tokens, in LDS
//===----------------------------------------------------------------------===//

SmallVector<Value> TopPKernel::cutFromList(Value count,
                                           ArrayRef<Value> peerCounts,
                                           Value ownMass) {
  // Own entries [0, nOwn); with ctas_per_row > 1 the peers' entries are
  // appended at [nOwn, n) (their lists are complete: the cluster barrier
  // of exchangeBinTokens; the regions written here and read by the peers
  // are disjoint), so every workgroup searches the whole bin and finds the
  // same cut.
  Value nOwn = toIndex(count), n = nOwn;
  if (clustered) {
    for (size_t r = 0; r < peers.size(); ++r) {
      Value who = peers[r], nPeer = toIndex(peerCounts[r]), base = n;
      forEachStrided(nPeer, [&](Value i) {
        Value at = addI(base, i);
        for (Value list : {listKey, listId, listQ})
          memref::StoreOp::create(b, loc, loadFrom(list, i, who), list,
                                  ValueRange{at});
      });
      n = addI(n, nPeer);
    }
    barrier();
  }
  forEachStrided(n, [&](Value j) {
    Value kj = memref::LoadOp::create(b, loc, listKey, ValueRange{j});
    auto inner = scf::ForOp::create(
        b, loc, ci(0), n, ci(1), ValueRange{c64(0), c64(0)},
        [&](OpBuilder &nb, Location, Value i, ValueRange acc) {
          OpBuilder::InsertionGuard g2(b);
          b.setInsertionPointToEnd(nb.getInsertionBlock());
          Value ki = memref::LoadOp::create(b, loc, listKey, ValueRange{i});
          Value qi = memref::LoadOp::create(b, loc, listQ, ValueRange{i});
          Value zero = c64(0);
          Value gt = selectV(cmpI(arith::CmpIPredicate::sgt, ki, kj), qi, zero);
          Value eq = selectV(cmpI(arith::CmpIPredicate::eq, ki, kj), qi, zero);
          scf::YieldOp::create(b, loc,
                               ValueRange{addI(acc[0], gt), addI(acc[1], eq)});
        });
    Value above = addI(top.above, inner.getResult(0));
    Value isCut = andI(cmpI(arith::CmpIPredicate::slt, above, target),
                       cmpI(arith::CmpIPredicate::sle, target,
                            addI(above, inner.getResult(1))));
    // Every token tied at the cut writes the same values.
    ifThen(isCut, [&] {
      memref::StoreOp::create(b, loc, kj, cutSlot, ValueRange{ci(0)});
      memref::StoreOp::create(b, loc, above, bcast, ValueRange{ci(1)});
    });
  });
  barrier();
  Value c = memref::LoadOp::create(b, loc, cutSlot, ValueRange{ci(0)});
  Value aboveCut = memref::LoadOp::create(b, loc, bcast, ValueRange{ci(1)});
  // Credit the list's own tokens above the cut, and its ties, to the
  // threads whose contiguous slices hold them.
  int64_t slice = s.vecsPerThread * s.vw;
  forEachStrided(nOwn, [&](Value j) {
    Value kj = memref::LoadOp::create(b, loc, listKey, ValueRange{j});
    Value id = toIndex(memref::LoadOp::create(b, loc, listId, ValueRange{j}));
    if (clustered)
      id = subI(id, s.colBase);
    Value qj = memref::LoadOp::create(b, loc, listQ, ValueRange{j});
    Value owner = selectV(
        cmpI(arith::CmpIPredicate::ult, id, ci(s.numVec * s.vw)),
        arith::DivUIOp::create(b, loc, id, ci(std::max<int64_t>(slice, 1))),
        ci(s.threads - 1));
    ifThen(cmpI(arith::CmpIPredicate::sgt, kj, c),
           [&] { atomicAdd64(qj, owner); });
    ifThen(cmpI(arith::CmpIPredicate::eq, kj, c),
           [&] { atomicAdd64(c64(1), addI(owner, ci(s.threads))); });
  });
  barrier();
  Value mass = addI(ownMass, load64(s.tid));
  Value tied = load64(addI(s.tid, ci(s.threads)));
  return {c, aboveCut, mass, tied};
}

//===----------------------------------------------------------------------===//
// 4b. The cut by key histograms
//===----------------------------------------------------------------------===//

// Too many tokens in the bin: key histograms over the row, within [lo, hi] =
// the bin's keys, log2(B) bits per pass, then a pass for the per-thread mass.
SmallVector<Value> TopPKernel::cutFromKeyHistograms(ArrayRef<Value> binKeys) {
  auto ext = [&](Value v) -> Value {
    return arith::ExtSIOp::create(b, loc, withType(v, i64), v);
  };
  SmallVector<Value> init = {ext(binKeys[0]), ext(binKeys[1]), top.above};
  auto whileOp = scf::WhileOp::create(b, loc, TypeRange{i64, i64, i64}, init);
  {
    OpBuilder::InsertionGuard g2(b);
    Block *before = b.createBlock(&whileOp.getBefore(), {}, {i64, i64, i64},
                                  {loc, loc, loc});
    scf::ConditionOp::create(b, loc,
                             cmpI(arith::CmpIPredicate::sgt,
                                  before->getArgument(1),
                                  before->getArgument(0)),
                             before->getArguments());
    Block *after = b.createBlock(&whileOp.getAfter(), {}, {i64, i64, i64},
                                 {loc, loc, loc});
    scf::YieldOp::create(b, loc,
                         keyHistogramLevel(after->getArgument(0),
                                           after->getArgument(1),
                                           after->getArgument(2)));
  }
  Value c = arith::TruncIOp::create(b, loc, i32, whileOp.getResult(0));
  auto [mass, tied] = ownPass(c);
  return {c, whileOp.getResult(2), mass, tied};
}

// The histogram of the keys in [lo, hi] over `bins` sub-ranges (index 0: the
// largest keys) and its cut; returns the next [lo, hi] and the mass above it.
SmallVector<Value> TopPKernel::keyHistogramLevel(Value lo, Value hi,
                                                 Value base) {
  auto ext = [&](Value v) -> Value {
    return arith::ExtSIOp::create(b, loc, withType(v, i64), v);
  };
  Value span = subI(hi, lo);
  // shift = max(0, bit length of span - 11): spans are below 2^32.
  Value shift = c64(0);
  for (int64_t k = binBits; k < 33; ++k)
    shift =
        addI(shift, arith::ExtUIOp::create(b, loc, i64,
                                           cmpI(arith::CmpIPredicate::sge, span,
                                                c64(int64_t(1) << k))));
  Value last = arith::ShRUIOp::create(b, loc, span, shift);
  zeroHist();
  barrier();
  s.pass({}, [&](const Chunk &c, ValueRange) -> SmallVector<Value> {
    Value k = ext(c.key);
    Value in =
        andI(cmpI(arith::CmpIPredicate::sge, k, splatLike(b, loc, lo, k)),
             cmpI(arith::CmpIPredicate::sle, k, splatLike(b, loc, hi, k)));
    if (c.valid)
      in = andI(in, splatLike(b, loc, c.valid, in));
    Value q = massOf(c.z);
    // Index 0: the largest keys.
    Value sub = arith::ShRUIOp::create(
        b, loc, subI(k, splatLike(b, loc, lo, k)), splatLike(b, loc, shift, k));
    Value at = subI(splatLike(b, loc, last, k), sub);
    for (int64_t l = 0; l < c.width; ++l)
      ifThen(lane(in, l),
             [&] { atomicAdd64(lane(q, l), toIndex(lane(at, l))); });
    return {};
  });
  barrier();
  if (clustered)
    mergeHist(nullptr);
  Cut level = findCut(base, [&](Value) { return target; });
  Value sub = subI(last, level.bin);
  Value newLo = addI(lo, arith::ShLIOp::create(b, loc, sub, shift));
  Value width = subI(arith::ShLIOp::create(b, loc, c64(1), shift), c64(1));
  Value newHi = arith::MinSIOp::create(b, loc, hi, addI(newLo, width));
  return {newLo, newHi, level.above};
}
