//===- SamplingKernel.h - the steps of top-p sampling -----------*- C++ -*-===//
//
// The kernel of hkg.top_p_sample (the algorithm: Sampling.cpp) as named
// steps over shared state: LogitRow walks a workgroup's share of a row of
// logits (SamplingRow.cpp); TopPKernel holds what the steps share and emits
// them: the row's range and token masses (Sampling.cpp), the mass histogram
// and its cut search (SamplingHistogram.cpp), the cut's bin gathered and
// the cut found in it or by key histograms (SamplingCut.cpp), the draw
// (SamplingDraw.cpp) and, with ctas_per_row > 1, the exchanges of a
// cluster's workgroups (SamplingCluster.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_SAMPLINGKERNEL_H
#define HKG_LIB_CONVERSION_HKGTOGPU_SAMPLINGKERNEL_H

#include "GPUBuildingBlocks.h"

#include "hkg/Dialect/Hkg/IR/Schedules/SamplingSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::hkg::topp {

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

/// A workgroup's share of one row of logits, as the passes over it visit
/// it: the thread's vectors and tail elements, scaled by the temperature
/// and keyed.
class LogitRow {
public:
  LogitRow(KernelContext &kc, TopPSampleOp op, const TopPSchedule &sched);

  /// Visits the thread's chunks of the row in order (vectors, then tail
  /// elements), threading `init` through `fn`. Strided (coalesced): thread t
  /// owns the vectors t, t + threads, ... and the tail elements t,
  /// t + threads, ...; the order of the thread's elements is not the token
  /// order across threads. Contiguous: thread t owns the vectors
  /// [t * vecsPerThread, (t + 1) * vecsPerThread) and the last thread also
  /// the tail, so visiting threads in tid order visits the tokens in id
  /// order (what the draw needs to match a CDF walk in token order).
  SmallVector<Value> pass(ValueRange init, ChunkFn fn, bool contiguous = false);

  /// Vector `vi` of the workgroup's share of the row (no tail, no mask).
  Chunk vectorAt(Value vi);

  /// Reduces over all the threads of the workgroup.
  SmallVector<Value> reduceAll(ValueRange values, const Combiner &combine);

  /// The order-preserving i32 image of f32 `z` (scalar or vector).
  Value keyOf(Value z);
  /// The f32 whose key is `key` (scalar).
  Value valueOfKey(Value key);

  Value splat(int64_t v, Value like);
  /// `cond ? x : y`, or `x` where `cond` is null (always true).
  Value select(Value cond, Value x, Value y);

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
  /// The step `step` of a pass: `u` vectors loaded, then visited.
  SmallVector<Value> passStep(Value step, int64_t u, bool contiguous,
                              bool guard, bool partialStep, ValueRange args,
                              ChunkFn fn);
  Type withI32(Type t);
  Chunk chunk(Value col, int64_t width, Value valid);
  Value load(Value col, int64_t width);
  Chunk finish(Value raw, Value col, int64_t width, Value valid);
};

/// The bin of a histogram where the mass from the top reaches a target
/// (TopPKernel::findCut).
struct Cut {
  Value bin, above, total, target;
};

/// The nucleus as the draw needs it: its cut key, the tied tokens it takes
/// (kTies) and their mass each (qCut), and per thread (of its contiguous
/// slice) the mass above the cut (own) and the number of tied tokens (ties).
struct Nucleus {
  Value cut, kTies, qCut, own, ties;
};

/// The state the steps of the kernel share, and the steps.
class TopPKernel {
public:
  TopPKernel(KernelContext &kc, TopPSampleOp op, const TopPSchedule &sched);

  /// Emits the whole kernel.
  LogicalResult emit();

  //===--------------------------------------------------------------------===//
  // Integer and control-flow shorthands (Sampling.cpp)
  //===--------------------------------------------------------------------===//

  Value c64(int64_t v);
  Value ci(int64_t v);
  Value toIndex(Value v);
  /// `et`, or a vector of `et` shaped like `like`.
  Type withType(Value like, Type et);
  Value zeroLike(Value v);
  /// Reduces an integer vector with `kind` (a scalar is returned as is).
  Value reduceI(Value v, vector::CombiningKind kind);
  Value sumI(Value v);
  Value andI(Value x, Value y);
  Value cmpI(arith::CmpIPredicate pred, Value x, Value y);
  Value selectV(Value c, Value x, Value y);
  Value addI(Value x, Value y);
  Value subI(Value x, Value y);
  /// Element `l` of vector `v`.
  Value lane(Value v, int64_t l);
  void ifThen(Value cond, function_ref<void()> body);
  /// Runs `body(i)` for i = tid, tid + threads, ... < n (n an index).
  void forEachStrided(Value n, function_ref<void(Value)> body);
  Value atomicAdd(Value v, Value mem, Value at);
  void barrier();

  //===--------------------------------------------------------------------===//
  // The cluster of a row's workgroups (SamplingCluster.cpp)
  //===--------------------------------------------------------------------===//

