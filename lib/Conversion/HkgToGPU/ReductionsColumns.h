//===- ReductionsColumns.h - row ops down the columns -----------*- C++ -*-===//
//
// Row ops over an axis that has kept dims after it (a reduce over the middle
// axis of [B, S, H], a softmax over axis 0) see their input as
// [outer, len, inner] and reduce down the columns: output (o, i) reduces
// x[o, r, i] over r. Each workgroup covers one column tile of one outer
// index: `threads / rows_per_block` threads across the tile, each owning
// `vector_width` adjacent columns (vector_width divides inner, so a vector
// never leaves the row: coalesced 16-byte accesses along the contiguous
// inner dim), and `rows_per_block` thread rows down the axis, thread row t
// visiting rows t, t + rows_per_block, ... with `unroll` loads in flight
// (rows past the end clamped and masked). The thread rows' partial vectors
// meet by shuffles within a wave, then in LDS (one row per wave). Everything
// is in f32.
//
// column_cache = registers: each thread loads its rows of the strip once,
// up front (all in flight), and every pass (the statistics, then the
// rewrite) reads them from registers: one global read per element. A bf16
// column stays packed, widened again at each pass. axis_split = S (sm_90):
// a cluster of S workgroups shares each column strip, workgroup `rank`
// owning rows [rank * ceil(len / S), ...); their partial results meet
// through distributed shared memory (each workgroup's in LDS, read by all
// after a cluster barrier), every workgroup combining them in rank order.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSCOLUMNS_H
#define HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSCOLUMNS_H

#include "GPUBuildingBlocks.h"

#include "hkg/Dialect/Hkg/IR/Schedules/RowSchedule.h"

namespace mlir::hkg::colop {

class ColumnEmitter {
public:
  /// Sets the launch dims and the thread's column; `input` and `output`
  /// are the kernel's memrefs, viewed as [outer, len, inner] (the output as
  /// [outer, outLen, inner]).
  ColumnEmitter(KernelContext &kc, const RowSchedule &sched, Value input,
                Value output, int64_t outer, int64_t len, int64_t inner,
                int64_t outLen);

  /// The thread's partial: `combine` folded over map(x) of its rows, x the
  /// column vector as f32 (`identity` where the thread has no column).
  Value fold(double identity, const Combiner &combine,
             function_ref<Value(Value)> map);

  /// The thread rows' partials combined; every thread gets the total.
  Value combineRows(Value partial, const Combiner &combine);

  /// fold and combineRows for a tuple state (vectors of vw f32 or i32
  /// lanes): `element(raw, r)` is the state of the thread's column vector
  /// `raw` (in the input's element type) at row r of the axis.
  SmallVector<Value>
  foldState(ValueRange identity, const Combiner &combine,
            function_ref<SmallVector<Value>(Value, Value)> element);
  SmallVector<Value> combineRowsState(ValueRange partial,
                                      const Combiner &combine);

  /// For each of the thread's rows: stores `emit(x)` (x the column vector
  /// as f32) into the output at that row, in the output's element type.
  void mapRows(function_ref<Value(Value)> emit);
  /// As mapRows, `emit(x, row)` also given the row's index along the axis
  /// (a norm's weight scales each row).
  void mapRows(function_ref<Value(Value, Value)> emit);

  /// Stores `v` at output row 0 (a reduction's result), from thread row 0:
  /// f32 converted to the output's element type, any other type as it is.
  void storeTotal(Value v);

  KernelContext &kc;
  OpBuilder &b;
  Location loc;
  int64_t outer, len, inner, vw, down, across, unroll, split, chunk;
  bool cached;
  Value in, out, o, tx, ty, col, valid;
  /// The workgroup's share of the axis: rows [rowBegin, rowEnd); its rank
  /// in the cluster (null without axis_split).
  Value rowBegin, rowEnd, rank;
  Type inT, outT;
  VectorType f32Vec;

  /// `v` in every lane of an f32 column vector.
  Value splat(double v);

private:
  Value c(int64_t v) { return constIndex(b, loc, v); }
  /// Row k of the thread's rows in the cache, its index along the axis, and
  /// whether it lies in the workgroup's share (null: always).
  struct CachedRow {
    Value raw, row, inRange;
  };
  SmallVector<CachedRow> cache;
  /// Passes over the cache so far (each widens a bf16 row its own way).
  int64_t passes = 0;
  void loadCache();
  /// A cached raw vector as f32, in this pass's form.
  Value cachedF32(Value raw);
  /// The thread rows' partial states combined within the workgroup.
  SmallVector<Value> combineWorkgroup(ValueRange partial,
                                      const Combiner &combine);
  /// The cluster's workgroup totals combined (axis_split > 1).
  SmallVector<Value> combineCluster(ValueRange total, const Combiner &combine);
};

/// Column kernels take static shapes: an error on `op` when its kernel has
/// dynamic sizes.
LogicalResult checkStaticColumns(Operation *op, const KernelContext &kc);

} // namespace mlir::hkg::colop

#endif // HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSCOLUMNS_H
