//===- RowOpSchedules.cpp - schedules of reduce, softmax and the norms ----===//
//
// Row ops reduce along the trailing dim(s) of their input, one row at a time.
// A workgroup handles `rows_per_block` rows with `threads / rows_per_block`
// threads each; each thread moves `vector_width` elements per access and
// keeps `unroll` accesses in flight. `row_cache` says where a row lives
// between its passes: re-read from global memory (`none`), held in registers,
// or staged in LDS. Softmax can fuse the max and sum passes (`online`).
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/Schedules/RowSchedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/ReduceKinds.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// Most 32-bit registers a thread may spend on its part of the row for
/// `row_cache = registers` (at 1024 threads a gfx942 lane has 128 VGPRs, an
/// sm_90 thread 64: the cache must leave room for the rest of the kernel).
static constexpr int64_t kMaxCachedWordsPerThread = 64;

/// 32-bit registers holding `vectors` vectors of `width` elements.
static int64_t cacheWords(int64_t vectors, int64_t width, int64_t elemBytes) {
  return llvm::divideCeil(vectors * width * elemBytes, 4);
}

namespace {
/// The geometry of a row op: rows x row length, element sizes.
struct RowGeometry {
  int64_t rows;
  int64_t rowLength;
  int64_t elemBytes; // widest of input and output
  int64_t inputElemBytes;
  int64_t outputElemBytes;
  /// Bytes a cached row element takes in registers: the lowering keeps a
  /// bf16 row packed for rmsnorm (ReductionsRowEmitter.cpp); other rows
  /// hold their f32 conversions, except long bf16 rows in 1024 threads
  /// (packsCachedRow).
  int64_t cachedElemBytes;
  /// The input is bf16 (a cached row may stay packed: packsCachedRow).
  bool bf16Input = false;
  /// The row count is dynamic (`rows` is its size hint times the static
  /// row dims): the kernel serves every count.
  bool dynamicRows = false;
};
} // namespace

static RowGeometry getGeometry(Value input, Value result, int64_t reducedDims) {
  auto t = cast<RankedTensorType>(input.getType());
  RowGeometry g;
  g.rowLength = 1;
  g.rows = 1;
  SmallVector<int64_t> shape =
      getHintedShape(result.getDefiningOp(), t.getShape());
  int64_t split = static_cast<int64_t>(shape.size()) - reducedDims;
  for (auto [i, d] : llvm::enumerate(shape))
    (static_cast<int64_t>(i) < split ? g.rows : g.rowLength) *= d;
  g.inputElemBytes = elementBytes(t);
  g.outputElemBytes = elementBytes(result.getType());
  g.elemBytes = std::max(g.inputElemBytes, g.outputElemBytes);
  g.cachedElemBytes = std::max<int64_t>(g.inputElemBytes, 4);
  g.bf16Input = t.getElementType().isBF16();
  g.dynamicRows = !t.hasStaticShape();
  return g;
}

/// Legal `row_split` values. A cluster takes at most 8 (the portable
/// cluster size of sm_90; 16 needs the non-portable cluster attribute at
/// launch, which the runtime does not set); the workspace combine takes
/// them all where the chip keeps that many workgroups resident
/// (maxWorkspaceRowSplit).
static constexpr int64_t kRowSplits[] = {1, 2, 4, 8, 16, 32, 64};
static constexpr int64_t kMaxClusterRowSplit = 8;
/// The default splits a row only into slices of at least this many input
/// bytes: shorter slices leave too little to stream per workgroup to hide
/// the exchanges' cluster barriers (a guess until measured: 16 x 131072 f32
/// makes slices of 64 KiB; 64 x 8192 bf16 would make 8 KiB ones of 128
/// threads and stays whole).
static constexpr int64_t kMinRowSplitSliceBytes = 32768;

/// The largest `row_split` with row_split_reduce = workspace on `target`:
/// the workgroups of a row wait for each other's statistics, so all of
/// them must be resident at once. Rows are handed out in launch order
/// (tickets), so a split up to the chip's CU / SM count, each keeping at
/// least one workgroup, always makes progress; at most 64 (sm_90 parts with
/// fewer SMs than the H200's 132 exist). 1 where the CU count is unknown.
static int64_t maxWorkspaceRowSplit(const TargetInfo &target) {
  int64_t cus = target.computeUnits;
  if (cus < 2)
    return 1;
  return std::min<int64_t>(
      64, static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(cus))));
}

/// Vectors of `vw` elements in one of `split` slices of a row of `len`.
static int64_t sliceVectors(int64_t len, int64_t vw, int64_t split) {
  return llvm::divideCeil(llvm::divideCeil(len, vw), split);
}

namespace {
/// A default split: workgroups per row and where their statistics meet.
struct RowSplitChoice {
  int64_t split = 1;
  bool workspace = false;
};
} // namespace

/// Threads per workgroup of the workspace split's default: its rank and
/// row group come from a ticket held in registers for the whole kernel
/// (a cluster's are recomputed from the block id), and at 1024 threads (64
/// registers each on sm_90) softmax over 16 x 4M bf16 spilled 264 bytes
/// (ptxas -v), none at 512.
static constexpr int64_t kWorkspaceSplitThreads = 512;

