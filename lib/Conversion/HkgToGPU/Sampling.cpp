//===- Sampling.cpp - hkg.top_p_sample as a fused, sort-free sampler ------===//
//
// One workgroup samples one row of V logits (with ctas_per_row = 2 or 4 on
// sm_90, a cluster of that many, each with its share of the row, sharing
// every step's results through distributed shared memory: docs/Lowering.md);
// the row stays in L2
// between its passes. With z = logits / temperature (correctly rounded; a
// multiply only when 1 / T is a power of two) and max z, every token has the
// integer mass
//   q_i = floor(exp(z_i - max z) * 2^S),
//   S = min(62 - L, 3 (32 - L) - 1, 60), L = ceil(log2 V)
// (exact: the f32 value times a power of two; tokens with
// exp(z_i - max z) < 2^-S get 0, at most V 2^-S of the row's mass together:
// 2^-27 for V = 128256, S = 44). Every sum below is an integer sum of q's, so
// the kernel is deterministic (the histograms use integer LDS atomics, whose
// order does not change a sum) and the nucleus, its mass and the draw are exact
// for these masses. The nucleus is the smallest set of most likely tokens whose
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
// The steps are TopPKernel's (SamplingKernel.h), in the files it names.
//
//===----------------------------------------------------------------------===//

#include "SamplingKernel.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::topp;

TopPKernel::TopPKernel(KernelContext &kc, TopPSampleOp op,
                       const TopPSchedule &sched)
    : kc(kc), op(op), sched(sched), s(kc, op, sched), b(kc.b), loc(kc.loc) {
  f32 = b.getF32Type();
  f64 = b.getF64Type();
  i32 = b.getI32Type();
  i64 = b.getI64Type();
  idx = b.getIndexType();
  // Histogram bins; bins / 2 >= threads (verifyScheduleConstraints), both
  // powers of two.
  numBins = sched.bins;
  binBits = llvm::Log2_64(numBins);
  binsPerThread = numBins / s.threads;
  // Histogram bins hold 64-bit masses as three i32 words of `wordBits` bits
  // each, so that V of them never overflow a word: 2^S < 2^(3 wordBits) and
  // V 2^S < 2^62.
  logV =
      llvm::Log2_64_Ceil(static_cast<uint64_t>(std::max<int64_t>(s.vocab, 2)));
  wordBits = 32 - logV;
  massShift = std::min<int64_t>({60, 62 - logV, 3 * wordBits - 1});
  clustered = s.split > 1;
}

LogicalResult TopPKernel::emit() {
  if (!llvm::isPowerOf2_64(numBins) || numBins < 2 * s.threads ||
      !llvm::isPowerOf2_64(s.threads))
    return op.emitOpError("top-p sampling needs power-of-two bins >= 2 * "
                          "threads, got bins = ")
           << numBins << ", threads = " << s.threads;
  if (clustered)
    setUpCluster();
  findRange();
  Nucleus nucleus =
      op.getP().convertToDouble() >= 1.0 ? wholeRow() : searchNucleus();
  draw(nucleus);
  return success();
}

LogicalResult mlir::hkg::lowerTopPSample(TopPSampleOp op, KernelContext &kc) {
  TopPSchedule sched = TopPSchedule::decode(kc.schedule);
  return TopPKernel(kc, op, sched).emit();
}

//===----------------------------------------------------------------------===//
// Shorthands
//===----------------------------------------------------------------------===//

Value TopPKernel::c64(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, i64, v);
}

Value TopPKernel::ci(int64_t v) { return constIndex(b, loc, v); }

Value TopPKernel::toIndex(Value v) {
  return arith::IndexCastOp::create(b, loc, idx, v);
}

Type TopPKernel::withType(Value like, Type et) {
  if (auto v = dyn_cast<VectorType>(like.getType()))
    return v.clone(et);
  return et;
}

Value TopPKernel::zeroLike(Value v) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType()));
}

Value TopPKernel::reduceI(Value v, vector::CombiningKind kind) {
  if (!isa<VectorType>(v.getType()))
    return v;
  return vector::ReductionOp::create(b, loc, kind, v);
}

