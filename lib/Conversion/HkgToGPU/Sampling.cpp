//===- Sampling.cpp - hkg.top_p_sample as a fused, sort-free sampler ------===//
//
// One workgroup samples one row of V logits; every pass re-reads the row
// (it stays in L2). The statistics and search passes are strided (thread t
// owns the vectors t, t + threads, ... plus tail elements: coalesced); the
// draw passes are contiguous (thread t owns the vectors [t n, (t + 1) n),
// n = vectors per thread, and the last thread also the tail), so that tid
// order is token-id order there. With z = logits / temperature (correctly
// rounded; a multiply only when 1 / T is a power of two), e_i = exp(z_i -
// max z) and Z = sum e_i, the nucleus is the smallest set of most likely
// tokens whose mass reaches P = p Z. No sort is needed:
//
// 1. Statistics pass: max z, Z (online max/sum merge) and the smallest key,
//    where key(z) is the order-preserving i32 image of the f32 bits
//    (negative floats: the magnitude bits flipped).
// 2. Threshold search on keys. F(k) = sum of e_i over key_i >= k is
//    non-increasing; keep [lo, hi) with F(lo) >= P > F(hi) (start: the
//    smallest key, the largest key + 1). lo and hi are i64: keys of negative
//    and positive logits span more than 2^31, so hi - lo overflows i32 (that
//    ended the search at once and sampled from the whole vocabulary). Each
//    pass evaluates F at `thresholds_per_pass` keys evenly spread in
//    (lo, hi), plus the min and max key inside [lo, hi); the interval shrinks
//    to the thresholds that bracket P and then to the keys actually present.
//    It stops when one key c remains: c is the key of the least likely
//    nucleus token (exactly). Tokens with key > c are in; of the tokens tied
//    at key c, the first kTies = ceil((P - F(c + 1)) / e_c) in token-id
//    order are in (the smallest set; ties taken by ascending id, as the
//    runtime's reference sorts them).
// 3. Draw: u from `uniform[row]`, or from a counter-based hash of
//    (seed, row) (splitmix64 finalizer, top 24 bits) so a seed always gives
//    the same tokens. Each thread sums the nucleus mass of its contiguous
//    slice; a workgroup scan gives every thread its slice [E_t, I_t) of the
//    nucleus mass M, in token-id order; the thread whose slice holds u M
//    walks its elements again in id order and returns the token where the
//    running mass passes u M. This is the runtime's sampleFromNucleus (the
//    nucleus CDF walked in token-id order): for the same u both pick the same
//    token, up to f32 vs f64 rounding at the CDF steps. Tokens are drawn with
//    probability e_i / M.
// Passes: 1 + (search passes: about log(V) / log(thresholds + 1), fewer when
// the boundary is sparse) + 1, plus a partial walk by one thread.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::hkg;

static constexpr int64_t kMaxSearchPasses = 64;

namespace {
/// The elements of the row a thread visits at once.
struct Chunk {
  Value z;     // f32 scaled logits, vector<w>
  Value key;   // i32 keys, vector<w>
  Value valid; // i1 or null
  Value col;   // index of the first element
  int64_t width;
};

using ChunkFn = function_ref<SmallVector<Value>(const Chunk &, ValueRange)>;

class Sampler {
public:
  Sampler(KernelContext &kc, TopPSampleOp op) : kc(kc), b(kc.b), loc(kc.loc) {
    auto t = op.getLogits().getType();
    rows = t.getDimSize(0);
    vocab = t.getDimSize(1);
    vw = kc.schedule.getInt("vector_width");
    threads = kc.schedule.getInt("threads");
    numVec = vocab / vw;
    tail = vocab % vw;
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
    kc.grid = {rows, 1, 1};
    kc.block = {threads, 1, 1};
    logits = kc.args[0];
    tid = threadIdX(b, loc);
    row = blockIdX(b, loc);
  }

