//===- SamplingHistogram.cpp - the mass histogram and its cut search ------===//
//
// Step 2 of top-p sampling (Sampling.cpp): a histogram of the tokens' mass
// over bins uniform in z, in LDS, and the search of a histogram for the bin
// where the mass from the top reaches a target (also the key histograms of
// SamplingCut.cpp). A 64-bit bin is three i32 words of wordBits bits each
// (bits [0, w), [w, 2w), [2w, 3w) of every mass added, w = 32 - log2 V: the
// sum of V of them fits in a word). An add is up to three 32-bit LDS
// atomics whose results are not used (fire and forget; a 64-bit LDS atomic
// add is a compare-and-swap loop on NVIDIA GPUs, and a carry from a
// returned low word would wait for it).
//
//===----------------------------------------------------------------------===//

#include "SamplingKernel.h"

#include "hkg/Dialect/Hkg/Utils/SamplingLayout.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::topp;

using mlir::hkg::sampling::kListCapacity;
using mlir::hkg::sampling::kQueueCapacity;

void TopPKernel::allocateSearchBuffers() {
  hist = kc.addLds({3 * numBins}, i32);
  bcast = kc.addLds({2}, i64);
  cutSlot = kc.addLds({1}, i32);
  counter = kc.addLds({1}, i32);
  listKey = kc.addLds({kListCapacity}, i32);
  listId = kc.addLds({kListCapacity}, i32);
  listQ = kc.addLds({kListCapacity}, i64);
  // bin_cache = 1: pass 2 keeps every vector's bins (i16) in LDS, laid out
  // by the contiguous owner of the vector (pass 3's thread t reads
  // [t stride, t stride + vecsPerThread vw)); the row of each owner is
  // padded by 8 bytes (at least a vector) so that the owners of a
  // half-warp start in different banks (pass 3's reads), while pass 2's
  // strided writes stay runs of consecutive words.
  binCache = sched.binCache;
  int64_t cachePad = sampling::binCachePad(s.vw);
  cacheStride = s.vecsPerThread * s.vw + cachePad;
  if (binCache) {
    binCacheMem = kc.addLds({s.threads * cacheStride}, b.getI16Type());
    queue = kc.addLds({kQueueCapacity}, i32);
    queueCount = kc.addLds({1}, i32);
  }
  cacheAlign = 2 * s.vw;
  isThread0 = cmpI(arith::CmpIPredicate::eq, s.tid, ci(0));
}

//===----------------------------------------------------------------------===//
// Histogram words
//===----------------------------------------------------------------------===//

void TopPKernel::zeroHist() {
  for (int64_t k = 0; k < 3 * binsPerThread; ++k)
    memref::StoreOp::create(b, loc, constI32(b, loc, 0), hist,
                            ValueRange{addI(s.tid, ci(k * s.threads))});
}

Value TopPKernel::word(Value bin, int64_t k) {
  return addI(arith::MulIOp::create(b, loc, bin, ci(3)), ci(k));
}

Value TopPKernel::load64(Value bin) {
  Value v = c64(0);
  for (int64_t k = 0; k < 3; ++k) {
    Value w = memref::LoadOp::create(b, loc, hist, ValueRange{word(bin, k)});
    v = addI(v, arith::ShLIOp::create(b, loc,
                                      arith::ExtUIOp::create(b, loc, i64, w),
                                      c64(k * wordBits)));
  }
  return v;
}

void TopPKernel::zero64(Value bin) {
  for (int64_t k = 0; k < 3; ++k)
    memref::StoreOp::create(b, loc, constI32(b, loc, 0), hist,
                            ValueRange{word(bin, k)});
}

void TopPKernel::atomicAdd64(Value v, Value bin) {
  Value mask = c64((int64_t(1) << wordBits) - 1);
  for (int64_t k = 0; k < 3; ++k) {
    Value part = arith::TruncIOp::create(
        b, loc, i32,
        arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, v, c64(k * wordBits)),
            mask));
    // The high word is 0 for all but the heaviest tokens.
    if (k == 2)
      ifThen(cmpI(arith::CmpIPredicate::ne, part, constI32(b, loc, 0)),
             [&] { atomicAdd(part, hist, word(bin, k)); });
    else
      atomicAdd(part, hist, word(bin, k));
  }
}