Value TopPKernel::sumI(Value v) {
  return reduceI(v, vector::CombiningKind::ADD);
}

Value TopPKernel::andI(Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}

Value TopPKernel::cmpI(arith::CmpIPredicate pred, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, pred, x, y);
}

Value TopPKernel::selectV(Value c, Value x, Value y) {
  return arith::SelectOp::create(b, loc, c, x, y);
}

Value TopPKernel::addI(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value TopPKernel::subI(Value x, Value y) {
  return arith::SubIOp::create(b, loc, x, y);
}

Value TopPKernel::lane(Value v, int64_t l) {
  return vector::ExtractOp::create(b, loc, v, l);
}

void TopPKernel::ifThen(Value cond, function_ref<void()> body) {
  emitIfThen(b, loc, cond, body);
}

void TopPKernel::forEachStrided(Value n, function_ref<void(Value)> body) {
  auto forOp = scf::ForOp::create(b, loc, s.tid, n, ci(s.threads));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(forOp.getBody());
  body(forOp.getInductionVar());
}

Value TopPKernel::atomicAdd(Value v, Value mem, Value at) {
  return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, v, mem,
                                     ValueRange{at});
}

void TopPKernel::barrier() { gpu::BarrierOp::create(b, loc); }

//===----------------------------------------------------------------------===//
// 1. The row's range and the token masses
//===----------------------------------------------------------------------===//

void TopPKernel::findRange() {
  double inf = std::numeric_limits<double>::infinity();
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
        Value isNegInf = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OEQ, c.z, negInf);
        Value lo = s.select(c.valid, selectV(isNegInf, posInf, c.z), posInf);
        return {arith::MaxNumFOp::create(
                    b, loc, a[0], reduceVector(b, loc, hi, ReduceKind::Max)),
                arith::MinNumFOp::create(
                    b, loc, a[1], reduceVector(b, loc, lo, ReduceKind::Min))};
      });
  stats = s.reduceAll(stats, maxMinC);
  if (clustered)
    combineRange(stats);
  maxZ = stats[0];
  minZ = stats[1];
}

// exp is the fast approximation (expBelowMax: ex2 of x log2 e on NVIDIA; a
// relative error of about 2e-6 at z - max = -30): q only has to be the same
// function of z in every pass, which it is (one expression, one lowering).
Value TopPKernel::massOf(Value z) {
  Value e = expBelowMax(
      b, loc, arith::SubFOp::create(b, loc, z, splatLike(b, loc, maxZ, z)));
  Value scaled = arith::MulFOp::create(
      b, loc, e,
      splatLike(b, loc,
                constF32(b, loc, std::ldexp(1.0, static_cast<int>(massShift))),
                e));
  return arith::FPToUIOp::create(b, loc, withType(z, i64), scaled);
}

std::pair<Value, Value> TopPKernel::ownPass(Value c) {
  SmallVector<Value> r = s.pass(
      {c64(0), c64(0)},
      [&](const Chunk &ch, ValueRange a) -> SmallVector<Value> {
        Value q = massOf(ch.z);
        Value cs = splatLike(b, loc, c, ch.key);
        Value gt = cmpI(arith::CmpIPredicate::sgt, ch.key, cs);
        Value eq = cmpI(arith::CmpIPredicate::eq, ch.key, cs);
        Value above = sumI(selectV(gt, q, zeroLike(q)));
        Value tied =
            sumI(arith::ExtUIOp::create(b, loc, withType(eq, i64), eq));
        above = s.select(ch.valid, above, c64(0));
        tied = s.select(ch.valid, tied, c64(0));
        return {addI(a[0], above), addI(a[1], tied)};
      },
      /*contiguous=*/true);
  return {r[0], r[1]};
}

// p = 1: the nucleus is every token, no search (tokens of mass 0 are never
// drawn).
Nucleus TopPKernel::wholeRow() {
  Nucleus n;
  n.cut = constI32(b, loc, std::numeric_limits<int32_t>::min());
  n.kTies = c64(std::numeric_limits<int64_t>::max());
  n.qCut = c64(0);
  std::tie(n.own, n.ties) = ownPass(n.cut);
  return n;
}