/// Whether a slice of a row split `split` ways fits the register cache of
/// one workgroup of `threads` threads within `maxWords` a thread (by
/// default half the verifier's bound: what the default caches for a row
/// at 1024 threads, buildRowSpace).
static bool sliceFitsRegisters(const RowGeometry &g, int64_t vw, int64_t split,
                               int64_t threads = 1024,
                               int64_t maxWords = kMaxCachedWordsPerThread /
                                                  2) {
  int64_t perThread =
      llvm::divideCeil(sliceVectors(g.rowLength, vw, split), threads);
  return cacheWords(perThread, vw, g.cachedElemBytes) <= maxWords;
}

/// Workgroups of a re-read workspace split, per SM, up to which the
/// default splits rows too long for any workgroup's registers: on the H100,
/// 64 x 1M bf16 in 1024 workgroups (7.8 per SM) ran softmax 1.23x and
/// rmsnorm 1.07x faster than the clusters of 8, while 1024 x 65536 in
/// 16384 (slices of 8 KiB) ran 2.4x slower than the unsplit rows.
static constexpr int64_t kWorkspaceSplitWorkgroupsPerSM = 8;

/// The default `row_split` (static row counts whose rows vector_width
/// divides; otherwise 1):
///  - rows that fit one workgroup's registers whole: on sm_90, the largest
///    cluster (up to 8) whose slices keep kMinRowSplitSliceBytes of input
///    and such that rows x split stays within the SM count (the split only
///    fills the machine); elsewhere no split;
///  - longer rows go through the workspace (its ticket and spin measured
///    faster than clusters of 8 on every such shape of docs/perf "Long
///    rows", H100): with the smallest split whose slices fit the registers
///    of kWorkspaceSplitThreads threads, if rows x split stays within the
///    CU count (4 x 1M bf16 in 32: softmax 15.6 us against 24.8 in
///    clusters); else, with fewer rows than CUs, re-read, in 64 while that
///    fills at most one wave (1 x 4M: softmax 21.1 us against 63.6), else
///    in the largest split up to 16 within kWorkspaceSplitWorkgroupsPerSM
///    per CU whose slices keep kMinRowSplitSliceBytes (16 x 4M: 148 us
///    against 203; 64 x 1M: 145 against 178); else not at all.
static RowSplitChoice defaultRowSplit(const RowGeometry &g,
                                      const TargetInfo &target, int64_t vw,
                                      bool cached) {
  if (g.dynamicRows || g.rowLength % vw != 0)
    return {};
  int64_t cus = target.computeUnits;
  int64_t maxSplit = maxWorkspaceRowSplit(target);
  auto sliceKeepsMinBytes = [&](int64_t s) {
    return g.rowLength / s * g.inputElemBytes >= kMinRowSplitSliceBytes;
  };
  if (!cached) {
    // hkg.reduce reads each row once: a split only fills the machine, so
    // fewer rows than CUs take the fewest workgroups per row that give
    // every CU one, with slices of at least kMinRowSplitSliceBytes.
    int64_t s = 1;
    while (s < maxSplit && 2 * s <= g.rowLength / vw && g.rows * s < cus &&
           sliceKeepsMinBytes(2 * s))
      s *= 2;
    return s == 1 ? RowSplitChoice{} : RowSplitChoice{s, true};
  }
  if (sliceFitsRegisters(g, vw, 1)) {
    if (target.hasClusters())
      for (int64_t s : llvm::reverse(kRowSplits))
        if (s > 1 && s <= kMaxClusterRowSplit && g.rows * s <= cus &&
            sliceKeepsMinBytes(s))
          return {s, false};
    return {};
  }
  if (maxSplit == 1)
    return {};
  int64_t vectors = g.rowLength / vw;
  // Cached in registers: the smallest split whose slices fit, one wave.
  for (int64_t s = 2; s <= maxSplit && s <= vectors; s *= 2)
    if (sliceFitsRegisters(g, vw, s, kWorkspaceSplitThreads,
                           kMaxCachedWordsPerThread)) {
      if (g.rows * s <= cus && sliceKeepsMinBytes(s))
        return {s, true};
      break;
    }
  // Re-read: 64 within one wave, else up to 16 within a few per CU, while
  // there are fewer rows than CUs (more rows fill the machine unsplit:
  // 1024 x 65536 split 2 in 2048 workgroups or 16 in 16384 ran 1.4x and
  // 2.6x slower than its unsplit rows on the H100).
  if (g.rows >= cus)
    return {};
  if (maxSplit >= 64 && g.rows * 64 <= cus && 64 <= vectors &&
      sliceKeepsMinBytes(64))
    return {64, true};
  for (int64_t s = std::min<int64_t>(16, maxSplit); s > 1; s /= 2)
    if (s <= vectors && g.rows * s <= kWorkspaceSplitWorkgroupsPerSM * cus &&
        sliceKeepsMinBytes(s))
      return {s, true};
  return {};
}

