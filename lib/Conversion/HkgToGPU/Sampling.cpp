//===- Sampling.cpp - hkg.top_p_sample as a fused, sort-free sampler ------===//
//
// One workgroup samples one row of V logits (with ctas_per_row = 2 or 4 on
// sm_90, a cluster of that many, each with its share of the row, sharing
// every step's results through distributed shared memory: docs/Lowering.md);
// the row stays in L2
// between its passes. With z = logits / temperature (correctly rounded; a multiply only
// when 1 / T is a power of two) and max z, every token has the integer mass
//   q_i = floor(exp(z_i - max z) * 2^S),
//   S = min(62 - L, 3 (32 - L) - 1, 60), L = ceil(log2 V)
// (exact: the f32 value times a power of two; tokens with
// exp(z_i - max z) < 2^-S get 0, at most V 2^-S of the row's mass together:
// 2^-27 for V = 128256, S = 44). Every sum below is an integer sum of q's, so the kernel is
// deterministic (the histograms use integer LDS atomics, whose order does
// not change a sum) and the nucleus, its mass and the draw are exact for
// these masses. The nucleus is the smallest set of most likely tokens whose
// mass reaches P = ceil(p Z), Z = sum q_i: with key(z) the order-preserving
// i32 image of the f32 bits and F(k) = sum of q_i over key_i >= k, its cut
// is the key c with F(c) >= P > F(c + 1); tokens with key > c are in, and of
// the tokens tied at c the first ceil((P - F(c + 1)) / q_c) in token-id
// order (the smallest set; ties by ascending id as the runtime's reference
// sorts them).
//
// Passes over the row (strided: thread t owns the vectors t, t + threads,
// ...; contiguous: thread t owns the vectors [t n, (t + 1) n), so that tid
// order is token-id order; each thread loads `unroll` vectors before it
// uses them):
// 1. (strided) max z and the smallest finite z.
// 2. (strided) A histogram of the mass over B = `bins` (2048 by default)
//    bins uniform in z:
//    bin(z) = min(floor((max z - z) (B - 1) / (max z - min z)), B - 1), a
//    monotone function of z, so each bin is an interval of keys. A bin is
//    three i32 words of 32 - L bits of mass each (V adds never overflow
//    one), added to by 32-bit LDS atomics whose results are unused (the
//    top word only when not 0). A workgroup scan over the bins gives Z, P
//    and the bin b* that holds the cut, with the mass of the bins above it.
// 3. (contiguous) Each thread sums the mass of its tokens in bins above b*
//    and appends the tokens of bin b* (key, token id, q) to an LDS list.
// 4. If the list holds bin b* (at most 1024 tokens, the usual case: bins
//    are narrow), the cut is found in LDS: token j of the list is the cut
//    when fAbove + G_j < P <= fAbove + G_j + T_j (G_j: list mass with a
//    larger key, T_j: mass at its key), and the list's tokens above the cut
//    (and its ties) are credited to the threads that own them. Otherwise the
//    cut is found by key histograms over the whole row (B sub-ranges of
//    [min, max] key of bin b* per pass; 3 passes at most for 32-bit keys
//    and B = 2048), and a contiguous pass counts each thread's nucleus mass
//    and ties.
// 5. A workgroup scan of the ties gives each thread how many of its ties are
//    in; a scan of the nucleus mass gives each thread its slice
//    [E_t, E_t + m_t) of the nucleus mass M. The draw is D = floor(u M),
//    u from `uniform[row]` or from a counter-based hash of (seed, row)
//    (splitmix64 finalizer, top 24 bits). The one thread whose slice holds D
//    walks its tokens in id order and returns the token where the running
//    mass passes D: the nucleus CDF walked in token-id order, like the
//    runtime's sampleFromNucleus. Tokens are drawn with probability q_i / M.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"

#include "hkg/Dialect/Hkg/Utils/SamplingLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::hkg;

using mlir::hkg::sampling::kListCapacity;
using mlir::hkg::sampling::kQueueCapacity;