  /// Visits the thread's chunks of the row in order (vectors, then tail
  /// elements), threading `init` through `fn`. Strided (coalesced): thread t
  /// owns the vectors t, t + threads, ... and the tail elements t,
  /// t + threads, ...; the order of the thread's elements is not the token
  /// order across threads. Contiguous: thread t owns the vectors
  /// [t * vecsPerThread, (t + 1) * vecsPerThread) and the last thread also
  /// the tail, so visiting threads in tid order visits the tokens in id
  /// order (what the draw needs to match a CDF walk in token order).
  SmallVector<Value> pass(ValueRange init, ChunkFn fn,
                          bool contiguous = false) {
    SmallVector<Value> acc(init);
    bool mayOverrun = contiguous ? vecsPerThread * threads > numVec
                                 : numVec % threads != 0;
    if (vecsPerThread > 0) {
      auto forOp = scf::ForOp::create(
          b, loc, constIndex(b, loc, 0), constIndex(b, loc, vecsPerThread),
          constIndex(b, loc, 1), acc,
          [&](OpBuilder &nested, Location, Value s, ValueRange args) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToEnd(nested.getInsertionBlock());
            Value vi =
                contiguous
                    ? arith::AddIOp::create(
                          b, loc,
                          arith::MulIOp::create(
                              b, loc, tid, constIndex(b, loc, vecsPerThread)),
                          s)
                    : arith::AddIOp::create(
                          b, loc,
                          arith::MulIOp::create(b, loc, s,
                                                constIndex(b, loc, threads)),
                          tid);
            Value valid;
            if (mayOverrun) {
              Value last = constIndex(b, loc, numVec - 1);
              valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                            vi, last);
              vi = arith::MinUIOp::create(b, loc, vi, last);
            }
            Value col =
                arith::MulIOp::create(b, loc, vi, constIndex(b, loc, vw));
            scf::YieldOp::create(b, loc, fn(chunk(col, vw, valid), args));
          });
      acc = SmallVector<Value>(forOp.getResults());
    }
    if (contiguous) {
      if (tail == 0)
        return acc;
      Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           tid, constIndex(b, loc, threads - 1));
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
        valid =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, e, last);
        e = arith::MinUIOp::create(b, loc, e, last);
      }
      Value col =
          arith::AddIOp::create(b, loc, e, constIndex(b, loc, numVec * vw));
      acc = fn(chunk(col, 1, valid), acc);
    }
    return acc;
  }

  /// Reduces over all the threads of the workgroup.
  SmallVector<Value> reduceAll(ValueRange values, const Combiner &combine) {
    return groupReduce(kc, values, combine, threads, 1, constIndex(b, loc, 0),
                       tid);
  }

  /// The order-preserving i32 image of f32 `z` (scalar or vector).
  Value keyOf(Value z) {
    Type i32 = withI32(z.getType());
    Value bits = arith::BitcastOp::create(b, loc, i32, z);
    Value sign = arith::ShRSIOp::create(b, loc, bits, splat(31, bits));
    Value mask = arith::AndIOp::create(b, loc, sign, splat(0x7FFFFFFF, bits));
    return arith::XOrIOp::create(b, loc, bits, mask);
  }

  /// The f32 whose key is `key` (scalar).
  Value valueOfKey(Value key) {
    Value sign = arith::ShRSIOp::create(b, loc, key, constI32(b, loc, 31));
    Value mask =
        arith::AndIOp::create(b, loc, sign, constI32(b, loc, 0x7FFFFFFF));
    Value bits = arith::XOrIOp::create(b, loc, key, mask);
    return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  }

  Value splat(int64_t v, Value like) {
    return splatLike(b, loc, constI32(b, loc, v), like);
  }

  Value select(Value cond, Value x, Value y) {
    if (!cond)
      return x;
    return arith::SelectOp::create(b, loc, cond, x, y);
  }

  KernelContext &kc;
  OpBuilder &b;
  Location loc;
  int64_t rows, vocab, vw, threads, numVec, tail, vecsPerThread, tailSlots;
  int64_t align;
  double temperature, invTemp;
  bool invTempExact;
  Type inType;
  Value logits, tid, row;

private:
  Type withI32(Type t) {
    if (auto v = dyn_cast<VectorType>(t))
      return v.clone(b.getI32Type());
    return b.getI32Type();
  }

  Chunk chunk(Value col, int64_t width, Value valid) {
    Value raw = loadVector(b, loc, logits, ValueRange{row, col}, width,
                           width == 1 ? vectorAlignment(inType, 1) : align);
    Value x = toF32(b, loc, raw);
    // z = x / T correctly rounded (the reference's logits / temperature): a
    // multiply by 1 / T only where that is exact. A rounded z also keeps the
    // backend from fusing the scaling into exp's argument (x * c - max as one
    // fma) differently at different places.
    Value z = invTempExact
                  ? arith::MulFOp::create(
                        b, loc, x,
                        splatLike(b, loc, constF32(b, loc, invTemp), x))
                        .getResult()
                  : arith::DivFOp::create(
                        b, loc, x,
                        splatLike(b, loc, constF32(b, loc, temperature), x))
                        .getResult();
    return {z, keyOf(z), valid, col, width};
  }
};
} // namespace