/// Knobs every row op has, `row_split` and `row_split_reduce` among them;
/// `cached` adds `row_cache` (and `bulk_store`). The default uses at most
/// `maxThreads` threads per row.
static ScheduleSpace buildRowSpace(const RowGeometry &g,
                                   const TargetInfo &target, bool cached,
                                   int64_t maxThreads = 1024) {
  int64_t wave = target.waveSize;
  int64_t vw = std::min<int64_t>(widestVector(g.elemBytes),
                                 clampPow2(g.rowLength, 1, 16));
  // A vector width that divides the row keeps every row's vectors aligned
  // (16-byte accesses); rows of odd length fall back to narrower vectors.
  while (vw > 1 && g.rowLength % vw != 0)
    vw /= 2;
  // A workgroup's share of the row: all of it, or its slice.
  RowSplitChoice splitChoice = defaultRowSplit(g, target, vw, cached);
  int64_t split = splitChoice.split;
  int64_t sliceLen = sliceVectors(g.rowLength, vw, split) * vw;
  if (split == 1)
    sliceLen = g.rowLength;
  // Aim for about 4 vectors per thread over the row.
  if (splitChoice.workspace)
    maxThreads = std::min(maxThreads, kWorkspaceSplitThreads);
  int64_t tpr =
      clampPow2(llvm::divideCeil(sliceLen, vw * 4), 1,
                std::min<int64_t>(target.maxThreadsPerWorkgroup, maxThreads));
  int64_t threads = tpr, rowsPerBlock = 1;
  if (tpr < wave) {
    threads = clampPow2(tpr * 16, wave, 256);
    rowsPerBlock = std::max<int64_t>(1, threads / tpr);
  }
  int64_t unroll = clampPow2(llvm::divideCeil(sliceLen, vw * tpr), 1, 4);

  ScheduleSpace space;
  space.add(kVectorWidth, vectorWidths(g.elemBytes), vw,
            "elements per global access (16 bytes at most)");
  space.add(kThreads, threadCounts(target), threads,
            "threads per workgroup (a multiple of the wave size)");
  space.add(kRowsPerBlock, {1, 2, 4, 8, 16, 32, 64}, rowsPerBlock,
            "rows one workgroup handles, each with threads / "
            "rows_per_block threads");
  space.add(kUnroll, {1, 2, 4, 8}, unroll,
            "vector accesses each thread keeps in flight per step");
  if (cached) {
    int64_t vectorsPerThread = llvm::divideCeil(sliceLen, vw * tpr);
    // A workgroup of 1024 threads on NVIDIA (64 registers each) caches at
    // most half the verifier's bound: a 4 x 1M bf16 rmsnorm slice of 64
    // cached words in a cluster spilled 716 bytes (ptxas -v), 16 words (16
    // x 131072 f32 layernorm) none; whole rows of 65536 bf16 cached as 64
    // f32 words spilled 164 (softmax) and 192 bytes (layernorm) and ran
    // 1.09x / 1.23x slower than re-read (H100, docs/perf "Long rows"),
    // where rmsnorm's packed 32 words did not spill. The workspace split's
    // 512 threads have 128 registers each: 64 words of 4 x 1M bf16
    // softmax, layernorm and rmsnorm in 32 slices took 86-128 registers,
    // no spills.
    // Such rows of bf16 stay packed (packsCachedRow): 64 elements of a
    // 1024 x 65536 softmax / layernorm row in 32 words ran 1.23x / 1.29x
    // faster than re-read.
    bool halfBound = target.isNVIDIA() && threads >= 1024;
    int64_t maxWords =
        halfBound ? kMaxCachedWordsPerThread / 2 : kMaxCachedWordsPerThread;
    int64_t cachedBytes =
        g.bf16Input && packsCachedRow(target.isNVIDIA(), threads,
                                      vectorsPerThread * vw)
            ? 2
            : g.cachedElemBytes;
    RowCache cache = cacheWords(vectorsPerThread, vw, cachedBytes) <= maxWords
                         ? RowCache::Registers
                         : RowCache::None;
    space.add(kRowCache, {RowCache::None, RowCache::Registers, RowCache::Lds},
              cache,
              "where a row lives between passes: re-read from global "
              "memory, registers, or LDS");
  }
  if (maxWorkspaceRowSplit(target) > 1) {
    space.add(kRowSplit, kRowSplits, split,
              "workgroups sharing each row, each with a contiguous slice of "
              "it, combining their partial statistics as row_split_reduce "
              "says");
    SmallVector<StringRef> reduces = {"workspace"};
    if (target.hasClusters())
      reduces.insert(reduces.begin(), "cluster");
    space.add(kRowSplitReduce, reduces,
              splitChoice.workspace ? StringRef("workspace") : reduces.front(),
              "where a split row's statistics meet: cluster (distributed "
              "shared memory of a thread-block cluster, sm_90, row_split <= "
              "8) or workspace (a global workspace every workgroup of the "
              "row waits on, every target)");
  } else {
    space.addUnavailable(kRowSplit.name,
                         "splitting a row needs the chip's compute-unit count "
                         "(its workgroups wait for each other)");
    space.addUnavailable(kRowSplitReduce.name,
                         "splitting a row needs the chip's compute-unit count "
                         "(its workgroups wait for each other)");
  }
  // Off by default until measured beyond the one shape where it paid
  // (layernorm, docs/perf).
  if (cached && target.hasBulkAsyncCopy())
    space.add(kBulkStore, false,
              "1: the row group's outputs are staged in LDS and written "
              "with one bulk asynchronous copy (cp.async.bulk, sm_90); 0: "
              "each thread stores its vectors");
  // No hint by default: the norms' defaults already fit several workgroups
  // per SM, a hint gained too little to matter where it did not spill, and
  // caps registers low enough to spill in layernorm (docs/perf).
  addOccupancyKnob(space, target);
  return space;
}

