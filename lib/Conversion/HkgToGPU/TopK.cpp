//===- TopK.cpp - hkg.topk to a radix-select kernel -----------------------===//
//
// One workgroup selects the k largest elements of one slice (the elements
// along `axis` at one position of the other dims), in five steps:
//
// 1. Keys. Each element's f32 bits become an unsigned key whose order is the
//    numbers' order (negative: all bits flipped; positive: the sign bit set;
//    every NaN: 0xffffffff, larger than any number). No element has key 0.
// 2. Lower bound and pool (lowerBound, collect), when k <= 2 * threads and
//    the LDS has room for a pool of k or more: a pass over a sample of the
//    slice (every `sample_every`-th step) keeps each thread's two largest
//    keys; the k-th largest of those is a key that at least k elements
//    reach, so the k largest all reach it. A pass over the whole slice
//    appends the elements that reach it (about k * sample_every on a long
//    row of distinct values) to the pool; when they fit, steps 3 and 4 run
//    on the pool, otherwise on the slice, looking only at the elements that
//    reach the bound (whole vectors tested before single elements).
// 3. Radix select (radixPass): up to three passes over the slice, on the key
//    bits [31:21], [20:10] and [9:0]. A pass histograms, in LDS with integer
//    atomics, the digits of the keys that share the prefix chosen so far;
//    a workgroup scan over the bins, largest first, finds the bin holding the
//    `remaining`-th largest key, which extends the prefix. When that bin holds
//    exactly the elements still needed, every key with the prefix is taken and
//    the later passes are skipped. Step 2 selects among the threads' maxima
//    the same way.
// 4. Gather (gather): one more pass appends the keys above the prefix (fewer
//    than k) to an LDS list, and as many keys equal to it as are still needed
//    after them.
// 5. Sort and write (sortCandidates, writeResults): a bitonic sort of the k
//    candidates (padded to a power of two), largest first, ties by position,
//    then the values (decoded from the keys: exact) and positions.
//
// The first pass reads the slice from DRAM, the others find it in L2 when
// the slices of the workgroups in flight fit there. Along a contiguous axis
// each thread reads `vector_width` elements per access and issues `unroll`
// accesses before it looks at them; along a strided axis one element an
// access.
//
//===----------------------------------------------------------------------===//

#include "TopK.h"

#include "hkg/Dialect/Hkg/IR/Schedules/TopKSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/bit.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;

namespace {

/// The key bits each radix pass looks at: [shift, shift + bits).
struct RadixDigit {
  int64_t shift, bits;
};
constexpr RadixDigit kPasses[] = {{21, 11}, {10, 11}, {0, 10}};
constexpr int64_t kMaxBins = 2048;
/// Where the radix passes and the gather read keys from.
enum class Source { Slice, Maxima, Pool };

/// What the radix passes have chosen so far, uniform across the workgroup:
/// the keys whose bits from `shift` up equal `prefix` hold the k-th largest;
/// `remaining` of them are still needed; `done`: all of them are.
struct Selection {
  Value prefix, remaining, done, shift; // i32, i32, i1, i32
};

class TopKEmitter {
public:
  TopKEmitter(TopKOp op, KernelContext &kc)
      : op(op), kc(kc), b(kc.b), loc(kc.loc),
        sched(TopKSchedule::decode(kc.schedule)) {}