  /// The peers' ranks and the exchange slots (ctas_per_row > 1).
  void setUpCluster();
  void clusterSync();
  /// Element `at` of workgroup `who`'s (an i32 rank) copy of the LDS buffer
  /// `lds`.
  Value loadFrom(Value lds, Value at, Value who);
  /// Publishes `v` in slot `k` of `slots`; returns the sum of the values
  /// the workgroups of lower rank published there and the sum over all.
  std::pair<Value, Value> exclusiveAcross(Value slots, int64_t k, Value v);
  /// The row's max and min z from each workgroup's.
  void combineRange(SmallVector<Value> &stats);
  /// Adds the peers' histograms (and `light`, when given, their light-token
  /// mass) to this workgroup's.
  void mergeHist(Value *light);
  /// Adds the peers' key ranges of the cut's bin to `binKeys` and their
  /// counts of its tokens to `peerCounts`; returns the peers' total count.
  Value exchangeBinTokens(Value count, SmallVector<Value> &binKeys,
                          SmallVector<Value> &peerCounts);

  //===--------------------------------------------------------------------===//
  // 1. The row's range and the token masses (Sampling.cpp)
  //===--------------------------------------------------------------------===//

  /// maxZ and minZ: the row's max z and smallest finite z.
  void findRange();
  /// q(z) = floor(exp(z - max z) 2^S) (scalar or vector).
  Value massOf(Value z);
  /// Each thread's mass of key > c and tokens at c (contiguous).
  std::pair<Value, Value> ownPass(Value c);
  /// p = 1: every token.
  Nucleus wholeRow();

  //===--------------------------------------------------------------------===//
  // 2. The mass histogram (SamplingHistogram.cpp)
  //===--------------------------------------------------------------------===//

  /// The LDS buffers of the cut search.
  void allocateSearchBuffers();
  void zeroHist();
  /// Word `k` of histogram bin `bin`.
  Value word(Value bin, int64_t k);
  Value load64(Value bin);
  void zero64(Value bin);
  void atomicAdd64(Value v, Value bin);
  /// The bin of `hist` (index 0: the largest keys) where the mass from the
  /// top, after `base`, reaches P = targetOf(total).
  Cut findCut(Value base, function_ref<Value(Value)> targetOf);
  /// The mass bin of z (scalar or vector).
  Value binOf(Value z);
  /// bin_cache = 1: where vector `vi`'s bins are cached.
  Value binSlot(Value vi);
  void cacheBins(const Chunk &c, Value bin);
  Value cachedBins(Value vi);
  /// The mass histogram of the row over bins uniform in z, and the bin of
  /// the cut (top, target, cutBin).
  void massHistogram();
  /// light_tokens = 1: the histogram pass without the light tokens; returns
  /// the workgroup's light mass.
  Value massHistogramWithoutLight(int64_t tau);

  //===--------------------------------------------------------------------===//
  // 3.-4. The cut's bin and the cut (SamplingCut.cpp)
  //===--------------------------------------------------------------------===//

  /// p < 1: the cut search.
  Nucleus searchNucleus();
  /// Pass 3 on one chunk: the mass above the cut's bin, the bin's tokens to
  /// the list, its key range.
  SmallVector<Value> gatherChunk(const Chunk &c, ValueRange a);
  /// Pass 3 over the row: (mass above the cut's bin, min key, max key).
  SmallVector<Value> gatherCutBin();
  /// Pass 3 with the bin cache: only the vectors in or above the cut's bin
  /// (`init`: gatherChunk's initial accumulators).
  SmallVector<Value> gatherQueued(ArrayRef<Value> init);
  /// 4a. The cut among the list's `count` tokens, and the peers' lists
  /// (yielded values: cut, mass above it, the thread's mass above it from
  /// `ownMass` and the list, its ties).
  SmallVector<Value> cutFromList(Value count, ArrayRef<Value> peerCounts,
                                 Value ownMass);
  /// 4b. The cut by key histograms within `binKeys` (yielded values).
  SmallVector<Value> cutFromKeyHistograms(ArrayRef<Value> binKeys);
  /// One level of 4b: the key histogram of [lo, hi] and its cut.
  SmallVector<Value> keyHistogramLevel(Value lo, Value hi, Value base);

  //===--------------------------------------------------------------------===//
  // 5. The draw (SamplingDraw.cpp)
  //===--------------------------------------------------------------------===//

  /// The uniform variate of the row.
  Value uniform();
  /// Draws the token of the row from the nucleus and stores it.
  void draw(const Nucleus &n);

  KernelContext &kc;
  TopPSampleOp op;
  const TopPSchedule &sched;
  LogitRow s;
  OpBuilder &b;
  Location loc;
  Type f32, f64, i32, i64, idx;
  int64_t numBins, binBits, binsPerThread;
  /// Histogram bins hold 64-bit masses as three i32 words of `wordBits` bits
  /// each; masses are scaled by 2^massShift.
  int64_t logV, wordBits, massShift;
  bool clustered;
  bool binCache = false;
  int64_t cacheStride = 0, cacheAlign = 0;

  /// The other workgroups of the cluster, as i32 ranks.
  SmallVector<Value> peers;
  Value x32, x64, isT0;
  Value maxZ, minZ;
  /// The cut search's LDS buffers.
  Value hist, bcast, cutSlot, counter, listKey, listId, listQ;
  Value binCacheMem, queue, queueCount;
  Value isThread0;
  /// (max z - min z) / (bins - 1) inverted: binOf's scale.
  Value scale;
  /// The workgroup's (with clusters: the row's) light-token mass, or null.
  Value lightTotal;
  /// The cut's bin of the mass histogram, P, and the bin as i32.
  Cut top;
  Value target, cutBin;
};

} // namespace mlir::hkg::topp

#endif // HKG_LIB_CONVERSION_HKGTOGPU_SAMPLINGKERNEL_H