/// `row_split` = S > 1: a static row count, whole vectors (vector_width
/// divides the row) of which every workgroup gets some, and none of the
/// knobs that assume a workgroup holds whole rows.
static LogicalResult
verifyRowSplit(const RowGeometry &g, const RowSchedule &sched,
               const TargetInfo &target,
               function_ref<InFlightDiagnostic()> emitError) {
  int64_t split = sched.rowSplit;
  if (split == 1)
    return success();
  auto knob = [&]() {
    return emitError() << "schedule knob '" << kRowSplit.name << "' = " << split
                       << " ";
  };
  if (g.dynamicRows)
    return knob() << "needs a static row count; the input's row dims are "
                     "dynamic (expected row_split = 1)";
  int64_t vw = sched.vectorWidth;
  if (g.rowLength % vw != 0)
    return knob() << "needs 'vector_width' = " << vw << " to divide the row of "
                  << g.rowLength << " elements";
  int64_t vectors = g.rowLength / vw;
  if (split > vectors)
    return knob() << "exceeds the " << vectors << " vectors of a row (vector_"
                  << "width = " << vw << "); expected at most " << vectors;
  if (sched.rowSplitWorkspace) {
    int64_t maxSplit = maxWorkspaceRowSplit(target);
    if (split > maxSplit)
      return knob() << "with row_split_reduce = workspace exceeds the "
                    << maxSplit << " workgroups that " << target.chip
                    << " is sure to keep resident at once (the workgroups of "
                       "a row wait for each other); expected at most "
                    << maxSplit;
  } else if (split > kMaxClusterRowSplit) {
    return knob() << "with row_split_reduce = cluster exceeds the "
                  << kMaxClusterRowSplit
                  << " workgroups of a portable cluster; expected "
                     "row_split_reduce = workspace";
  }
  if (sched.rowCache == RowCache::Lds)
    return knob() << "keeps each slice in registers or re-reads it; expected "
                     "row_cache = registers or none (got 'lds')";
  if (sched.bulkStore)
    return knob() << "needs bulk_store = 0 (a bulk store copies whole rows)";
  if (sched.rowSteps != 1)
    return knob() << "needs row_steps = 1 (got " << sched.rowSteps << ")";
  return success();
}

static LogicalResult
verifyRowConstraints(const RowGeometry &g, const ResolvedSchedule &s,
                     const TargetInfo &target,
                     function_ref<InFlightDiagnostic()> emitError) {
  RowSchedule sched = RowSchedule::decode(s);
  int64_t threads = sched.threads;
  int64_t rpb = sched.rowsPerBlock;
  int64_t vw = sched.vectorWidth;
  if (rpb > threads)
    return emitError() << "schedule knob '" << kRowsPerBlock.name
                       << "' = " << rpb << " exceeds '" << kThreads.name
                       << "' = " << threads
                       << "; expected rows_per_block <= threads";
  if (failed(verifyOccupancy(s, threads, target, emitError)))
    return failure();
  if (failed(verifyRowSplit(g, sched, target, emitError)))
    return failure();
  if (!s.has(kRowCache.name))
    return success();
  int64_t tpr = sched.threadsPerRow();
  RowCache cache = sched.rowCache;
  // The cross-wave reduction scratch (a few words per wave), bounded.
  constexpr int64_t kReductionScratchBytes = 1024;
  int64_t ldsBytes = kReductionScratchBytes;
  if (cache == RowCache::Lds)
    ldsBytes += rpb * g.rowLength * g.inputElemBytes;
  if (sched.bulkStore && g.dynamicRows)
    return emitError() << "schedule knob 'bulk_store' = 1 needs a static "
                          "row count; the input's row dims are dynamic";
  if (sched.bulkStore) {
    int64_t rowBytes = g.rowLength * g.outputElemBytes;
    if (rowBytes % 16 != 0)
      return emitError() << "schedule knob 'bulk_store' = 1 needs output rows "
                            "of a multiple of 16 bytes (bulk copies move "
                            "16-byte units from 16-byte aligned addresses); "
                            "got "
                         << rowBytes << " bytes (" << g.rowLength
                         << " elements)";
    ldsBytes += rpb * rowBytes;
    if (ldsBytes > staticLdsBytes(target))
      return emitError() << "schedule knob 'bulk_store' = 1 needs " << ldsBytes
                         << " bytes of LDS for " << rpb << " output row(s) of "
                         << g.rowLength << " elements"
                         << (cache == RowCache::Lds ? ", the cached rows" : "")
                         << " and the reduction; " << target.chip << " allows "
                         << staticLdsBytes(target) << " per workgroup";
  }
  if (cache == RowCache::Registers) {
    int64_t perThread = llvm::divideCeil(
        sliceVectors(g.rowLength, vw, sched.rowSplit) * vw, vw * tpr);
    int64_t words = cacheWords(perThread, vw, g.cachedElemBytes);
    if (words > kMaxCachedWordsPerThread)
      return emitError() << "schedule knob 'row_cache' = registers needs "
                         << words << " registers per thread for rows of "
                         << g.rowLength << " elements (vector_width = " << vw
                         << ", " << tpr
                         << " threads per row); expected at most "
                         << kMaxCachedWordsPerThread;
  }
  if (cache == RowCache::Lds) {
    // The cached rows plus the cross-wave reduction scratch.
    int64_t bytes =
        rpb * g.rowLength * g.inputElemBytes + kReductionScratchBytes;
    if (bytes > staticLdsBytes(target))
      return emitError() << "schedule knob 'row_cache' = lds needs " << bytes
                         << " bytes of LDS for " << rpb << " row(s) of "
                         << g.rowLength << " elements and the reduction; "
                         << target.chip << " allows "
                         << staticLdsBytes(target) << " per workgroup";
  }
  return success();
}