  LogicalResult emit();

private:
  Value idx(int64_t v) { return constIndex(b, loc, v); }
  Value i32(int64_t v) { return constI32(b, loc, v); }
  Value cmp(arith::CmpIPredicate p, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, p, l, r);
  }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value shr(Value v, Value amount) {
    return arith::ShRUIOp::create(b, loc, v, amount);
  }
  void barrier() { gpu::BarrierOp::create(b, loc); }
  Value atomicAdd(Value mem, Value at, Value v) {
    return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, v,
                                       mem, ValueRange{at});
  }
  Value load(Value mem, Value at) {
    return memref::LoadOp::create(b, loc, mem, ValueRange{at});
  }
  void store(Value v, Value mem, Value at) {
    memref::StoreOp::create(b, loc, v, mem, ValueRange{at});
  }
  /// `for (i = tid; i < end; i += threads) body(i)`.
  void forEachThreadItem(int64_t begin, int64_t end,
                         function_ref<void(Value)> body);
  void emitIf(Value cond, function_ref<void()> body) {
    emitIfThen(b, loc, cond, body);
  }

  Value keyOf(Value x);
  Value valueOfKey(Value key);
  /// Calls `body(keys, position)` for every access of the slice: `keys` the
  /// keys of `vector_width` consecutive elements (a vector, or a scalar on a
  /// strided axis), `position` the first one's index along the axis. With
  /// Source::Maxima, the two keys of each thread in `maxima` instead; with
  /// Source::Pool, the `poolCount` elements of the pool.
  /// With `sampled`, only every `sample_every`-th step (all of a slice
  /// shorter than a step).
  void forEachAccess(function_ref<void(Value, Value)> body,
                     bool sampled = false);
  /// The `count` accesses of one thread starting at vector `first`, a
  /// vector apart by `threads`, loaded before any is used.
  void processVectors(Value first, int64_t count,
                      function_ref<void(Value, Value)> body);
  /// Calls `body(key, position)` for the elements whose keys `filter` (keys
  /// to an i1 mask of their shape) keeps, testing each access as a whole
  /// first; every element when `filter` is null.
  void forEachElement(function_ref<Value(Value)> filter,
                      function_ref<void(Value, Value)> body);
  /// An i1 mask of `keys` >= the lower bound (all true without one).
  Value reachesBound(Value keys);
  Value splat(int64_t v, Value like) { return splatLike(b, loc, i32(v), like); }

  Value lowerBound();
  void collect();
  Selection radixSelect();

  Selection radixPass(Selection sel, RadixDigit digit, bool first);
  Selection findBin(Selection sel, RadixDigit digit, bool first);
  void gather(Selection sel);
  void sortCandidates();
  void writeResults();

  TopKOp op;
  KernelContext &kc;
  OpBuilder &b;
  Location loc;
  TopKSchedule sched;
  int64_t outer = 1, length = 1, inner = 1, k = 1, paddedK = 1;
  int64_t poolCapacity = 0;
  Type elementType;
  Value input, values, indices; // [outer, length(, inner)] / [outer, k, inner]
  Value tid, slice, innerPos;
  Value hist, candKeys, candPositions, state, counters, maxima;
  Value poolKeys, poolPositions, poolCount;
  /// The lower bound of step 2 (an i32 key), or null.
  Value bound;
  Source source = Source::Slice;
};

} // namespace

void TopKEmitter::forEachThreadItem(int64_t begin, int64_t end,
                                    function_ref<void(Value)> body) {
  if (begin >= end)
    return;
  auto loop = scf::ForOp::create(b, loc, add(tid, idx(begin)), idx(end),
                                 idx(sched.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(loop.getInductionVar());
}

Value TopKEmitter::keyOf(Value x) { return topKKeyOf(b, loc, x); }

Value TopKEmitter::valueOfKey(Value key) {
  return topKValueOfKey(b, loc, key, elementType);
}

void TopKEmitter::processVectors(Value first, int64_t count,
                                 function_ref<void(Value, Value)> body) {
  int64_t vw = sched.vectorWidth;
  SmallVector<Value> loaded, firstPositions;
  for (int64_t u = 0; u < count; ++u) {
    Value v = add(first, idx(u * sched.threads));
    Value pos = mul(v, idx(vw));
    firstPositions.push_back(pos);
    if (inner == 1)
      loaded.push_back(loadVector(b, loc, input, {slice, pos}, vw,
                                  vectorAlignment(elementType, vw)));
    else
      loaded.push_back(memref::LoadOp::create(
          b, loc, input, ValueRange{slice, pos, innerPos}));
  }
  for (int64_t u = 0; u < count; ++u)
    body(keyOf(loaded[u]), firstPositions[u]);
}

void TopKEmitter::forEachAccess(function_ref<void(Value, Value)> body,
                                 bool sampled) {
  if (source == Source::Maxima) {
    body(load(maxima, tid), tid);
    body(load(maxima, add(tid, idx(sched.threads))), tid);
    return;
  }
  if (source == Source::Pool) {
    auto loop = scf::ForOp::create(
        b, loc, tid,
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), poolCount),
        idx(sched.threads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    body(load(poolKeys, i),
         arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                      load(poolPositions, i)));
    return;
  }
  int64_t numVectors = length / sched.vectorWidth;
  int64_t perStep = sched.threads * sched.unroll;
  int64_t fullSteps = numVectors / perStep;
  int64_t every = sampled ? sched.sampleEvery : 1;
  if (fullSteps > 0) {
    auto loop =
        scf::ForOp::create(b, loc, idx(0), idx(fullSteps), idx(every));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value first = add(mul(loop.getInductionVar(), idx(perStep)), tid);
    processVectors(first, sched.unroll, body);
  }
  if (every == 1 || fullSteps == 0)
    forEachThreadItem(fullSteps * perStep, numVectors,
                      [&](Value v) { processVectors(v, 1, body); });
}

void TopKEmitter::forEachElement(function_ref<Value(Value)> filter,
                                 function_ref<void(Value, Value)> body) {
  forEachAccess([&](Value keys, Value pos) {
    auto vt = dyn_cast<VectorType>(keys.getType());
    if (!vt) {
      if (!filter)
        return body(keys, pos);
      return emitIf(filter(keys), [&] { body(keys, pos); });
    }
    auto lanes = [&](Value mask) {
      for (int64_t l = 0; l < vt.getNumElements(); ++l) {
        Value key = vector::ExtractOp::create(b, loc, keys, l);
        Value at = add(pos, idx(l));
        if (!mask) {
          body(key, at);
          continue;
        }
        emitIf(vector::ExtractOp::create(b, loc, mask, l),
               [&] { body(key, at); });
      }
    };
    if (!filter)
      return lanes(nullptr);
    Value mask = filter(keys);
    Value any = vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                            mask);
    emitIf(any, [&] { lanes(mask); });
  });
}