/// splitmix64's finalizer of `x` (i64).
static Value mix64(OpBuilder &b, Location loc, Value x) {
  auto c = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                        static_cast<int64_t>(v));
  };
  auto xorShift = [&](Value z, int64_t s) {
    return arith::XOrIOp::create(b, loc, z,
                                 arith::ShRUIOp::create(b, loc, z, c(s)));
  };
  Value z =
      arith::MulIOp::create(b, loc, xorShift(x, 30), c(0xBF58476D1CE4E5B9ULL));
  z = arith::MulIOp::create(b, loc, xorShift(z, 27), c(0x94D049BB133111EBULL));
  return xorShift(z, 31);
}

LogicalResult mlir::hkg::lowerTopPSample(TopPSampleOp op, KernelContext &kc) {
  Sampler s(kc, op);
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  double inf = std::numeric_limits<double>::infinity();
  int64_t numThresholds = kc.schedule.getInt("thresholds_per_pass");
  int32_t intMax = std::numeric_limits<int32_t>::max();
  int32_t intMin = std::numeric_limits<int32_t>::min();
  Type f32 = b.getF32Type();
  Type i32 = b.getI32Type();

  auto minSI = [&](Value x, Value y) -> Value {
    return arith::MinSIOp::create(b, loc, x, y);
  };
  auto maxSI = [&](Value x, Value y) -> Value {
    return arith::MaxSIOp::create(b, loc, x, y);
  };
  auto reduceI = [&](Value v, vector::CombiningKind kind) -> Value {
    if (!isa<VectorType>(v.getType()))
      return v;
    return vector::ReductionOp::create(b, loc, kind, v);
  };

  // 1. max z, Z = sum exp(z - max), smallest key.
  Combiner online = makeOnlineSoftmaxCombiner();
  Combiner statsC = [&](OpBuilder &bb, Location l, ValueRange x,
                        ValueRange y) -> SmallVector<Value> {
    SmallVector<Value> r = online(bb, l, x.take_front(2), y.take_front(2));
    r.push_back(arith::MinSIOp::create(bb, l, x[2], y[2]));
    return r;
  };
  SmallVector<Value> stats = s.pass(
      {constF32(b, loc, -inf), constF32(b, loc, 0.0), constI32(b, loc, intMax)},
      [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
        Value z = s.select(c.valid, c.z,
                           splatLike(b, loc, constF32(b, loc, -inf), c.z));
        Value key = s.select(c.valid, c.key, s.splat(intMax, c.key));
        Value vm = reduceVector(b, loc, z, ReduceKind::Max);
        Value m = arith::MaxNumFOp::create(b, loc, a[0], vm);
        Value scaled =
            arith::MulFOp::create(b, loc, a[1], expDiffOrZero(b, loc, a[0], m));
        Value ex =
            reduceVector(b, loc, expDiffOrZero(b, loc, z, m), ReduceKind::Sum);
        return {m, arith::AddFOp::create(b, loc, scaled, ex),
                minSI(a[2], reduceI(key, vector::CombiningKind::MINSI))};
      });
  stats = s.reduceAll(stats, statsC);
  Value maxZ = stats[0], total = stats[1], minKey = stats[2];
  Value target = arith::MulFOp::create(
      b, loc, total, constF32(b, loc, op.getP().convertToDouble()));
  Value maxKey = s.keyOf(maxZ);

  // e_i of a chunk, 0 where invalid.
  auto massOf = [&](const Chunk &c) {
    Value diff =
        arith::SubFOp::create(b, loc, c.z, splatLike(b, loc, maxZ, c.z));
    Value e = math::ExpOp::create(b, loc, diff);
    return s.select(c.valid, e, splatLike(b, loc, constF32(b, loc, 0.0), e));
  };

  // 2. Threshold search: [lo, hi) with F(lo) >= P > F(hi) = fHi. With
  // p = 1 the nucleus is every token: no search (f32 sums could otherwise
  // cut a tail of tokens whose mass is below rounding).
  Value one = constI32(b, loc, 1);
  Value cut, kTies, eCut;
  if (op.getP().convertToDouble() >= 1.0) {
    cut = minKey;
    eCut = math::ExpOp::create(
        b, loc, arith::SubFOp::create(b, loc, s.valueOfKey(cut), maxZ));
    kTies = constF32(b, loc, inf);
  } else {
    // lo and hi are i64: the keys span all of i32 (negative and positive
    // logits), so hi - lo and maxKey + 1 overflow i32.
    Type i64 = b.getI64Type();
    auto ext = [&](Value v) -> Value {
      return arith::ExtSIOp::create(b, loc, i64, v);
    };
    auto trunc = [&](Value v) -> Value {
      return arith::TruncIOp::create(b, loc, i32, v);
    };
    Value one64 = arith::ConstantIntOp::create(b, loc, i64, 1);
    SmallVector<Value> init = {ext(minKey),
                               arith::AddIOp::create(b, loc, ext(maxKey), one64),
                               constF32(b, loc, 0.0), constI32(b, loc, 0)};
    auto whileOp =
        scf::WhileOp::create(b, loc, TypeRange{i64, i64, f32, i32}, init);
    {
      OpBuilder::InsertionGuard g(b);
      Block *before = b.createBlock(&whileOp.getBefore(), {},
                                    {i64, i64, f32, i32}, {loc, loc, loc, loc});
      Value lo = before->getArgument(0), hi = before->getArgument(1);
      Value width = arith::SubIOp::create(b, loc, hi, lo);
      Value open = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                         width, one64);
      Value budget = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           before->getArgument(3),
                                           constI32(b, loc, kMaxSearchPasses));
      scf::ConditionOp::create(b, loc,
                               arith::AndIOp::create(b, loc, open, budget),
                               before->getArguments());

      Block *after = b.createBlock(&whileOp.getAfter(), {},
                                   {i64, i64, f32, i32}, {loc, loc, loc, loc});
      Value lo64 = after->getArgument(0);
      Value hi64 = after->getArgument(1);
      Value fHi = after->getArgument(2);
      // The keys of [lo, hi) as i32 bounds: lo and hi - 1 are keys.
      lo = trunc(lo64);
      Value hiLast = trunc(arith::SubIOp::create(b, loc, hi64, one64));
      // Thresholds lo + (j + 1) (hi - lo) / (K + 1) lie in [lo, hi): keys.
      Value range = arith::SubIOp::create(b, loc, hi64, lo64);
      SmallVector<Value> thr, thr64;
      for (int64_t j = 0; j < numThresholds; ++j) {
        Value step = arith::DivSIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc, range,
                arith::ConstantIntOp::create(b, loc, i64, j + 1)),
            arith::ConstantIntOp::create(b, loc, i64, numThresholds + 1));
        thr64.push_back(arith::AddIOp::create(b, loc, lo64, step));
        thr.push_back(trunc(thr64.back()));
      }
      SmallVector<Value> sInit;
      for (int64_t j = 0; j < numThresholds; ++j)
        sInit.push_back(constF32(b, loc, 0.0));
      sInit.push_back(constI32(b, loc, intMax));
      sInit.push_back(constI32(b, loc, intMin));
      SmallVector<Value> acc = s.pass(
          sInit, [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
            Value e = massOf(c);
            Value zero = splatLike(b, loc, constF32(b, loc, 0.0), e);
            SmallVector<Value> r;
            for (int64_t j = 0; j < numThresholds; ++j) {
              Value ge = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::sge, c.key,
                  splatLike(b, loc, thr[j], c.key));
              Value m = reduceVector(
                  b, loc, arith::SelectOp::create(b, loc, ge, e, zero),
                  ReduceKind::Sum);
              r.push_back(arith::AddFOp::create(b, loc, a[j], m));
            }
            Value in = arith::AndIOp::create(
                b, loc,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c.key,
                                      splatLike(b, loc, lo, c.key)),
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, c.key,
                                      splatLike(b, loc, hiLast, c.key)));
            if (c.valid)
              in = arith::AndIOp::create(b, loc, in,
                                         splatLike(b, loc, c.valid, in));
            Value kMin = arith::SelectOp::create(b, loc, in, c.key,
                                                 s.splat(intMax, c.key));
            Value kMax = arith::SelectOp::create(b, loc, in, c.key,
                                                 s.splat(intMin, c.key));
            r.push_back(minSI(a[numThresholds],
                              reduceI(kMin, vector::CombiningKind::MINSI)));
            r.push_back(maxSI(a[numThresholds + 1],
                              reduceI(kMax, vector::CombiningKind::MAXSI)));
            return r;
          });
      Combiner searchC = [&](OpBuilder &bb, Location l, ValueRange x,
                             ValueRange y) -> SmallVector<Value> {
        SmallVector<Value> r;
        for (int64_t j = 0; j < numThresholds; ++j)
          r.push_back(arith::AddFOp::create(bb, l, x[j], y[j]));
        r.push_back(
            arith::MinSIOp::create(bb, l, x[numThresholds], y[numThresholds]));
        r.push_back(arith::MaxSIOp::create(bb, l, x[numThresholds + 1],
                                           y[numThresholds + 1]));
        return r;
      };
      acc = s.reduceAll(acc, searchC);
      // F is non-increasing in the key: the last threshold with F >= P is the
      // new lo, the first with F < P the new hi.
      Value newLo = lo64, newHi = hi64, newFHi = fHi;
      for (int64_t j = 0; j < numThresholds; ++j) {
        Value ge = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE,
                                         acc[j], target);
        newLo = arith::SelectOp::create(b, loc, ge, thr64[j], newLo);
      }
      for (int64_t j = numThresholds - 1; j >= 0; --j) {
        Value lt = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                         acc[j], target);
        newHi = arith::SelectOp::create(b, loc, lt, thr64[j], newHi);
        newFHi = arith::SelectOp::create(b, loc, lt, acc[j], newFHi);
      }
      // Shrink to the keys present in [lo, hi): F is unchanged there.
      newLo = arith::MaxSIOp::create(b, loc, newLo, ext(acc[numThresholds]));
      newHi = arith::MinSIOp::create(
          b, loc, newHi,
          arith::AddIOp::create(b, loc, ext(acc[numThresholds + 1]), one64));
      Value iter = arith::AddIOp::create(b, loc, after->getArgument(3), one);
      scf::YieldOp::create(b, loc, ValueRange{newLo, newHi, newFHi, iter});
    }
    cut = trunc(whileOp.getResult(0));
    Value fAbove = whileOp.getResult(2);
    eCut = math::ExpOp::create(
        b, loc, arith::SubFOp::create(b, loc, s.valueOfKey(cut), maxZ));
    // Tied tokens at the cut that the nucleus needs: ceil((P - F(c+1)) / e_c),
    // at least 1.
    kTies = math::CeilOp::create(
        b, loc,
        arith::DivFOp::create(
            b, loc, arith::SubFOp::create(b, loc, target, fAbove), eCut));
    kTies = arith::MaximumFOp::create(b, loc, kTies, constF32(b, loc, 1.0));
  }

  // 3. Each thread's nucleus mass, its slice of the total, the draw.
  SmallVector<Value> own = s.pass(
      {constF32(b, loc, 0.0), constI32(b, loc, 0)},
      [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
        Value e = massOf(c);
        Value gt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                         c.key, splatLike(b, loc, cut, c.key));
        Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         c.key, splatLike(b, loc, cut, c.key));
        if (c.valid)
          eq =
              arith::AndIOp::create(b, loc, eq, splatLike(b, loc, c.valid, eq));
        Value above = reduceVector(
            b, loc,
            arith::SelectOp::create(
                b, loc, gt, e, splatLike(b, loc, constF32(b, loc, 0.0), e)),
            ReduceKind::Sum);
        Value ties =
            reduceI(arith::ExtUIOp::create(b, loc, c.key.getType(), eq),
                    vector::CombiningKind::ADD);
        return {arith::AddFOp::create(b, loc, a[0], above),
                arith::AddIOp::create(b, loc, a[1], ties)};
      },
      /*contiguous=*/true);
  ScanResult tieScan = workgroupScan(kc, own[1], s.tid);
  Value tiesBefore = arith::SIToFPOp::create(b, loc, f32, tieScan.exclusive);
  Value myTies = arith::SIToFPOp::create(b, loc, f32, own[1]);
  Value takenTies = arith::MinimumFOp::create(
      b, loc,
      arith::MaximumFOp::create(
          b, loc, arith::SubFOp::create(b, loc, kTies, tiesBefore),
          constF32(b, loc, 0.0)),
      myTies);
  Value partial = arith::AddFOp::create(
      b, loc, own[0], arith::MulFOp::create(b, loc, takenTies, eCut));
  ScanResult massScan = workgroupScan(kc, partial, s.tid);

  Value u;
  if (op.getUniform()) {
    u = memref::LoadOp::create(b, loc, kc.args[1], ValueRange{s.row});
  } else {
    Type i64 = b.getI64Type();
    Value rowI64 = arith::IndexCastOp::create(b, loc, i64, s.row);
    Value counter = arith::AddIOp::create(
        b, loc,
        arith::ConstantIntOp::create(b, loc, i64,
                                     static_cast<int64_t>(*op.getSeed())),
        arith::MulIOp::create(
            b, loc,
            arith::AddIOp::create(b, loc, rowI64,
                                  arith::ConstantIntOp::create(b, loc, i64, 1)),
            arith::ConstantIntOp::create(
                b, loc, i64, static_cast<int64_t>(0x9E3779B97F4A7C15ULL))));
    Value bits =
        arith::ShRUIOp::create(b, loc, mix64(b, loc, counter),
                               arith::ConstantIntOp::create(b, loc, i64, 40));
    u = arith::MulFOp::create(b, loc,
                              arith::UIToFPOp::create(b, loc, f32, bits),
                              constF32(b, loc, 1.0 / 16777216.0));
  }
  Value drawAt = arith::MulFOp::create(b, loc, u, massScan.total);

  // The chosen thread: the first whose slice ends past drawAt, else (f32
  // rounding) the last with any nucleus mass.
  Value tidI32 = arith::IndexCastOp::create(b, loc, i32, s.tid);
  Value hasMass = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                        partial, constF32(b, loc, 0.0));
  Value past = arith::AndIOp::create(
      b, loc, hasMass,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                            massScan.inclusive, drawAt));
  Value first = arith::SelectOp::create(b, loc, past, tidI32,
                                        constI32(b, loc, s.threads));
  Value last =
      arith::SelectOp::create(b, loc, hasMass, tidI32, constI32(b, loc, -1));
  Combiner pickC = [&](OpBuilder &bb, Location l, ValueRange x,
                       ValueRange y) -> SmallVector<Value> {
    return {arith::MinSIOp::create(bb, l, x[0], y[0]),
            arith::MaxSIOp::create(bb, l, x[1], y[1])};
  };
  SmallVector<Value> picked = s.reduceAll({first, last}, pickC);
  Value found = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                      picked[0], constI32(b, loc, s.threads));
  Value chosen = arith::SelectOp::create(b, loc, found, picked[0], picked[1]);
  Value isChosen =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tidI32, chosen);
  auto ifOp = scf::IfOp::create(b, loc, isChosen, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    // Walk the thread's elements in token order (the thread's slice is
    // contiguous), as the own pass above counted them.
    Value fls = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    SmallVector<Value> walk = s.pass(
        {massScan.exclusive, tiesBefore, fls, constI32(b, loc, -1),
         constI32(b, loc, -1)},
        [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
          Value acc = a[0], seen = a[1], done = a[2], tok = a[3],
                lastTok = a[4];
          Value e = massOf(c);
          for (int64_t l = 0; l < c.width; ++l) {
            Value el = vector::ExtractOp::create(b, loc, e, l);
            Value kl = vector::ExtractOp::create(b, loc, c.key, l);
            Value idx = arith::IndexCastOp::create(
                b, loc, i32,
                arith::AddIOp::create(b, loc, c.col, constIndex(b, loc, l)));
            Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             kl, cut);
            if (c.valid)
              eq = arith::AndIOp::create(b, loc, eq, c.valid);
            Value gt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                             kl, cut);
            if (c.valid)
              gt = arith::AndIOp::create(b, loc, gt, c.valid);
            Value tieIn = arith::AndIOp::create(
                b, loc, eq,
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, seen,
                                      kTies));
            Value in = arith::OrIOp::create(b, loc, gt, tieIn);
            seen = arith::SelectOp::create(
                b, loc, eq,
                arith::AddFOp::create(b, loc, seen, constF32(b, loc, 1.0)),
                seen);
            acc = arith::SelectOp::create(
                b, loc, in, arith::AddFOp::create(b, loc, acc, el), acc);
            Value notDone = arith::XOrIOp::create(
                b, loc, done,
                arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
            Value hit = arith::AndIOp::create(
                b, loc, arith::AndIOp::create(b, loc, in, notDone),
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, acc,
                                      drawAt));
            tok = arith::SelectOp::create(b, loc, hit, idx, tok);
            done = arith::OrIOp::create(b, loc, done, hit);
            lastTok = arith::SelectOp::create(b, loc, in, idx, lastTok);
          }
          return {acc, seen, done, tok, lastTok};
        },
        /*contiguous=*/true);
    Value token = arith::SelectOp::create(b, loc, walk[2], walk[3], walk[4]);
    memref::StoreOp::create(b, loc, token, kc.args.back(), ValueRange{s.row});
  }
  return success();
}