static CostFeatures rowCost(Operation *op, const RowGeometry &g,
                            double flopsPerElement) {
  CostFeatures c;
  for (Value v : op->getOperands())
    c.bytes += tensorBytes(op, v);
  for (Value v : op->getResults())
    c.bytes += tensorBytes(op, v);
  c.flops = flopsPerElement * static_cast<double>(g.rows * g.rowLength);
  c.shape = {g.rows, g.rowLength};
  c.elementType = getElementTypeOrSelf(op->getOperand(0).getType());
  return c;
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// The reduce's row geometry (trailing axes: rows of `len` elements).
static RowGeometry reduceRows(ReduceOp op) {
  int64_t rank = op.getInput().getType().getRank();
  RowGeometry g =
      getGeometry(op.getInput(), op.getResult(), rank - op.getAxes().front());
  // One result per row, stored once: the accesses that matter are the
  // input's (an i64 argmax or f32 logsumexp of a bf16 row kept 4- and
  // 8-byte loads, 50% and 46% of a copy on the H200, docs/perf).
  g.elemBytes = g.inputElemBytes;
  return g;
}

/// Whether the reduce runs down columns: axes before some kept dims.
static bool reducesColumns(ReduceOp op) {
  return op.getReductionGeometry()[2] > 1;
}

/// Down columns of [outer, len, inner] (ReductionsColumns.h), the knobs
/// mean: `vector_width` elements of a column tile per access (dividing
/// `inner`), `threads` per workgroup of which `rows_per_block` stride down
/// the axis and the rest cover the tile across, `unroll` rows in flight per
/// thread; `axis_split` workgroups of a cluster share the axis (sm_90).
/// `bytes`: the widest element. `cachedBytes`: bytes a cached element takes
/// in registers for ops that pass over their columns more than once
/// (`column_cache`), 0 for those that read them once (reduce).
static ScheduleSpace buildColumnSpace(std::array<int64_t, 3> g, int64_t bytes,
                                      const TargetInfo &target,
                                      int64_t cachedBytes,
                                      bool positions = false) {
  int64_t outer = g[0], len = g[1], inner = g[2];
  int64_t vw = widestVector(bytes);
  while (vw > 1 && inner % vw != 0)
    vw /= 2;
  int64_t wanted = 2 * static_cast<int64_t>(target.computeUnits);
  auto workgroups = [&](int64_t across, int64_t split) {
    return outer * static_cast<int64_t>(llvm::divideCeil(inner, across * vw)) *
           split;
  };
  SmallVector<int64_t> splits = {1};
  if (target.hasClusters())
    splits.append({2, 4, 8});

  // The tile across: the columns (in vectors), at most 256 threads, and
  // narrower (down to 8 threads, 128 bytes of 16-bit columns) until there
  // are two workgroups per compute unit; the rest of 256 threads stride
  // down the axis, as many as the axis feeds.
  int64_t across = clampPow2(llvm::divideCeil(inner, vw), 1, 256);
  while (across > 8 && workgroups(across, 1) < wanted)
    across /= 2;
  int64_t down = clampPow2(std::min<int64_t>(256 / across, len), 1, 64);
  int64_t threads = std::max<int64_t>(target.waveSize, across * down);
  down = std::min<int64_t>(threads / across, 64);
  int64_t split = 1;
  RowCache cache = RowCache::None;
  int64_t unroll = 4;
  // A (value, position) state per lane (argmax, argmin): 64 thread rows of
  // up to 512 threads, two rows each in flight. On an H100 (docs/perf,
  // "Generic reductions") argmax over axis 0 of 8192 x 16384 ran at 78% of
  // a copy so, against 53% at 256 threads and 4 rows in flight (u1: 53%,
  // u8: 31%, 512 threads at 4 rows: 51%).
  if (positions) {
    down = clampPow2(std::min<int64_t>(512 / across, len), 1, 64);
    threads = std::max<int64_t>(target.waveSize, across * down);
    down = std::min<int64_t>(threads / across, 64);
    unroll = 2;
  }

  // Cached: the fewest workgroups per column strip (a cluster's share of
  // the axis each) whose rows fit half the register budget and at most 8
  // rows per thread with at most 64 thread rows; 256 threads, narrower
  // tiles for more thread rows. (On sm_90, 16 bf16 rows per thread took
  // 107-175 registers, one or two workgroups per SM; 8 rows 72-80.)
  if (cachedBytes > 0) {
    int64_t rowsPerThread = std::min<int64_t>(8, kMaxCachedWordsPerThread / 2 *
                                                     4 / (vw * cachedBytes));
    for (int64_t s : splits) {
      int64_t chunk = llvm::divideCeil(len, s);
      int64_t d = static_cast<int64_t>(llvm::bit_ceil(static_cast<uint64_t>(
          llvm::divideCeil(chunk, std::max<int64_t>(rowsPerThread, 1)))));
      if (d > 64 || s > len)
        continue;
      int64_t a = clampPow2(std::min<int64_t>(llvm::divideCeil(inner, vw),
                                              std::max<int64_t>(256 / d, 1)),
                            1, 256);
      while (a > 4 && a * d > target.waveSize && workgroups(a, s) < wanted)
        a /= 2;
      int64_t t = std::max<int64_t>(target.waveSize, a * d);
      if (t > target.maxThreadsPerWorkgroup)
        continue;
      across = a;
      threads = t;
      down = std::min<int64_t>(t / a, 64);
      split = s;
      cache = RowCache::Registers;
      break;
    }
  }

  // One pass (reduce): no axis split by default. On an H100 (2026-12-06,
  // docs/perf) splitting ran slower: argmax over axis 0 of 8192 x 16384
  // 56% of a copy unsplit, 49% at 4, 29% at 8; a sum over the middle axis
  // of 16 x 4096 x 2048 93% unsplit, 91% at 2, 87% at 4.

  ScheduleSpace space;
  space.add(kVectorWidth, vectorWidths(bytes), vw,
            "elements of a column tile per global access (16 bytes at most)");
  space.add(kThreads, threadCounts(target), threads,
            "threads per workgroup (a multiple of the wave size)");
  space.add(kRowsPerBlock, {1, 2, 4, 8, 16, 32, 64}, down,
            "threads of a workgroup striding down the reduced axis (the "
            "others cover the column tile)");
  space.add(kUnroll, {1, 2, 4, 8}, unroll,
            "rows down the axis each thread keeps in flight per step "
            "(column_cache = none)");
  if (cachedBytes > 0)
    space.add(kColumnCache, {RowCache::None, RowCache::Registers}, cache,
              "where the workgroup's column strip lives between passes: "
              "re-read from global memory (none), or each thread's rows "
              "kept in registers (the input read once)");
  space.add(kAxisSplit, splits, split,
            "workgroups sharing the reduced axis, each with its share of "
            "the rows: 2, 4 or 8 = a cluster of that many (sm_90), "
            "combining through distributed shared memory");
  addOccupancyKnob(space, target);
  return space;
}

/// 32-bit registers per thread that `column_cache = registers` holds.
static int64_t columnCacheWords(int64_t len, const RowSchedule &sched,
                                int64_t cachedBytes) {
  int64_t chunk = llvm::divideCeil(len, sched.axisSplit);
  int64_t rows = llvm::divideCeil(chunk, sched.rowsPerBlock);
  return cacheWords(rows, sched.vectorWidth, cachedBytes);
}

static LogicalResult
verifyColumnConstraints(std::array<int64_t, 3> g, const ResolvedSchedule &s,
                        const TargetInfo &target,
                        function_ref<InFlightDiagnostic()> emitError,
                        int64_t cachedBytes = 0) {
  RowSchedule sched = RowSchedule::decode(s);
  if (g[2] % sched.vectorWidth != 0)
    return emitError() << "schedule knob '" << kVectorWidth.name
                       << "' = " << sched.vectorWidth << " must divide the "
                       << g[2] << " columns the reduction runs down";
  if (sched.rowsPerBlock > sched.threads)
    return emitError() << "schedule knob '" << kRowsPerBlock.name
                       << "' = " << sched.rowsPerBlock << " exceeds '"
                       << kThreads.name << "' = " << sched.threads
                       << "; expected rows_per_block <= threads";
  // (axis_split > 1 is listed only where clusters exist.)
  int64_t split = sched.axisSplit;
  if (split > g[1])
    return emitError() << "schedule knob '" << kAxisSplit.name
                       << "' = " << split << " exceeds the " << g[1]
                       << " rows of the reduced axis; expected at most "
                       << g[1];
  if (sched.columnCache == RowCache::Registers) {
    int64_t words = columnCacheWords(g[1], sched, cachedBytes);
    if (words > kMaxCachedWordsPerThread)
      return emitError() << "schedule knob '" << kColumnCache.name
                         << "' = registers needs " << words
                         << " registers per thread for "
                         << llvm::divideCeil(g[1], split) << " rows of "
                         << sched.vectorWidth << " elements over "
                         << sched.rowsPerBlock
                         << " thread rows (axis_split = " << split
                         << "); expected at most " << kMaxCachedWordsPerThread
                         << ": raise 'rows_per_block' or 'axis_split'";
  }
  return verifyOccupancy(s, sched.threads, target, emitError);
}

/// Bytes a column-cached element of `op`'s input takes in registers: a
/// bf16 column is kept packed (ReductionsColumns.cpp), others as f32.
static int64_t columnCachedBytes(Operation *op) {
  Type t = getElementTypeOrSelf(op->getOperand(0).getType());
  return t.isBF16() ? 2 : std::max<int64_t>(elementBytes(t), 4);
}

static int64_t widestOf(Operation *op) {
  return std::max(elementBytes(op->getOperand(0).getType()),
                  elementBytes(op->getResult(0).getType()));
}

ScheduleSpace ReduceOp::getScheduleSpace(const TargetInfo &target) {
  if (reducesColumns(*this))
    // The input's vectors: an i64 or f32 result of a 16-bit input is stored
    // once per column, as wider (split) stores.
    return buildColumnSpace(
        getReductionGeometry(), elementBytes(getInput().getType()), target,
        /*cachedBytes=*/0, llvm::any_of(getKindList(), [](ReduceKind k) {
          return k == ReduceKind::Argmax || k == ReduceKind::Argmin;
        }));
  // A tuple state (several kinds, logsumexp, argmax, argmin) or a prologue
  // needs more registers per thread than a plain sum: at 1024 threads
  // (64 registers each on sm_90) an argmax row spilled, so the default
  // stops at 512.
  SmallVector<ReduceKind> kinds = getKindList();
  bool plain = kinds.size() == 1 && getPrologue().empty() &&
               getStateWidth(kinds.front()) == 1;
  return buildRowSpace(reduceRows(*this), target, /*cached=*/false,
                       plain ? 1024 : 512);
}

LogicalResult ReduceOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  if (!reducesColumns(*this))
    return verifyRowConstraints(reduceRows(*this), schedule, target, emitError);
  if (failed(verifyColumnConstraints(getReductionGeometry(), schedule, target,
                                     emitError)))
    return failure();
  // The thread rows' partial states meet in LDS: one 4-byte word per state
  // value (two for logsumexp, argmax and argmin) per thread and lane.
  RowSchedule sched = RowSchedule::decode(schedule);
  if (sched.rowsPerBlock == 1)
    return success();
  int64_t words = 0;
  for (ReduceKind k : getKindList())
    words += getStateWidth(k);
  int64_t bytes = words * sched.threads * sched.vectorWidth * 4;
  if (bytes > staticLdsBytes(target))
    return emitError() << "the reduction's partial results need " << bytes
                       << " bytes of LDS (" << words << " word(s) per lane, "
                       << sched.threads
                       << " threads x vector_width = " << sched.vectorWidth
                       << "); " << target.chip << " allows "
                       << staticLdsBytes(target)
                       << " per workgroup: lower 'threads' or "
                          "'vector_width', or set 'rows_per_block' = 1";
  return success();
}