//===----------------------------------------------------------------------===//
// The cut search
//===----------------------------------------------------------------------===//

// Returns the bin, the mass above it (base included), the total and P. Ends
// with a barrier: `hist` and `bcast` may be written again.
Cut TopPKernel::findCut(Value base, function_ref<Value(Value)> targetOf) {
  ifThen(isThread0, [&] {
    memref::StoreOp::create(b, loc, c64(numBins - 1), bcast, ValueRange{ci(0)});
    memref::StoreOp::create(b, loc, base, bcast, ValueRange{ci(1)});
  });
  barrier();
  Value first = arith::MulIOp::create(b, loc, s.tid, ci(binsPerThread));
  SmallVector<Value> mine;
  Value local = c64(0);
  for (int64_t k = 0; k < binsPerThread; ++k) {
    mine.push_back(load64(addI(first, ci(k))));
    local = addI(local, mine.back());
  }
  ScanResult scan = workgroupScan(kc, local, s.tid);
  Value target = targetOf(scan.total);
  Value lo = addI(base, scan.exclusive);
  Value holds = andI(cmpI(arith::CmpIPredicate::slt, lo, target),
                     cmpI(arith::CmpIPredicate::sle, target, addI(lo, local)));
  ifThen(holds, [&] {
    Value run = lo,
          found = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    Value bin = c64(numBins - 1), above = lo;
    Value firstI64 = arith::IndexCastOp::create(b, loc, i64, first);
    for (int64_t k = 0; k < binsPerThread; ++k) {
      Value next = addI(run, mine[k]);
      Value hit = andI(cmpI(arith::CmpIPredicate::sge, next, target),
                       arith::XOrIOp::create(b, loc, found,
                                             arith::ConstantIntOp::create(
                                                 b, loc, b.getI1Type(), 1)));
      bin = selectV(hit, addI(firstI64, c64(k)), bin);
      above = selectV(hit, run, above);
      found = arith::OrIOp::create(b, loc, found, hit);
      run = next;
    }
    memref::StoreOp::create(b, loc, bin, bcast, ValueRange{ci(0)});
    memref::StoreOp::create(b, loc, above, bcast, ValueRange{ci(1)});
  });
  barrier();
  Cut r{memref::LoadOp::create(b, loc, bcast, ValueRange{ci(0)}),
        memref::LoadOp::create(b, loc, bcast, ValueRange{ci(1)}), scan.total,
        target};
  barrier();
  return r;
}

//===----------------------------------------------------------------------===//
// Bins and the bin cache
//===----------------------------------------------------------------------===//

// bin(z) = min(floor((max z - z) (B - 1) / (max z - min z)), B - 1).
Value TopPKernel::binOf(Value z) {
  Value d = arith::SubFOp::create(b, loc, splatLike(b, loc, maxZ, z), z);
  Value t = arith::MulFOp::create(b, loc, d, splatLike(b, loc, scale, z));
  t = arith::MinNumFOp::create(
      b, loc, t, splatLike(b, loc, constF32(b, loc, numBins - 1), z));
  return arith::FPToUIOp::create(b, loc, withType(z, i32), t);
}

Value TopPKernel::binSlot(Value vi) {
  Value owner = arith::DivUIOp::create(b, loc, vi, ci(s.vecsPerThread));
  Value j = arith::RemUIOp::create(b, loc, vi, ci(s.vecsPerThread));
  return addI(arith::MulIOp::create(b, loc, owner, ci(cacheStride)),
              arith::MulIOp::create(b, loc, j, ci(s.vw)));
}

// Pass 2: the bins of chunk `c` (a whole vector: no tail) to the cache.
void TopPKernel::cacheBins(const Chunk &c, Value bin) {
  if (!binCache)
    return;
  Value local = s.colBase ? subI(c.col, s.colBase) : c.col;
  Value vi = arith::DivUIOp::create(b, loc, local, ci(s.vw));
  Value narrow = arith::TruncIOp::create(
      b, loc, VectorType::get({s.vw}, b.getI16Type()), bin);
  storeVector(b, loc, narrow, binCacheMem, ValueRange{binSlot(vi)}, cacheAlign);
}