Value TopKEmitter::reachesBound(Value keys) {
  if (!bound)
    return splatLike(b, loc, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1),
                     keys);
  return cmp(arith::CmpIPredicate::uge, keys, splatLike(b, loc, bound, keys));
}

Value TopKEmitter::lowerBound() {
  // Each thread's two largest keys, in its own slots tid and threads + tid
  // of `maxima` (0, below every key, until it has seen two elements).
  Value second = add(tid, idx(sched.threads));
  forEachAccess([&](Value keys, Value) {
    Value m1 = load(maxima, tid), m2 = load(maxima, second);
    auto vt = dyn_cast<VectorType>(keys.getType());
    for (int64_t l = 0, e = vt ? vt.getNumElements() : 1; l < e; ++l) {
      Value key = vt ? vector::ExtractOp::create(b, loc, keys, l).getResult()
                     : keys;
      m2 = arith::MaxUIOp::create(b, loc, m2,
                                  arith::MinUIOp::create(b, loc, m1, key));
      m1 = arith::MaxUIOp::create(b, loc, m1, key);
    }
    store(m1, maxima, tid);
    store(m2, maxima, second);
  }, /*sampled=*/true);
  barrier();
  source = Source::Maxima;
  Selection sel = radixSelect();
  source = Source::Slice;
  // Every key from the prefix up reaches prefix << shift.
  return arith::ShLIOp::create(b, loc, sel.prefix, sel.shift);
}

void TopKEmitter::collect() {
  // Every element that reaches the bound, while the pool has room; the
  // count goes on past it, so that an overflow is seen.
  forEachElement([&](Value keys) { return reachesBound(keys); },
                 [&](Value key, Value pos) {
                   Value n = atomicAdd(counters, idx(2), i32(1));
                   emitIf(cmp(arith::CmpIPredicate::slt, n, i32(poolCapacity)),
                          [&] {
                            Value at = arith::IndexCastUIOp::create(
                                b, loc, b.getIndexType(), n);
                            store(key, poolKeys, at);
                            store(arith::IndexCastUIOp::create(
                                      b, loc, b.getI32Type(), pos),
                                  poolPositions, at);
                          });
                 });
  barrier();
  poolCount = load(counters, idx(2));
}

Selection TopKEmitter::radixSelect() {
  Selection sel{i32(0), i32(k),
                arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
                i32(32)};
  for (auto [n, digit] : llvm::enumerate(kPasses))
    sel = radixPass(sel, digit, /*first=*/n == 0);
  return sel;
}

Selection TopKEmitter::radixPass(Selection sel, RadixDigit digit, bool first) {
  if (first)
    return findBin(sel, digit, first);
  Type i32Type = b.getI32Type();
  auto ifOp = scf::IfOp::create(
      b, loc, TypeRange{i32Type, i32Type, b.getI1Type(), i32Type},
      arith::XOrIOp::create(b, loc, sel.done,
                            arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1)),
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Selection next = findBin(sel, digit, first);
    scf::YieldOp::create(
        b, loc, ValueRange{next.prefix, next.remaining, next.done, next.shift});
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        b, loc, ValueRange{sel.prefix, sel.remaining, sel.done, sel.shift});
  }
  return {ifOp.getResult(0), ifOp.getResult(1), ifOp.getResult(2),
          ifOp.getResult(3)};
}

