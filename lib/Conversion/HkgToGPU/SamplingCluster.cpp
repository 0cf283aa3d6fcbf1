//===- SamplingCluster.cpp - a row's workgroups sharing their results -----===//
//
// ctas_per_row = 2 or 4 (sm_90): the workgroups of a cluster share each
// step's results through distributed shared memory. Exchanges: workgroup
// totals written by thread 0 into LDS slots read once by the peers, after
// a cluster barrier (release / acquire: the writes are visible). Every
// thread of every workgroup of the cluster reaches every cluster barrier
// (the branches around them depend only on values the workgroups share).
//
//===----------------------------------------------------------------------===//

#include "SamplingKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::topp;

void TopPKernel::setUpCluster() {
  isT0 = cmpI(arith::CmpIPredicate::eq, s.tid, ci(0));
  // The other workgroups of the cluster, as i32 ranks (rank + 1, ...,
  // rank + split - 1, mod split).
  for (int64_t r = 1; r < s.split; ++r)
    peers.push_back(arith::IndexCastOp::create(
        b, loc, i32,
        arith::RemUIOp::create(b, loc, addI(s.rank, ci(r)), ci(s.split))));
  x32 = kc.addLds({4}, i32);
  x64 = kc.addLds({4}, i64);
}

void TopPKernel::clusterSync() { clusterBarrier(b, loc); }

Value TopPKernel::loadFrom(Value lds, Value at, Value who) {
  return loadFromPeerLds(b, loc, lds, at, who,
                         cast<MemRefType>(lds.getType()).getElementType());
}

std::pair<Value, Value> TopPKernel::exclusiveAcross(Value slots, int64_t k,
                                                    Value v) {
  ifThen(isT0,
         [&] { memref::StoreOp::create(b, loc, v, slots, ValueRange{ci(k)}); });
  clusterSync();
  Value before = c64(0), total = v;
  for (Value who : peers) {
    Value theirs = loadFrom(slots, ci(k), who);
    total = addI(total, theirs);
    Value lower =
        cmpI(arith::CmpIPredicate::ult,
             arith::IndexCastOp::create(b, loc, b.getIndexType(), who), s.rank);
    before = addI(before, selectV(lower, theirs, c64(0)));
  }
  return {before, total};
}

void TopPKernel::combineRange(SmallVector<Value> &stats) {
  Value xf = kc.addLds({2}, f32);
  ifThen(isT0, [&] {
    memref::StoreOp::create(b, loc, stats[0], xf, ValueRange{ci(0)});
    memref::StoreOp::create(b, loc, stats[1], xf, ValueRange{ci(1)});
  });
  clusterSync();
  for (Value who : peers)
    stats = {
        arith::MaxNumFOp::create(b, loc, stats[0], loadFrom(xf, ci(0), who)),
        arith::MinNumFOp::create(b, loc, stats[1], loadFrom(xf, ci(1), who))};
}

// Adds the peers' histograms word by word; every workgroup then holds the
// row's histogram. The second cluster barrier keeps each from changing its
// words before the peers have read them. Ends with a workgroup barrier.
void TopPKernel::mergeHist(Value *light) {
  if (light && *light)
    ifThen(isT0, [&] {
      memref::StoreOp::create(b, loc, *light, x64, ValueRange{ci(0)});
    });
  clusterSync();
  SmallVector<Value> theirs;
  for (int64_t k = 0; k < 3 * binsPerThread; ++k) {
    Value w = addI(s.tid, ci(k * s.threads)), sum;
    for (Value who : peers) {
      Value v = loadFrom(hist, w, who);
      sum = sum ? addI(sum, v) : v;
    }
    theirs.push_back(sum);
  }
  Value peerLight;
  if (light && *light)
    for (Value who : peers) {
      Value v = loadFrom(x64, ci(0), who);
      peerLight = peerLight ? addI(peerLight, v) : v;
    }
  clusterSync();
  for (int64_t k = 0; k < 3 * binsPerThread; ++k) {
    Value w = addI(s.tid, ci(k * s.threads));
    Value mine = memref::LoadOp::create(b, loc, hist, ValueRange{w});
    memref::StoreOp::create(b, loc, addI(mine, theirs[k]), hist, ValueRange{w});
  }
  barrier();
  if (peerLight)
    *light = addI(*light, peerLight);
}

Value TopPKernel::exchangeBinTokens(Value count, SmallVector<Value> &binKeys,
                                    SmallVector<Value> &peerCounts) {
  ifThen(isT0, [&] {
    memref::StoreOp::create(b, loc, count, x32, ValueRange{ci(0)});
    memref::StoreOp::create(b, loc, binKeys[0], x32, ValueRange{ci(1)});
    memref::StoreOp::create(b, loc, binKeys[1], x32, ValueRange{ci(2)});
  });
  clusterSync();
  Value peerCount;
  for (Value who : peers) {
    peerCounts.push_back(loadFrom(x32, ci(0), who));
    peerCount =
        peerCount ? addI(peerCount, peerCounts.back()) : peerCounts.back();
    binKeys = {
        arith::MinSIOp::create(b, loc, binKeys[0], loadFrom(x32, ci(1), who)),
        arith::MaxSIOp::create(b, loc, binKeys[1], loadFrom(x32, ci(2), who))};
  }
  return peerCount;
}
