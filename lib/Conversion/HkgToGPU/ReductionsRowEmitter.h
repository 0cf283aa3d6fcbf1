//===- ReductionsRowEmitter.h - a pass over a row group ---------*- C++ -*-===//
//
// The building block of the row ops (Reductions.cpp, ReductionsNorms.cpp):
// RowEmitter walks the rows of a workgroup's row group as the schedule lays
// them out. Each row op views its input as [rows, len] (len = the reduced
// trailing dims). A workgroup of `threads` threads handles `rows_per_block`
// rows with tpr = threads / rows_per_block consecutive threads per row. The
// row is cut into len / vector_width vectors; thread `lane` of a row owns
// vectors lane, lane + tpr, lane + 2 tpr, ... (coalesced, 16-byte
// accesses), and the len % vector_width tail elements one at a time.
// Vectors are aligned when vector_width divides len; otherwise they use
// element alignment.
//
// A pass over the row visits the thread's vectors:
//  - row_cache = registers: fully unrolled; the first pass loads each vector
//    once and later passes reuse the values;
//  - row_cache = none: an scf.for over groups of `unroll` vectors (all loads
//    of a group issued first), every pass re-reading global memory;
//  - row_cache = lds: like none, but the first pass also parks the row in an
//    LDS buffer [rows_per_block, len] that later passes read (each thread
//    reads back what it wrote, so no barrier is needed).
// With `bulk_store = 1` (sm_90) the output pass writes the group's rows
// into an LDS buffer [rows_per_block, len] instead of global memory; after
// a proxy fence and a barrier, thread 0 copies the group's rows (contiguous
// in the output) with one cp.async.bulk and waits until the copy has read
// the buffer, so that the workgroup may exit or reuse it
// (ReductionsBulkStore.cpp).
// Partial results are kept in `unroll` independent accumulators, folded,
// then reduced over the row's threads (gpu.shuffle butterfly; across waves
// through a small LDS array, only when a row spans several waves).
// With `row_split` = S > 1 (sm_90) a cluster of S consecutive workgroups
// shares each row group: workgroup `rank` (= block id % S) owns the
// contiguous slice of vectors [rank * ceil(numVec / S), ...) of every row of
// the group, and its threads walk the slice as they would a row. Each row
// reduction then also combines the workgroups' partials through distributed
// shared memory between two cluster barriers (clusterCombine, as the column
// ops' axis_split does), so every workgroup normalizes and writes its own
// slice with the row's statistics; with row_cache = registers each slice is
// read once. (Whole vectors only, no LDS cache, no bulk store, one row step:
// the schedule verifier.) With `row_split_reduce = workspace` (every target,
// S up to 64) the S workgroups of a row take their rows by ticket instead
// of block id and combine through a global workspace of the kernel's
// module, each waiting until the row's S partials are in
// (ReductionsRowSplitWorkspace.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSROWEMITTER_H
#define HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSROWEMITTER_H

#include "GPUBuildingBlocks.h"

#include "hkg/Dialect/Hkg/IR/Schedules/RowSchedule.h"

namespace mlir::hkg::rowop {

/// Elements of a row one thread visits at once: a vector, or one tail
/// element.
struct Slot {
  Value col;     // column of the first element (index)
  int64_t width; // elements
  Value valid;   // i1, or null when always valid
  Value raw;     // vector<width x input type>
  int pass;      // the pass visiting the slot
};

using SlotFn = function_ref<SmallVector<Value>(const Slot &, ValueRange)>;

/// The rows of a row op: a static count, or (a kernel with sizes) the
/// product of its dynamic row dims times `staticFactor`, the static ones.
struct RowCount {
  OpFoldResult value;
  int64_t staticFactor = 1;

  /// The rows of kernel argument `arg`: the product of its dims before
  /// `firstReduced`.
  static RowCount of(KernelContext &kc, unsigned arg, int64_t firstReduced);
  /// The static count (precondition: isStatic()).
  int64_t getStatic() const;
  bool isStatic() const { return isa<Attribute>(value); }
};

/// Emits the passes of one row op over the rows of one row group.
class RowEmitter {
public:
  /// `cacheable`: the op has the `row_cache` and `bulk_store` knobs.
  /// `rowGroup`, when given, is the workgroup's group of `rows_per_block`
  /// rows (default: the block id); `preloaded`, with `row_cache =
  /// registers`, the row's raw vectors and tail elements already loaded
  /// (loadRow of an emitter of the same group), which pass 0 takes instead
  /// of loading.
  /// With a dynamic row count the kernel guards every row against it and
  /// launches ceil(rows / rows_per_block) workgroups (KernelContext::setGridX).
  RowEmitter(KernelContext &kc, const RowSchedule &sched, Operation *op,
             Value input, Value output, RowCount rows, int64_t len,
             bool cacheable, Value rowGroup = Value(),
             ValueRange preloaded = {});

  /// Issues the loads of pass 0 of the row (`row_cache = registers`): the
  /// thread's vectors, then its tail elements, as `preloaded` takes them.
  SmallVector<Value> loadRow();

  /// The slot's elements as f32. A bf16 row cached in registers is kept as
  /// bf16 between passes (half the registers of f32 values; with the
  /// grouped column loads, sm_90's default rmsnorm needs 40 registers
  /// instead of 48, so more rows are in flight per SM) and converted again
  /// by each later pass.
  Value f32(const Slot &slot);

  /// A column vector (`loadColumn`) as f32, converted where it is used; bf16
  /// stays packed in its loaded words until then.
  Value columnF32(Value raw);