CostFeatures ReduceOp::getCostFeatures() {
  return rowCost(*this, reduceRows(*this), 1.0);
}

//===----------------------------------------------------------------------===//
// SoftmaxOp
//===----------------------------------------------------------------------===//

/// A softmax over rows: the axis and the dims of 1 after it.
static RowGeometry softmaxRows(SoftmaxOp op) {
  return getGeometry(op.getInput(), op.getResult(),
                     op.getInput().getType().getRank() - op.getAxis());
}

ScheduleSpace SoftmaxOp::getScheduleSpace(const TargetInfo &target) {
  if (getAxisGeometry()[2] > 1)
    return buildColumnSpace(getAxisGeometry(), widestOf(*this), target,
                            columnCachedBytes(*this));
  ScheduleSpace space = buildRowSpace(softmaxRows(*this), target, true);
  // Fusing the max and sum passes saves a read of the row only when passes
  // re-read global memory; from registers or LDS the two-pass form is
  // cheaper (no rescaling exps).
  const KnobSpec *cache = space.lookup(kRowCache.name);
  bool reread = std::get<std::string>(cache->defaultValue) ==
                stringifyEnum(RowCache::None);
  space.add(kOnline, reread,
            "1: one pass computes the running max and sum together; 0: "
            "separate max and sum passes");
  return space;
}