Selection TopKEmitter::findBin(Selection sel, RadixDigit digit, bool first) {
  int64_t bins = int64_t(1) << digit.bits;
  forEachThreadItem(0, bins, [&](Value j) { store(i32(0), hist, j); });
  barrier();

  // Histogram of the digits of the keys with the prefix chosen so far.
  Value shift = i32(digit.shift), mask = i32(bins - 1);
  Value above = i32(digit.shift + digit.bits);
  auto withPrefix = [&](Value keys) -> Value {
    Value ok = reachesBound(keys);
    if (first)
      return ok;
    Value same = cmp(arith::CmpIPredicate::eq, shr(keys, splatLike(b, loc, above, keys)),
                     splatLike(b, loc, sel.prefix, keys));
    return arith::AndIOp::create(b, loc, ok, same);
  };
  auto count = [&](Value key, Value) {
    Value d = arith::AndIOp::create(b, loc, shr(key, shift), mask);
    atomicAdd(hist, arith::IndexCastUIOp::create(b, loc, b.getIndexType(), d),
              i32(1));
  };
  if (first && !bound)
    forEachElement(nullptr, count);
  else
    forEachElement(withPrefix, count);
  barrier();

  // Thread t owns bins (bins - 1 - t * per) down to (bins - t * per - per):
  // a scan of the threads' totals, in thread order, counts the keys in
  // larger bins. The one thread whose bins reach the `remaining`-th key
  // walks them and publishes the bin.
  int64_t per = bins / sched.threads;
  Value top = arith::SubIOp::create(b, loc, idx(bins - 1),
                                    mul(tid, idx(per)));
  SmallVector<Value> counts;
  Value total = i32(0);
  for (int64_t j = 0; j < per; ++j) {
    counts.push_back(
        load(hist, arith::SubIOp::create(b, loc, top, idx(j))));
    total = add(total, counts.back());
  }
  ScanResult scan = workgroupScan(kc, total, tid);
  Value owns = arith::AndIOp::create(
      b, loc, cmp(arith::CmpIPredicate::slt, scan.exclusive, sel.remaining),
      cmp(arith::CmpIPredicate::sle, sel.remaining, scan.inclusive));
  emitIf(owns, [&] {
    Value acc = scan.exclusive, bin = i32(0), left = i32(0), inBin = i32(0);
    Value topI32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), top);
    for (int64_t j = 0; j < per; ++j) {
      Value next = add(acc, counts[j]);
      Value hit = arith::AndIOp::create(
          b, loc, cmp(arith::CmpIPredicate::slt, acc, sel.remaining),
          cmp(arith::CmpIPredicate::sle, sel.remaining, next));
      Value thisBin = arith::SubIOp::create(b, loc, topI32, i32(j));
      bin = arith::SelectOp::create(b, loc, hit, thisBin, bin);
      left = arith::SelectOp::create(
          b, loc, hit, arith::SubIOp::create(b, loc, sel.remaining, acc), left);
      inBin = arith::SelectOp::create(b, loc, hit, counts[j], inBin);
      acc = next;
    }
    store(bin, state, idx(0));
    store(left, state, idx(1));
    store(inBin, state, idx(2));
  });
  barrier();
  Value bin = load(state, idx(0));
  Selection next;
  next.remaining = load(state, idx(1));
  next.done = cmp(arith::CmpIPredicate::eq, load(state, idx(2)),
                  next.remaining);
  next.prefix =
      first ? bin
            : arith::OrIOp::create(
                  b, loc,
                  arith::ShLIOp::create(b, loc, sel.prefix, i32(digit.bits)),
                  bin);
  next.shift = shift;
  return next;
}