Value TopPKernel::cachedBins(Value vi) {
  Value v = loadVector(b, loc, binCacheMem, ValueRange{binSlot(vi)}, s.vw,
                       cacheAlign);
  return arith::ExtUIOp::create(b, loc, VectorType::get({s.vw}, b.getI32Type()),
                                v);
}

//===----------------------------------------------------------------------===//
// 2. The mass histogram over bins uniform in z
//===----------------------------------------------------------------------===//

void TopPKernel::massHistogram() {
  Value range = arith::SubFOp::create(b, loc, maxZ, minZ);
  scale = selectV(
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, range,
                            constF32(b, loc, 0.0)),
      arith::DivFOp::create(b, loc, constF32(b, loc, numBins - 1), range),
      constF32(b, loc, 0.0));
  zeroHist();
  barrier();
  double p = op.getP().convertToDouble();
  // light_tokens = 1: tokens with q <= tau, tau = floor(((1 - p) 2^S - 1)
  // / V) - 1, are left out of the histogram and summed in registers. All
  // of them together weigh less than (1 - p) 2^S <= (1 - p) Z, and they
  // are the lightest tokens, so none is in the nucleus (nor above the
  // cut's bin: that bin holds heavy mass); Z still counts them. Their bins
  // need no atomics, the bulk of a long row's tokens for peaked logits.
  // Modelled in utils/lowering-check/topp_hist_model.py (light=True).
  int64_t tau = -1;
  if (sched.lightTokens)
    tau = std::max<int64_t>(
        0,
        static_cast<int64_t>(std::floor(
            ((1.0 - p) * std::ldexp(1.0, static_cast<int>(massShift)) - 1.0) /
            static_cast<double>(s.vocab))) -
            1);
  if (tau < 0) {
    s.pass({}, [&](const Chunk &c, ValueRange) -> SmallVector<Value> {
      Value q = massOf(c.z), bin = binOf(c.z);
      cacheBins(c, bin);
      auto add = [&] {
        for (int64_t l = 0; l < c.width; ++l)
          atomicAdd64(lane(q, l), toIndex(lane(bin, l)));
      };
      if (c.valid)
        ifThen(c.valid, add);
      else
        add();
      return {};
    });
  } else {
    lightTotal = massHistogramWithoutLight(tau);
  }
  barrier();
  if (clustered)
    mergeHist(&lightTotal);
  top = findCut(c64(0), [&](Value histTotal) -> Value {
    Value total = lightTotal ? addI(histTotal, lightTotal) : histTotal;
    // P = ceil(p Z), in [1, Z].
    Value pz = arith::MulFOp::create(
        b, loc, arith::UIToFPOp::create(b, loc, f64, total),
        arith::ConstantOp::create(b, loc, b.getF64FloatAttr(p)));
    Value t =
        arith::FPToUIOp::create(b, loc, i64, math::CeilOp::create(b, loc, pz));
    t = arith::MaxSIOp::create(b, loc, t, c64(1));
    return arith::MinSIOp::create(b, loc, t, total);
  });
  target = top.target;
  cutBin = arith::TruncIOp::create(b, loc, i32, top.bin);
}

Value TopPKernel::massHistogramWithoutLight(int64_t tau) {
  Value lightSum =
      s.pass({c64(0)}, [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
         Value q = massOf(c.z), bin = binOf(c.z);
         cacheBins(c, bin);
         Value heavy =
             cmpI(arith::CmpIPredicate::ugt, q, splatLike(b, loc, c64(tau), q));
         if (c.valid)
           heavy = andI(heavy, splatLike(b, loc, c.valid, heavy));
         for (int64_t l = 0; l < c.width; ++l)
           ifThen(lane(heavy, l),
                  [&] { atomicAdd64(lane(q, l), toIndex(lane(bin, l))); });
         Value light = selectV(heavy, zeroLike(q), q);
         Value sum = sumI(light);
         sum = s.select(c.valid, sum, c64(0));
         return {addI(a[0], sum)};
       }).front();
  Combiner addC = [&](OpBuilder &bb, Location l, ValueRange x,
                      ValueRange y) -> SmallVector<Value> {
    return {arith::AddIOp::create(bb, l, x[0], y[0])};
  };
  return s.reduceAll({lightSum}, addC).front();
}