  /// The last pass of a norm: `emit(slot, columns)` stores the slot's
  /// outputs, `columns` = `loadColumns(slot)` (weight / bias vectors). With
  /// the row in registers every column load of the thread is issued before
  /// the first store of its group (loads may not move across stores that
  /// could alias, so one load per store would put a cache round trip before
  /// each store); otherwise each group's column loads come with its slot.
  void lastPass(int passIdx, size_t numColumns,
                function_ref<SmallVector<Value>(const Slot &)> loadColumns,
                function_ref<void(const Slot &, ArrayRef<Value>)> emit);

  /// Visits the thread's slots of the row in pass `pass`, threading
  /// accumulators through `fn`; `unroll` independent accumulator sets are
  /// folded with `combine` at the end. Returns the folded accumulators.
  SmallVector<Value> pass(int pass, ValueRange init, SlotFn fn,
                          const Combiner *combine);

  /// Reduces per-thread values over the row's threads; with row_split,
  /// over the cluster's workgroups sharing the row too (clusterCombine:
  /// every workgroup of the cluster gets the row's result).
  SmallVector<Value> reduceRow(ValueRange values, const Combiner &combine);

  /// row_split_reduce = workspace (ReductionsRowSplitWorkspace.cpp): the
  /// workgroup's ticket, 0 .. grid - 1 in the order workgroups start; and
  /// the combine of one reduction of the row's S workgroups through the
  /// workspace, every workgroup of the row getting the result.
  Value takeTicket();
  SmallVector<Value> workspaceCombine(ValueRange values,
                                      const Combiner &combine);

  /// Replaces the invalid lanes of `v` (f32) by `identity`.
  Value mask(const Slot &slot, Value v, double identity);

  /// Loads `width` elements of a [len] operand (weight, bias) at the slot,
  /// in the operand's element type.
  Value loadColumn(Value m, const Slot &slot);

  /// Stores the f32 values `y` of the slot into the [rows, len] output.
  void storeRow(Value outView, const Slot &slot, Value y);

  /// `bulk_store = 1`: after the output pass, copies the group's staged
  /// rows to the output (`outArg`, the kernel's output memref) with one
  /// bulk copy from thread 0, which then waits until the copy has read the
  /// LDS buffer. `reuse`: the buffer is written again later (row_steps), so
  /// a barrier keeps the other threads from writing it before that.
  void flushBulkStore(Value outArg, bool reuse);

  /// Stores the scalar `y` of the row into the [rows] output, from lane 0
  /// (f32 is converted to the output's element type; any other type must
  /// be it).
  void storeRowScalar(Value outView, Value y);

  /// `x` and `y`, either of which may be null (always true).
  Value andGuards(Value x, Value y);

  KernelContext &kc;
  OpBuilder &b;
  Location loc;
  RowCount rowCount;
  /// The static row count; 0 when it is dynamic (rowCount's value).
  int64_t rows;
  int64_t len, vw, threads, rpb, unroll, tpr;
  int64_t numVec, tail, vecsPerThread, tailSlots, inAlign;
  /// row_split: workgroups sharing a row, vectors of each one's slice, and
  /// whether the last slice is short.
  int64_t split, sliceVecs;
  bool sliceShort;
  /// row_split_reduce = workspace, and the row reductions combined through
  /// it so far (each has its own partials and counters).
  bool splitWorkspace = false;
  int workspaceRounds = 0;
  RowCache cache;
  bool rematBF16 = false;
  bool bulkStore = false;
  StreamingAccess streaming = StreamingAccess::None;
  /// The pass that stores the output (set when it is emitted): with
  /// `row_cache = none` its loads are the row's last read.
  int outputPass = -1;
  SmallVector<int> rematPasses; // later passes, in their order of emission
  Type inType;
  Value input, output, tid, rowInBlock, lane, row, rowClamped, groupFirstRow;
  Value rowValid, ldsRow, ldsOut;
  /// row_split > 1: the workgroup's rank in its cluster and its slice's
  /// first vector (null otherwise).
  Value rank, vecBase;

private:
  /// The slot of the thread's `s`-th vector (`staticIdx` >= 0 when `s` is
  /// a constant, for the register cache).
  Slot vectorSlot(Value s, bool guard, int pass, int64_t staticIdx);
  Slot tailSlot(int64_t j, int pass);
  /// The slot of the thread's `s`-th vector, without its values.
  Slot vectorSlotAt(Value s, bool guard, int pass);
  /// The slot of the thread's `j`-th tail element, without its value.
  Slot tailSlotAt(int64_t j, int pass);
  /// For the register cache: `slotIdx` is the slot's index in the thread's
  /// row (vectors, then tail elements: `preloaded`), `regIdx` its index in
  /// `regs`.
  Value loadRaw(const Slot &slot, int pass, int64_t slotIdx, int64_t regIdx,
                SmallVector<Value> &regs);
  /// The slot's values from the row in global memory.
  Value globalLoad(const Slot &slot, int pass);

  SmallVector<Value> cachedVectors, cachedTail, preloaded;
};

/// `row_steps` = k > 1 (layernorm, rmsnorm; `row_cache = registers`): each
/// workgroup handles k groups of `rows_per_block` rows one after the other,
/// loading the next group's row while it computes and stores the current
/// one (the raw values carried by an scf.for), so that its loads stay in
/// flight across the row's reductions and stores. `body` emits one group's
/// row op with the emitter it is given.
void emitRowSteps(KernelContext &kc, const RowSchedule &sched, Operation *op,
                  Value input, Value output, RowCount rows, int64_t len,
                  function_ref<void(RowEmitter &)> body);

} // namespace mlir::hkg::rowop

#endif // HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSROWEMITTER_H