LogicalResult SoftmaxOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  if (getAxisGeometry()[2] > 1)
    return verifyColumnConstraints(getAxisGeometry(), schedule, target,
                                   emitError, columnCachedBytes(*this));
  return verifyRowConstraints(softmaxRows(*this), schedule, target, emitError);
}

CostFeatures SoftmaxOp::getCostFeatures() {
  return rowCost(*this, softmaxRows(*this), 5.0);
}

//===----------------------------------------------------------------------===//
// LayerNormOp and RMSNormOp
//===----------------------------------------------------------------------===//

/// The norms' `row_steps` knob (emitRowSteps, ReductionsRowEmitter.h): 1 by
/// default until more steps are measured to pay (docs/perf).
static void addRowStepsKnob(ScheduleSpace &space) {
  space.add(kRowSteps, {1, 2, 4, 8}, 1,
            "row groups a workgroup handles one after the other, each "
            "group's row loaded while the previous one is reduced and "
            "stored (row_cache = registers)");
}

static LogicalResult
verifyRowSteps(const RowGeometry &g, const ResolvedSchedule &s,
               function_ref<InFlightDiagnostic()> emitError) {
  RowSchedule sched = RowSchedule::decode(s);
  int64_t steps = sched.rowSteps;
  if (steps == 1)
    return success();
  if (sched.rowCache != RowCache::Registers)
    return emitError() << "schedule knob 'row_steps' = " << steps
                       << " needs row_cache = registers (got '"
                       << stringifyEnum(sched.rowCache) << "')";
  if (g.dynamicRows)
    return emitError() << "schedule knob 'row_steps' = " << steps
                       << " needs a static row count; the input's row dims "
                          "are dynamic";
  int64_t groups = llvm::divideCeil(g.rows, sched.rowsPerBlock);
  if (groups % steps != 0)
    return emitError() << "schedule knob 'row_steps' = " << steps
                       << " does not divide the " << groups
                       << " groups of rows_per_block rows";
  return success();
}