void TopKEmitter::gather(Selection sel) {
  // Keys above the prefix fill [0, k - remaining) in any order; keys equal
  // to it fill the rest, the first `remaining` to arrive.
  Value firstEqual = arith::SubIOp::create(b, loc, i32(k), sel.remaining);
  auto append = [&](Value at, Value key, Value pos) {
    Value i = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), at);
    store(key, candKeys, i);
    store(arith::IndexCastUIOp::create(b, loc, b.getI32Type(), pos),
          candPositions, i);
  };
  // Keys below the bound never reach the prefix's count (the passes did not
  // count them), so the filter keeps them out of the equal ones too.
  auto candidate = [&](Value keys) -> Value {
    Value high = shr(keys, splatLike(b, loc, sel.shift, keys));
    return arith::AndIOp::create(
        b, loc, reachesBound(keys),
        cmp(arith::CmpIPredicate::uge, high,
            splatLike(b, loc, sel.prefix, keys)));
  };
  forEachElement(candidate, [&](Value key, Value pos) {
    Value above = cmp(arith::CmpIPredicate::ugt, shr(key, sel.shift), sel.prefix);
    auto ifOp = scf::IfOp::create(b, loc, above, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    append(atomicAdd(counters, idx(0), i32(1)), key, pos);
    b.setInsertionPointToStart(ifOp.elseBlock());
    Value nth = atomicAdd(counters, idx(1), i32(1));
    emitIf(cmp(arith::CmpIPredicate::slt, nth, sel.remaining),
           [&] { append(add(firstEqual, nth), key, pos); });
  });
  barrier();
}

void TopKEmitter::sortCandidates() {
  // Bitonic sort of paddedK (key, position) pairs, largest key first, then
  // the lower position; the padding (key 0, which no element has, since
  // every NaN is 0xffffffff) sorts last.
  for (int64_t size = 2; size <= paddedK; size *= 2) {
    for (int64_t stride = size / 2; stride >= 1; stride /= 2) {
      forEachThreadItem(0, paddedK / 2, [&](Value t) {
        Value i = add(mul(arith::DivUIOp::create(b, loc, t, idx(stride)),
                          idx(2 * stride)),
                      arith::RemUIOp::create(b, loc, t, idx(stride)));
        Value j = add(i, idx(stride));
        Value ki = load(candKeys, i), kj = load(candKeys, j);
        Value pi = load(candPositions, i), pj = load(candPositions, j);
        Value iFirst = arith::OrIOp::create(
            b, loc, cmp(arith::CmpIPredicate::ugt, ki, kj),
            arith::AndIOp::create(b, loc, cmp(arith::CmpIPredicate::eq, ki, kj),
                                  cmp(arith::CmpIPredicate::ult, pi, pj)));
        // Within blocks of `size` whose bit `size` is clear the order is
        // descending, in the others ascending (the bitonic merge's halves).
        Value descending = cmp(
            arith::CmpIPredicate::eq,
            arith::AndIOp::create(b, loc, i, idx(size)), idx(0));
        Value swap = arith::XOrIOp::create(b, loc, iFirst, descending);
        emitIf(swap, [&] {
          store(kj, candKeys, i);
          store(ki, candKeys, j);
          store(pj, candPositions, i);
          store(pi, candPositions, j);
        });
      });
      barrier();
    }
  }
}

void TopKEmitter::writeResults() {
  Type indexType = op.getIndices().getType().getElementType();
  forEachThreadItem(0, k, [&](Value j) {
    Value v = valueOfKey(load(candKeys, j));
    Value p = load(candPositions, j);
    if (!indexType.isInteger(32))
      p = arith::ExtUIOp::create(b, loc, indexType, p);
    memref::StoreOp::create(b, loc, v, values, ValueRange{slice, j, innerPos});
    memref::StoreOp::create(b, loc, p, indices, ValueRange{slice, j, innerPos});
  });
}