namespace {
/// The elements of the row a thread visits at once.
struct Chunk {
  Value z;     // f32 scaled logits, vector<w>
  Value key;   // i32 keys, vector<w>
  Value valid; // i1 or null
  Value col;   // index of the first element
  int64_t width;
  Value bin = {}; // i32 mass bins from the bin cache (vector<w>), or null
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
    unroll = kc.schedule.getInt("unroll");
    // ctas_per_row = 2: a cluster of two workgroups per row, workgroup
    // `rank` of it owning the tokens [rank V / 2, (rank + 1) V / 2) (V a
    // multiple of 2 vector_width: no tail).
    split = kc.schedule.getInt("ctas_per_row");
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
      colBase = arith::MulIOp::create(b, loc, rank,
                                      constIndex(b, loc, vocab / split));
    }
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
    // `unroll` vectors per step: their loads are issued before any of them
    // is used (bytes in flight), then the chunks are visited in order.
    int64_t u = std::max<int64_t>(1, std::min(unroll, vecsPerThread));
    int64_t steps = llvm::divideCeil(vecsPerThread, u);
    bool partialStep = steps * u > vecsPerThread;
    bool mayOverrun = contiguous ? vecsPerThread * threads > numVec
                                 : numVec % threads != 0;
    if (vecsPerThread > 0) {
      auto forOp = scf::ForOp::create(
          b, loc, constIndex(b, loc, 0), constIndex(b, loc, steps),
          constIndex(b, loc, 1), acc,
          [&](OpBuilder &nested, Location, Value step, ValueRange args) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToEnd(nested.getInsertionBlock());
            SmallVector<Value> raws, cols, valids;
            for (int64_t k = 0; k < u; ++k) {
              Value sIdx = arith::AddIOp::create(
                  b, loc,
                  arith::MulIOp::create(b, loc, step, constIndex(b, loc, u)),
                  constIndex(b, loc, k));
              Value vi =
                  contiguous
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
              if (mayOverrun || partialStep) {
                Value last = constIndex(b, loc, numVec - 1);
                valid = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::ule, vi, last);
                if (partialStep)
                  valid = arith::AndIOp::create(
                      b, loc, valid,
                      arith::CmpIOp::create(
                          b, loc, arith::CmpIPredicate::ult, sIdx,
                          constIndex(b, loc, vecsPerThread)));
                vi = arith::MinUIOp::create(b, loc, vi, last);
              }
              Value col =
                  arith::MulIOp::create(b, loc, vi, constIndex(b, loc, vw));
              if (colBase)
                col = arith::AddIOp::create(b, loc, col, colBase);
              raws.push_back(load(col, vw));
              cols.push_back(col);
              valids.push_back(valid);
            }
            SmallVector<Value> a(args);
            for (int64_t k = 0; k < u; ++k)
              a = fn(finish(raws[k], cols[k], vw, valids[k]), a);
            scf::YieldOp::create(b, loc, a);
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

  /// Vector `vi` of the workgroup's share of the row (no tail, no mask).
  Chunk vectorAt(Value vi) {
    Value col = arith::MulIOp::create(b, loc, vi, constIndex(b, loc, vw));
    if (colBase)
      col = arith::AddIOp::create(b, loc, col, colBase);
    return chunk(col, vw, Value());
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
  int64_t rows, vocab, vw, threads, unroll, numVec, tail, vecsPerThread,
      tailSlots, split = 1;
  int64_t align;
  double temperature, invTemp;
  bool invTempExact;
  Type inType;
  Value logits, tid, row;
  /// With ctas_per_row > 1: the workgroup's rank in its cluster and its
  /// first token (index); null otherwise.
  Value rank, colBase;

private:
  Type withI32(Type t) {
    if (auto v = dyn_cast<VectorType>(t))
      return v.clone(b.getI32Type());
    return b.getI32Type();
  }

  Chunk chunk(Value col, int64_t width, Value valid) {
    return finish(load(col, width), col, width, valid);
  }

  Value load(Value col, int64_t width) {
    return loadVector(b, loc, logits, ValueRange{row, col}, width,
                      width == 1 ? vectorAlignment(inType, 1) : align);
  }

  Chunk finish(Value raw, Value col, int64_t width, Value valid) {
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
    // -0 + 0 = +0: equal logits get equal keys (ties), whatever their sign.
    z = arith::AddFOp::create(b, loc, z,
                              splatLike(b, loc, constF32(b, loc, 0.0), z));
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
  // Histogram bins; bins / 2 >= threads (verifyScheduleConstraints), both
  // powers of two.
  const int64_t kBins = kc.schedule.getInt("bins");
  const int64_t kBinBits = llvm::Log2_64(kBins);
  if (!llvm::isPowerOf2_64(kBins) || kBins < 2 * s.threads ||
      !llvm::isPowerOf2_64(s.threads))
    return op.emitOpError("top-p sampling needs power-of-two bins >= 2 * "
                          "threads, got bins = ")
           << kBins << ", threads = " << s.threads;
  double inf = std::numeric_limits<double>::infinity();
  int32_t intMax = std::numeric_limits<int32_t>::max();
  int32_t intMin = std::numeric_limits<int32_t>::min();
  Type f32 = b.getF32Type(), f64 = b.getF64Type();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Type idx = b.getIndexType();
  // Histogram bins hold 64-bit masses as three i32 words of `wordBits` bits
  // each, so that V of them never overflow a word: 2^S < 2^(3 wordBits) and
  // V 2^S < 2^62.
  int64_t logV = llvm::Log2_64_Ceil(
      static_cast<uint64_t>(std::max<int64_t>(s.vocab, 2)));
  int64_t wordBits = 32 - logV;
  int64_t massShift =
      std::min<int64_t>({60, 62 - logV, 3 * wordBits - 1});

  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  auto ci = [&](int64_t v) { return constIndex(b, loc, v); };
  auto toIndex = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, idx, v);
  };
  auto withType = [&](Value like, Type et) -> Type {
    if (auto v = dyn_cast<VectorType>(like.getType()))
      return v.clone(et);
    return et;
  };
  auto zeroLike = [&](Value v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType()));
  };
  auto reduceI = [&](Value v, vector::CombiningKind kind) -> Value {
    if (!isa<VectorType>(v.getType()))
      return v;
    return vector::ReductionOp::create(b, loc, kind, v);
  };
  auto sumI = [&](Value v) { return reduceI(v, vector::CombiningKind::ADD); };
  auto andI = [&](Value x, Value y) -> Value {
    return arith::AndIOp::create(b, loc, x, y);
  };
  auto cmpI = [&](arith::CmpIPredicate pred, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, pred, x, y);
  };
  auto selectV = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, c, x, y);
  };
  auto addI = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto subI = [&](Value x, Value y) -> Value {
    return arith::SubIOp::create(b, loc, x, y);
  };
  auto lane = [&](Value v, int64_t l) -> Value {
    return vector::ExtractOp::create(b, loc, v, l);
  };
  auto ifThen = [&](Value cond, function_ref<void()> body) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  };
  // Runs `body(i)` for i = tid, tid + threads, ... < n (n an index).
  auto forEachStrided = [&](Value n, function_ref<void(Value)> body) {
    auto forOp = scf::ForOp::create(b, loc, s.tid, n, ci(s.threads));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(forOp.getBody());
    body(forOp.getInductionVar());
  };
  auto atomicAdd = [&](Value v, Value mem, Value at) -> Value {
    return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, v,
                                       mem, ValueRange{at});
  };
  auto barrier = [&]() { gpu::BarrierOp::create(b, loc); };

  // ctas_per_row = 2 (sm_90): the two workgroups of a cluster share each
  // step's results through distributed shared memory. Exchanges: workgroup
  // totals written by thread 0 into LDS slots read once by the peer, after
  // a cluster barrier (release / acquire: the writes are visible). Every
  // thread of both workgroups reaches every cluster barrier (the branches
  // around them depend only on values both workgroups share).
  const bool clustered = s.split > 1;
  // The other workgroups of the cluster, as i32 ranks (rank + 1, ...,
  // rank + split - 1, mod split).
  SmallVector<Value> peers;
  Value x32, x64, isT0;
  if (clustered) {
    isT0 = cmpI(arith::CmpIPredicate::eq, s.tid, ci(0));
    for (int64_t r = 1; r < s.split; ++r)
      peers.push_back(arith::IndexCastOp::create(
          b, loc, i32,
          arith::RemUIOp::create(b, loc, addI(s.rank, ci(r)), ci(s.split))));
    x32 = kc.addLds({4}, i32);
    x64 = kc.addLds({4}, i64);
  }
  auto clusterSync = [&]() { clusterBarrier(b, loc); };
  // Element `at` of workgroup `who`'s (an i32 rank) copy of the LDS buffer
  // `lds`.
  auto loadFrom = [&](Value lds, Value at, Value who) -> Value {
    return loadFromPeerLds(b, loc, lds, at, who,
                           cast<MemRefType>(lds.getType()).getElementType());
  };
  // Publishes `v` in slot `k` of `slots`; returns the sum of the values
  // the workgroups of lower rank published there and the sum over all.
  auto exclusiveAcross = [&](Value slots, int64_t k,
                             Value v) -> std::pair<Value, Value> {
    ifThen(isT0, [&] { memref::StoreOp::create(b, loc, v, slots, ValueRange{ci(k)}); });
    clusterSync();
    Value before = c64(0), total = v;
    for (Value who : peers) {
      Value theirs = loadFrom(slots, ci(k), who);
      total = addI(total, theirs);
      Value lower = cmpI(arith::CmpIPredicate::ult,
                         arith::IndexCastOp::create(b, loc, b.getIndexType(), who),
                         s.rank);
      before = addI(before, selectV(lower, theirs, c64(0)));
    }
    return {before, total};
  };

  // 1. max z and the smallest finite z.
  Combiner maxMinC = [&](OpBuilder &bb, Location l, ValueRange x,
                         ValueRange y) -> SmallVector<Value> {
    return {arith::MaxNumFOp::create(bb, l, x[0], y[0]),
            arith::MinNumFOp::create(bb, l, x[1], y[1])};
  };
  SmallVector<Value> stats = s.pass(
      {constF32(b, loc, -inf), constF32(b, loc, inf)},
      [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
        Value posInf = splatLike(b, loc, constF32(b, loc, inf), c.z);
        Value negInf = splatLike(b, loc, constF32(b, loc, -inf), c.z);
        Value hi = s.select(c.valid, c.z, negInf);
        Value isNegInf =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, c.z,
                                  negInf);
        Value lo = s.select(c.valid, selectV(isNegInf, posInf, c.z), posInf);
        return {arith::MaxNumFOp::create(b, loc, a[0],
                                         reduceVector(b, loc, hi,
                                                      ReduceKind::Max)),
                arith::MinNumFOp::create(b, loc, a[1],
                                         reduceVector(b, loc, lo,
                                                      ReduceKind::Min))};
      });
  stats = s.reduceAll(stats, maxMinC);
  if (clustered) {
    Value xf = kc.addLds({2}, f32);
    ifThen(isT0, [&] {
      memref::StoreOp::create(b, loc, stats[0], xf, ValueRange{ci(0)});
      memref::StoreOp::create(b, loc, stats[1], xf, ValueRange{ci(1)});
    });
    clusterSync();
    for (Value who : peers)
      stats = {arith::MaxNumFOp::create(b, loc, stats[0], loadFrom(xf, ci(0), who)),
               arith::MinNumFOp::create(b, loc, stats[1], loadFrom(xf, ci(1), who))};
  }
  Value maxZ = stats[0], minZ = stats[1];

  // q(z) = floor(exp(z - max z) 2^S) (scalar or vector). exp is the fast
  // approximation (`afn`: ex2 of x log2 e, two instructions on NVIDIA, where
  // the correctly rounded expf takes about eleven; a relative error of about
  // 2e-6 at z - max = -30): q only has to be the same function of z in every
  // pass, which it is (one expression, one lowering).
  auto qOf = [&](Value z) -> Value {
    Value e = math::ExpOp::create(
        b, loc, arith::SubFOp::create(b, loc, z, splatLike(b, loc, maxZ, z)),
        arith::FastMathFlagsAttr::get(b.getContext(),
                                      arith::FastMathFlags::afn));
    Value scaled = arith::MulFOp::create(
        b, loc, e,
        splatLike(b, loc,
                  constF32(b, loc, std::ldexp(1.0, static_cast<int>(massShift))),
                  e));
    return arith::FPToUIOp::create(b, loc, withType(z, i64), scaled);
  };

  // The nucleus: its cut key c, the tied tokens it takes, and per thread (of
  // its contiguous slice) the mass above the cut and the number of ties.
  Value cut, kTies, qCut, own, ties;
  // Each thread's mass of key > c and tokens at c (contiguous).
  auto ownPass = [&](Value c) -> std::pair<Value, Value> {
    SmallVector<Value> r = s.pass(
        {c64(0), c64(0)},
        [&](const Chunk &ch, ValueRange a) -> SmallVector<Value> {
          Value q = qOf(ch.z);
          Value cs = splatLike(b, loc, c, ch.key);
          Value gt = cmpI(arith::CmpIPredicate::sgt, ch.key, cs);
          Value eq = cmpI(arith::CmpIPredicate::eq, ch.key, cs);
          Value above = sumI(selectV(gt, q, zeroLike(q)));
          Value tied = sumI(arith::ExtUIOp::create(b, loc, withType(eq, i64),
                                                   eq));
          above = s.select(ch.valid, above, c64(0));
          tied = s.select(ch.valid, tied, c64(0));
          return {addI(a[0], above), addI(a[1], tied)};
        },
        /*contiguous=*/true);
    return {r[0], r[1]};
  };

  if (op.getP().convertToDouble() >= 1.0) {
    // p = 1: the nucleus is every token, no search (tokens of mass 0 are
    // never drawn).
    cut = constI32(b, loc, intMin);
    kTies = c64(std::numeric_limits<int64_t>::max());
    qCut = c64(0);
    std::tie(own, ties) = ownPass(cut);
  } else {
    // A 64-bit bin is three i32 words of wordBits bits each (bits
    // [0, w), [w, 2w), [2w, 3w) of every mass added, w = 32 - log2 V: the
    // sum of V of them fits in a word). An add is up to three 32-bit LDS
    // atomics whose results are not used (fire and forget; a 64-bit LDS
    // atomic add is a compare-and-swap loop on NVIDIA GPUs, and a carry from
    // a returned low word would wait for it).
    Value hist = kc.addLds({3 * kBins}, i32);
    Value bcast = kc.addLds({2}, i64);
    Value cutSlot = kc.addLds({1}, i32);
    Value counter = kc.addLds({1}, i32);
    Value listKey = kc.addLds({kListCapacity}, i32);
    Value listId = kc.addLds({kListCapacity}, i32);
    Value listQ = kc.addLds({kListCapacity}, i64);
    // bin_cache = 1: pass 2 keeps every vector's bins (i16) in LDS, laid out
    // by the contiguous owner of the vector (pass 3's thread t reads
    // [t stride, t stride + vecsPerThread vw)); the row of each owner is
    // padded by 8 bytes (at least a vector) so that the owners of a
    // half-warp start in different banks (pass 3's reads), while pass 2's
    // strided writes stay runs of consecutive words.
    bool binCache = kc.schedule.getInt("bin_cache") != 0;
    int64_t cachePad = sampling::binCachePad(s.vw);
    int64_t cacheStride = s.vecsPerThread * s.vw + cachePad;
    Value binCacheMem, queue, queueCount;
    if (binCache) {
      binCacheMem = kc.addLds({s.threads * cacheStride}, b.getI16Type());
      queue = kc.addLds({kQueueCapacity}, i32);
      queueCount = kc.addLds({1}, i32);
    }
    int64_t cacheAlign = 2 * s.vw;
    auto binSlot = [&](Value vi) -> Value {
      Value owner = arith::DivUIOp::create(b, loc, vi, ci(s.vecsPerThread));
      Value j = arith::RemUIOp::create(b, loc, vi, ci(s.vecsPerThread));
      return addI(arith::MulIOp::create(b, loc, owner, ci(cacheStride)),
                  arith::MulIOp::create(b, loc, j, ci(s.vw)));
    };
    // Pass 2: the bins of chunk `c` (a whole vector: no tail) to the cache.
    auto cacheBins = [&](const Chunk &c, Value bin) {
      if (!binCache)
        return;
      Value local = s.colBase ? subI(c.col, s.colBase) : c.col;
      Value vi = arith::DivUIOp::create(b, loc, local, ci(s.vw));
      Value narrow = arith::TruncIOp::create(
          b, loc, VectorType::get({s.vw}, b.getI16Type()), bin);
      storeVector(b, loc, narrow, binCacheMem, ValueRange{binSlot(vi)},
                  cacheAlign);
    };
    auto cachedBins = [&](Value vi) -> Value {
      Value v = loadVector(b, loc, binCacheMem, ValueRange{binSlot(vi)}, s.vw,
                           cacheAlign);
      return arith::ExtUIOp::create(b, loc,
                                    VectorType::get({s.vw}, b.getI32Type()), v);
    };
    int64_t binsPerThread = kBins / s.threads;
    Value isThread0 = cmpI(arith::CmpIPredicate::eq, s.tid, ci(0));

    auto zeroHist = [&]() {
      for (int64_t k = 0; k < 3 * binsPerThread; ++k)
        memref::StoreOp::create(b, loc, constI32(b, loc, 0), hist,
                                ValueRange{addI(s.tid, ci(k * s.threads))});
    };
    auto word = [&](Value bin, int64_t k) -> Value {
      return addI(arith::MulIOp::create(b, loc, bin, ci(3)), ci(k));
    };
    auto load64 = [&](Value bin) -> Value {
      Value v = c64(0);
      for (int64_t k = 0; k < 3; ++k) {
        Value w =
            memref::LoadOp::create(b, loc, hist, ValueRange{word(bin, k)});
        v = addI(v, arith::ShLIOp::create(
                        b, loc, arith::ExtUIOp::create(b, loc, i64, w),
                        c64(k * wordBits)));
      }
      return v;
    };
    auto zero64 = [&](Value bin) {
      for (int64_t k = 0; k < 3; ++k)
        memref::StoreOp::create(b, loc, constI32(b, loc, 0), hist,
                                ValueRange{word(bin, k)});
    };
    auto atomicAdd64 = [&](Value v, Value bin) {
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
    };

    // ctas_per_row = 2: adds the peer's histogram (and `light`, when given,
    // its light-token mass) to this workgroup's, word by word; both then
    // hold the row's histogram. The second cluster barrier keeps either
    // from changing its words before the peer has read them. Ends with a
    // workgroup barrier.
    auto mergeHist = [&](Value *light) {
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
        memref::StoreOp::create(b, loc, addI(mine, theirs[k]), hist,
                                ValueRange{w});
      }
      barrier();
      if (peerLight)
        *light = addI(*light, peerLight);
    };

    // The bin of `hist` (index 0: the largest keys) where the mass from the
    // top, after `base`, reaches P = targetOf(total); returns the bin, the
    // mass above it (base included), the total and P. Ends with a barrier:
    // `hist` and `bcast` may be written again.
    struct Cut {
      Value bin, above, total, target;
    };
    auto findCut = [&](Value base,
                       function_ref<Value(Value)> targetOf) -> Cut {
      ifThen(isThread0, [&] {
        memref::StoreOp::create(b, loc, c64(kBins - 1), bcast,
                                ValueRange{ci(0)});
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
                         cmpI(arith::CmpIPredicate::sle, target,
                              addI(lo, local)));
      ifThen(holds, [&] {
        Value run = lo, found = arith::ConstantIntOp::create(
                                    b, loc, b.getI1Type(), 0);
        Value bin = c64(kBins - 1), above = lo;
        Value firstI64 = arith::IndexCastOp::create(b, loc, i64, first);
        for (int64_t k = 0; k < binsPerThread; ++k) {
          Value next = addI(run, mine[k]);
          Value hit = andI(cmpI(arith::CmpIPredicate::sge, next, target),
                           arith::XOrIOp::create(
                               b, loc, found,
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
            memref::LoadOp::create(b, loc, bcast, ValueRange{ci(1)}),
            scan.total, target};
      barrier();
      return r;
    };

    // 2. The mass histogram over bins uniform in z.
    Value range = arith::SubFOp::create(b, loc, maxZ, minZ);
    Value scale = selectV(
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, range,
                              constF32(b, loc, 0.0)),
        arith::DivFOp::create(b, loc, constF32(b, loc, kBins - 1), range),
        constF32(b, loc, 0.0));
    auto binOf = [&](Value z) -> Value {
      Value d =
          arith::SubFOp::create(b, loc, splatLike(b, loc, maxZ, z), z);
      Value t = arith::MulFOp::create(b, loc, d, splatLike(b, loc, scale, z));
      t = arith::MinNumFOp::create(
          b, loc, t, splatLike(b, loc, constF32(b, loc, kBins - 1), z));
      return arith::FPToUIOp::create(b, loc, withType(z, i32), t);
    };
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
    if (kc.schedule.getInt("light_tokens"))
      tau = std::max<int64_t>(
          0, static_cast<int64_t>(std::floor(
                 ((1.0 - p) * std::ldexp(1.0, static_cast<int>(massShift)) -
                  1.0) /
                 static_cast<double>(s.vocab))) -
                 1);
    Value lightTotal;
    if (tau < 0) {
      s.pass({}, [&](const Chunk &c, ValueRange) -> SmallVector<Value> {
        Value q = qOf(c.z), bin = binOf(c.z);
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
      Value lightSum =
          s.pass({c64(0)},
                 [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
                   Value q = qOf(c.z), bin = binOf(c.z);
                   cacheBins(c, bin);
                   Value heavy = cmpI(arith::CmpIPredicate::ugt, q,
                                      splatLike(b, loc, c64(tau), q));
                   if (c.valid)
                     heavy = andI(heavy, splatLike(b, loc, c.valid, heavy));
                   for (int64_t l = 0; l < c.width; ++l)
                     ifThen(lane(heavy, l), [&] {
                       atomicAdd64(lane(q, l), toIndex(lane(bin, l)));
                     });
                   Value light = selectV(heavy, zeroLike(q), q);
                   Value sum = sumI(light);
                   sum = s.select(c.valid, sum, c64(0));
                   return {addI(a[0], sum)};
                 })
              .front();
      Combiner addC = [&](OpBuilder &bb, Location l, ValueRange x,
                          ValueRange y) -> SmallVector<Value> {
        return {arith::AddIOp::create(bb, l, x[0], y[0])};
      };
      lightTotal = s.reduceAll({lightSum}, addC).front();
    }
    barrier();
    if (clustered)
      mergeHist(&lightTotal);
    Cut top = findCut(c64(0), [&](Value histTotal) -> Value {
      Value total = lightTotal ? addI(histTotal, lightTotal) : histTotal;
      // P = ceil(p Z), in [1, Z].
      Value pz = arith::MulFOp::create(
          b, loc, arith::UIToFPOp::create(b, loc, f64, total),
          arith::ConstantOp::create(b, loc, b.getF64FloatAttr(p)));
      Value t = arith::FPToUIOp::create(
          b, loc, i64, math::CeilOp::create(b, loc, pz));
      t = arith::MaxSIOp::create(b, loc, t, c64(1));
      return arith::MinSIOp::create(b, loc, t, total);
    });
    Value target = top.target;
    Value cutBin = arith::TruncIOp::create(b, loc, i32, top.bin);

    // 3. Mass above the cut's bin per thread, and the bin's tokens to LDS.
    // hist[t] and hist[threads + t] now collect what the list adds to
    // thread t (mass, ties).
    zero64(s.tid);
    zero64(addI(s.tid, ci(s.threads)));
    ifThen(isThread0, [&] {
      memref::StoreOp::create(b, loc, constI32(b, loc, 0), counter,
                              ValueRange{ci(0)});
      memref::StoreOp::create(b, loc, constI32(b, loc, intMin), cutSlot,
                              ValueRange{ci(0)});
      memref::StoreOp::create(b, loc, top.above, bcast, ValueRange{ci(1)});
      if (binCache)
        memref::StoreOp::create(b, loc, constI32(b, loc, 0), queueCount,
                                ValueRange{ci(0)});
    });
    barrier();
    SmallVector<Value> gatherInit = {c64(0), constI32(b, loc, intMax),
                                     constI32(b, loc, intMin)};
    auto gather = [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
      Value q = qOf(c.z), bin = c.bin ? c.bin : binOf(c.z);
      Value cb = splatLike(b, loc, cutBin, bin);
      Value above = sumI(
          selectV(cmpI(arith::CmpIPredicate::ult, bin, cb), q, zeroLike(q)));
      above = s.select(c.valid, above, c64(0));
      Value inBin = cmpI(arith::CmpIPredicate::eq, bin, cb);
      if (c.valid)
        inBin = andI(inBin, splatLike(b, loc, c.valid, inBin));
      Value kMin = reduceI(selectV(inBin, c.key, s.splat(intMax, c.key)),
                           vector::CombiningKind::MINSI);
      Value kMax = reduceI(selectV(inBin, c.key, s.splat(intMin, c.key)),
                           vector::CombiningKind::MAXSI);
      for (int64_t l = 0; l < c.width; ++l) {
        ifThen(
            lane(inBin, l), [&] {
              Value slot = atomicAdd(constI32(b, loc, 1), counter, ci(0));
              ifThen(cmpI(arith::CmpIPredicate::slt, slot,
                          constI32(b, loc, kListCapacity)),
                     [&] {
                       Value at = toIndex(slot);
                       Value id = arith::IndexCastOp::create(
                           b, loc, i32, addI(c.col, ci(l)));
                       memref::StoreOp::create(b, loc, lane(c.key, l), listKey,
                                               ValueRange{at});
                       memref::StoreOp::create(b, loc, id, listId,
                                               ValueRange{at});
                       memref::StoreOp::create(b, loc, lane(q, l), listQ,
                                               ValueRange{at});
                     });
            });
      }
      return {addI(a[0], above), arith::MinSIOp::create(b, loc, a[1], kMin),
              arith::MaxSIOp::create(b, loc, a[2], kMax)};
    };
    SmallVector<Value> gathered;
    if (!binCache) {
      gathered = s.pass(gatherInit, gather, /*contiguous=*/true);
    } else {
      // With the bin cache, a strided scan of the cached bins queues the
      // vectors holding a token in or above the cut's bin (for peaked
      // logits a few hundred per row), and the workgroup's threads then
      // gather the queued vectors together, crediting each vector's mass
      // above the cut's bin to its contiguous owner (LDS atomics on the
      // slots the list's tokens are credited to below). A queue that
      // overflows falls back to the contiguous gather over the whole share.
      forEachStrided(ci(s.numVec), [&](Value vi) {
        Value bins = cachedBins(vi);
        Value le = cmpI(arith::CmpIPredicate::ule, bins,
                        splatLike(b, loc, cutBin, bins));
        Value need =
            vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, le);
        ifThen(need, [&] {
          Value at = atomicAdd(constI32(b, loc, 1), queueCount, ci(0));
          ifThen(cmpI(arith::CmpIPredicate::slt, at,
                      constI32(b, loc, kQueueCapacity)),
                 [&] {
                   memref::StoreOp::create(
                       b, loc, arith::IndexCastOp::create(b, loc, i32, vi),
                       queue, ValueRange{toIndex(at)});
                 });
        });
      });
      barrier();
      Value queued =
          memref::LoadOp::create(b, loc, queueCount, ValueRange{ci(0)});
      auto ifQueue = scf::IfOp::create(b, loc, TypeRange{i64, i32, i32},
                                       cmpI(arith::CmpIPredicate::sle, queued,
                                            constI32(b, loc, kQueueCapacity)),
                                       /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifQueue.thenBlock());
        auto loop =
            scf::ForOp::create(b, loc, s.tid, toIndex(queued), ci(s.threads),
                               ValueRange{gatherInit[1], gatherInit[2]});
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
        scf::YieldOp::create(b, loc,
                             s.pass(gatherInit, gather, /*contiguous=*/true));
      }
      gathered = SmallVector<Value>(ifQueue.getResults());
    }
    barrier();
    Combiner minMaxI = [&](OpBuilder &bb, Location l, ValueRange x,
                           ValueRange y) -> SmallVector<Value> {
      return {arith::MinSIOp::create(bb, l, x[0], y[0]),
              arith::MaxSIOp::create(bb, l, x[1], y[1])};
    };
    SmallVector<Value> binKeys =
        s.reduceAll({gathered[1], gathered[2]}, minMaxI);
    Value count = memref::LoadOp::create(b, loc, counter, ValueRange{ci(0)});
    // ctas_per_row = 2: the peer's count and key range of the cut's bin.
    Value peerCount;
    SmallVector<Value> peerCounts;
    if (clustered) {
      ifThen(isT0, [&] {
        memref::StoreOp::create(b, loc, count, x32, ValueRange{ci(0)});
        memref::StoreOp::create(b, loc, binKeys[0], x32, ValueRange{ci(1)});
        memref::StoreOp::create(b, loc, binKeys[1], x32, ValueRange{ci(2)});
      });
      clusterSync();
      for (Value who : peers) {
        peerCounts.push_back(loadFrom(x32, ci(0), who));
        peerCount = peerCount ? addI(peerCount, peerCounts.back())
                              : peerCounts.back();
        binKeys = {arith::MinSIOp::create(b, loc, binKeys[0], loadFrom(x32, ci(1), who)),
                   arith::MaxSIOp::create(b, loc, binKeys[1], loadFrom(x32, ci(2), who))};
      }
    }
    Value fits = cmpI(arith::CmpIPredicate::sle,
                      peerCount ? addI(count, peerCount) : count,
                      constI32(b, loc, kListCapacity));

    auto ifOp = scf::IfOp::create(b, loc, TypeRange{i32, i64, i64, i64}, fits,
                                  /*withElseRegion=*/true);
    {
      // 4a. The cut among the list's tokens, in LDS.
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      // Own entries [0, nOwn); with ctas_per_row = 2 the peer's entries are
      // appended at [nOwn, n) (their list is complete: the cluster barrier
      // above; the regions written here and read by the peer are disjoint),
      // so both workgroups search the whole bin and find the same cut.
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
              Value gt = selectV(cmpI(arith::CmpIPredicate::sgt, ki, kj), qi,
                                 zero);
              Value eq = selectV(cmpI(arith::CmpIPredicate::eq, ki, kj), qi,
                                 zero);
              scf::YieldOp::create(b, loc,
                                   ValueRange{addI(acc[0], gt),
                                              addI(acc[1], eq)});
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
        ifThen(cmpI(arith::CmpIPredicate::eq, kj, c), [&] {
          atomicAdd64(c64(1), addI(owner, ci(s.threads)));
        });
      });
      barrier();
      Value mass = addI(gathered[0], load64(s.tid));
      Value tied = load64(addI(s.tid, ci(s.threads)));
      scf::YieldOp::create(b, loc, ValueRange{c, aboveCut, mass, tied});
    }
    {
      // 4b. Too many tokens in the bin: key histograms over the row, within
      // [lo, hi] = the bin's keys, log2(B) bits per pass, then a pass for the
      // per-thread mass.
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.elseBlock());
      auto ext = [&](Value v) -> Value {
        return arith::ExtSIOp::create(b, loc, withType(v, i64), v);
      };
      SmallVector<Value> init = {ext(binKeys[0]), ext(binKeys[1]), top.above};
      auto whileOp =
          scf::WhileOp::create(b, loc, TypeRange{i64, i64, i64}, init);
      {
        OpBuilder::InsertionGuard g2(b);
        Block *before = b.createBlock(&whileOp.getBefore(), {},
                                      {i64, i64, i64}, {loc, loc, loc});
        scf::ConditionOp::create(
            b, loc,
            cmpI(arith::CmpIPredicate::sgt, before->getArgument(1),
                 before->getArgument(0)),
            before->getArguments());
        Block *after = b.createBlock(&whileOp.getAfter(), {}, {i64, i64, i64},
                                     {loc, loc, loc});
        Value lo = after->getArgument(0), hi = after->getArgument(1);
        Value base = after->getArgument(2);
        Value span = subI(hi, lo);
        // shift = max(0, bit length of span - 11): spans are below 2^32.
        Value shift = c64(0);
        for (int64_t k = kBinBits; k < 33; ++k)
          shift = addI(shift, arith::ExtUIOp::create(
                                  b, loc, i64,
                                  cmpI(arith::CmpIPredicate::sge, span,
                                       c64(int64_t(1) << k))));
        Value last = arith::ShRUIOp::create(b, loc, span, shift);
        zeroHist();
        barrier();
        s.pass({}, [&](const Chunk &c, ValueRange) -> SmallVector<Value> {
          Value k = ext(c.key);
          Value in = andI(cmpI(arith::CmpIPredicate::sge, k,
                               splatLike(b, loc, lo, k)),
                          cmpI(arith::CmpIPredicate::sle, k,
                               splatLike(b, loc, hi, k)));
          if (c.valid)
            in = andI(in, splatLike(b, loc, c.valid, in));
          Value q = qOf(c.z);
          // Index 0: the largest keys.
          Value sub = arith::ShRUIOp::create(b, loc, subI(k, splatLike(b, loc, lo, k)),
                                             splatLike(b, loc, shift, k));
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
        scf::YieldOp::create(b, loc, ValueRange{newLo, newHi, level.above});
      }
      Value c = arith::TruncIOp::create(b, loc, i32, whileOp.getResult(0));
      auto [mass, tied] = ownPass(c);
      scf::YieldOp::create(b, loc,
                           ValueRange{c, whileOp.getResult(2), mass, tied});
    }
    cut = ifOp.getResult(0);
    Value aboveCut = ifOp.getResult(1);
    own = ifOp.getResult(2);
    ties = ifOp.getResult(3);
    qCut = qOf(s.valueOfKey(cut));
    // ceil((P - F(c + 1)) / q_c) >= 1 tied tokens (q_c > 0 at the cut).
    Value safeQ = arith::MaxSIOp::create(b, loc, qCut, c64(1));
    kTies = arith::DivUIOp::create(
        b, loc, addI(subI(target, aboveCut), subI(safeQ, c64(1))), safeQ);
    kTies = arith::MaxSIOp::create(b, loc, kTies, c64(1));
  }

  // 5. Ties taken per thread, the nucleus mass scan, the draw.
  ScanResult tieScan = workgroupScan(kc, ties, s.tid);
  Value tiesBefore = tieScan.exclusive;
  // ctas_per_row = 2: the second workgroup's tokens follow the first's.
  if (clustered)
    tiesBefore =
        addI(tiesBefore, exclusiveAcross(x64, 1, tieScan.total).first);
  Value taken = arith::MinSIOp::create(
      b, loc,
      arith::MaxSIOp::create(b, loc, subI(kTies, tiesBefore), c64(0)), ties);
  Value partial =
      addI(own, arith::MulIOp::create(b, loc, taken, qCut));
  ScanResult massScan = workgroupScan(kc, partial, s.tid);
  if (clustered) {
    auto [offset, total] = exclusiveAcross(x64, 2, massScan.total);
    massScan.exclusive = addI(massScan.exclusive, offset);
    massScan.inclusive = addI(massScan.inclusive, offset);
    massScan.total = total;
    // The last read of the peer's LDS: neither workgroup may exit before
    // the other is past it.
    clusterSync();
  }

  Value u;
  if (op.getUniform()) {
    u = memref::LoadOp::create(b, loc, kc.args[1], ValueRange{s.row});
    u = arith::MaxNumFOp::create(b, loc, u, constF32(b, loc, 0.0));
  } else {
    Value rowI64 = arith::IndexCastOp::create(b, loc, i64, s.row);
    Value counter = addI(
        c64(static_cast<int64_t>(*op.getSeed())),
        arith::MulIOp::create(b, loc, addI(rowI64, c64(1)),
                              c64(static_cast<int64_t>(0x9E3779B97F4A7C15ULL))));
    Value bits = arith::ShRUIOp::create(b, loc, mix64(b, loc, counter), c64(40));
    u = arith::MulFOp::create(b, loc, arith::UIToFPOp::create(b, loc, f32, bits),
                              constF32(b, loc, 1.0 / 16777216.0));
  }
  Value total = massScan.total;
  Value drawAt = arith::FPToUIOp::create(
      b, loc, i64,
      arith::MulFOp::create(b, loc, arith::ExtFOp::create(b, loc, f64, u),
                            arith::UIToFPOp::create(b, loc, f64, total)));
  drawAt = arith::MinSIOp::create(b, loc, drawAt, subI(total, c64(1)));

  // The one thread whose slice [E_t, E_t + m_t) holds the draw walks it.
  Value chosen =
      andI(cmpI(arith::CmpIPredicate::sle, massScan.exclusive, drawAt),
           cmpI(arith::CmpIPredicate::slt, drawAt, massScan.inclusive));
  ifThen(chosen, [&] {
    Value fls = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    Value tru = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    SmallVector<Value> walk = s.pass(
        {massScan.exclusive, tiesBefore, fls, constI32(b, loc, -1)},
        [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
          Value acc = a[0], seen = a[1], done = a[2], tok = a[3];
          Value q = qOf(c.z);
          for (int64_t l = 0; l < c.width; ++l) {
            Value kl = lane(c.key, l);
            Value eq = cmpI(arith::CmpIPredicate::eq, kl, cut);
            Value gt = cmpI(arith::CmpIPredicate::sgt, kl, cut);
            if (c.valid) {
              eq = andI(eq, c.valid);
              gt = andI(gt, c.valid);
            }
            Value in = arith::OrIOp::create(
                b, loc, gt,
                andI(eq, cmpI(arith::CmpIPredicate::slt, seen, kTies)));
            seen = selectV(eq, addI(seen, c64(1)), seen);
            acc = selectV(in, addI(acc, lane(q, l)), acc);
            Value hit = andI(andI(in, arith::XOrIOp::create(b, loc, done, tru)),
                             cmpI(arith::CmpIPredicate::sgt, acc, drawAt));
            Value id = arith::IndexCastOp::create(b, loc, i32,
                                                  addI(c.col, ci(l)));
            tok = selectV(hit, id, tok);
            done = arith::OrIOp::create(b, loc, done, hit);
          }
          return {acc, seen, done, tok};
        },
        /*contiguous=*/true);
    memref::StoreOp::create(b, loc, walk[3], kc.args.back(), ValueRange{s.row});
  });
  return success();
}