/// A norm over rows: its (trailing) axes and the dims of 1 after them.
template <typename NormOp> static RowGeometry normRows(NormOp op) {
  return getGeometry(op.getInput(), op.getResult(),
                     op.getInput().getType().getRank() -
                         op.getNormAxes().front());
}

/// Whether the norm runs down columns: one axis with kept dims after it.
template <typename NormOp> static bool normsColumns(NormOp op) {
  return op.getNormGeometry()[2] > 1;
}

ScheduleSpace LayerNormOp::getScheduleSpace(const TargetInfo &target) {
  if (normsColumns(*this))
    return buildColumnSpace(getNormGeometry(), widestOf(*this), target,
                            columnCachedBytes(*this));
  ScheduleSpace space = buildRowSpace(normRows(*this), target, true);
  // `merged` where the default re-reads the row (row_cache = none): it
  // saves a pass over memory with the second row reduction; on the H100
  // 64 x 1M bf16 ran in 169.2 us against 190.8 separate, 1 x 4M in 30.2
  // against 31.9, 16 x 4M in 200.4 against 202.4 (docs/perf "Long rows").
  // Cached rows keep `separate` (a pass over registers) until measured.
  const KnobSpec *cache = space.lookup(kRowCache.name);
  bool reread = cache && toString(cache->defaultValue) == "none";
  space.add(kMoments, {RowMoments::Separate, RowMoments::Merged},
            reread ? RowMoments::Merged : RowMoments::Separate,
            "separate: a row reduction of the sum (the mean), then one "
            "of the squared deviations; merged: each thread's count, "
            "mean and squared deviations from its own mean, combined "
            "over the row in one reduction (Chan et al.)");
  addRowStepsKnob(space);
  return space;
}

LogicalResult LayerNormOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  if (normsColumns(*this))
    return verifyColumnConstraints(getNormGeometry(), schedule, target,
                                   emitError, columnCachedBytes(*this));
  RowGeometry g = normRows(*this);
  if (failed(verifyRowConstraints(g, schedule, target, emitError)))
    return failure();
  return verifyRowSteps(g, schedule, emitError);
}

/// [rows, len] of a norm: rows of its normalized dims, or, down columns,
/// the (outer, inner) columns of len.
template <typename NormOp> static RowGeometry normCostGeometry(NormOp op) {
  RowGeometry g = normRows(op);
  auto [outer, len, inner] = op.getNormGeometry();
  g.rows = outer * inner;
  g.rowLength = len;
  return g;
}

CostFeatures LayerNormOp::getCostFeatures() {
  return rowCost(*this, normCostGeometry(*this), 8.0);
}

/// rmsnorm keeps a cached bf16 row packed (ReductionsRowEmitter.cpp).
static RowGeometry rmsNormGeometry(RMSNormOp op) {
  RowGeometry g = normRows(op);
  if (getElementTypeOrSelf(op.getInput().getType()).isBF16())
    g.cachedElemBytes = g.inputElemBytes;
  return g;
}

ScheduleSpace RMSNormOp::getScheduleSpace(const TargetInfo &target) {
  if (normsColumns(*this))
    return buildColumnSpace(getNormGeometry(), widestOf(*this), target,
                            columnCachedBytes(*this));
  ScheduleSpace space = buildRowSpace(rmsNormGeometry(*this), target, true);
  addRowStepsKnob(space);
  return space;
}

LogicalResult RMSNormOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  if (normsColumns(*this))
    return verifyColumnConstraints(getNormGeometry(), schedule, target,
                                   emitError, columnCachedBytes(*this));
  RowGeometry g = rmsNormGeometry(*this);
  if (failed(verifyRowConstraints(g, schedule, target, emitError)))
    return failure();
  return verifyRowSteps(g, schedule, emitError);
}

CostFeatures RMSNormOp::getCostFeatures() {
  return rowCost(*this, normCostGeometry(*this), 4.0);
}