LogicalResult TopKEmitter::emit() {
  auto in = op.getInput().getType();
  int64_t axis = op.getAxis();
  elementType = in.getElementType();
  length = in.getDimSize(axis);
  for (int64_t d : in.getShape().take_front(axis))
    outer *= d;
  for (int64_t d : in.getShape().drop_front(axis + 1))
    inner *= d;
  k = op.getK();
  paddedK = static_cast<int64_t>(llvm::bit_ceil(static_cast<uint64_t>(k)));
  // The space keeps every thread owning a bin of the last pass.
  assert(sched.threads <= int64_t(1) << kPasses[2].bits &&
         "more threads than bins in the last radix pass");

  kc.grid = {outer * inner, 1, 1};
  kc.block = {sched.threads, 1, 1};
  if (inner == 1)
    input = reshapeView(b, loc, kc.args[0], {outer, length});
  else
    input = reshapeView(b, loc, kc.args[0], {outer, length, inner});
  values = reshapeView(b, loc, kc.args[1], {outer, k, inner});
  indices = reshapeView(b, loc, kc.args[2], {outer, k, inner});

  Type i32Type = b.getI32Type();
  hist = kc.addLds({kMaxBins}, i32Type);
  candKeys = kc.addLds({paddedK}, i32Type);
  candPositions = kc.addLds({paddedK}, i32Type);
  state = kc.addLds({3}, i32Type);
  counters = kc.addLds({3}, i32Type);
  poolCapacity = getTopKPoolCapacity(kc.target, sched.threads, k);
  bool usePool = k <= 2 * sched.threads && poolCapacity >= k;
  if (usePool) {
    maxima = kc.addLds({2 * sched.threads}, i32Type);
    poolKeys = kc.addLds({poolCapacity}, i32Type);
    poolPositions = kc.addLds({poolCapacity}, i32Type);
  }

  tid = threadIdX(b, loc);
  Value block = blockIdX(b, loc);
  slice = arith::DivUIOp::create(b, loc, block, idx(inner));
  innerPos = arith::RemUIOp::create(b, loc, block, idx(inner));

  // The gather's counters and the sort's padding, ordered before their use
  // by the radix passes' barriers.
  emitIf(cmp(arith::CmpIPredicate::eq, tid, idx(0)), [&] {
    store(i32(0), counters, idx(0));
    store(i32(0), counters, idx(1));
    store(i32(0), counters, idx(2));
  });
  forEachThreadItem(k, paddedK, [&](Value j) {
    store(i32(0), candKeys, j);
    store(i32(std::numeric_limits<int32_t>::max()), candPositions, j);
  });

  if (!usePool) {
    gather(radixSelect());
  } else {
    store(i32(0), maxima, tid);
    store(i32(0), maxima, add(tid, idx(sched.threads)));
    bound = lowerBound();
    collect();
    // The pool holds every element that reaches the bound unless it
    // overflowed (a uniform condition: every thread read the same count).
    auto fits = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::sle, poolCount, i32(poolCapacity)),
        /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fits.thenBlock());
    source = Source::Pool;
    Value sliceBound = bound;
    bound = nullptr; // every pool element reaches it
    gather(radixSelect());
    source = Source::Slice;
    bound = sliceBound;
    b.setInsertionPointToStart(fits.elseBlock());
    gather(radixSelect());
  }
  sortCandidates();
  writeResults();
  return success();
}

Value mlir::hkg::topKKeyOf(OpBuilder &b, Location loc, Value x) {
  Value f = toF32(b, loc, x);
  Type bitsType = b.getI32Type();
  if (auto vt = dyn_cast<VectorType>(f.getType()))
    bitsType = VectorType::get(vt.getShape(), bitsType);
  Value bits = arith::BitcastOp::create(b, loc, bitsType, f);
  auto splat = [&](int64_t v) {
    return splatLike(b, loc, constI32(b, loc, v), bits);
  };
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         bits, splat(0));
  Value flipped = arith::XOrIOp::create(b, loc, bits, splat(-1));
  Value signSet = arith::OrIOp::create(
      b, loc, bits, splat(std::numeric_limits<int32_t>::min()));
  Value key = arith::SelectOp::create(b, loc, negative, flipped, signSet);
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, f, f);
  return arith::SelectOp::create(b, loc, nan, splat(-1), key);
}

Value mlir::hkg::topKValueOfKey(OpBuilder &b, Location loc, Value key,
                                Type elementType) {
  Value wasPositive = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::slt, key, constI32(b, loc, 0));
  Value positive = arith::AndIOp::create(
      b, loc, key, constI32(b, loc, std::numeric_limits<int32_t>::max()));
  Value negative = arith::XOrIOp::create(b, loc, key, constI32(b, loc, -1));
  Value bits = arith::SelectOp::create(b, loc, wasPositive, positive, negative);
  Value f = arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  return fromF32(b, loc, f, elementType);
}

namespace mlir::hkg {
LogicalResult lowerTopK(TopKOp op, KernelContext &kc) {
  if (TopKSchedule::decode(kc.schedule).perSlice == TopKSliceMapping::Wave)
    return lowerTopKPerWave(op, kc);
  return TopKEmitter(op, kc).emit();
}
} // namespace mlir::hkg
