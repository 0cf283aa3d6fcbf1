//===- RowSchedule.h - schedules of the row ops -----------------*- C++ -*-===//
//
// The typed schedule of the row ops (hkg.reduce, hkg.softmax, hkg.layernorm,
// hkg.rmsnorm): their knobs, declared once (RowOpSchedules.cpp builds the
// spaces with them, the lowerings in lib/Conversion/HkgToGPU/Reductions*.cpp
// read the decoded struct).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_ROWSCHEDULE_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_ROWSCHEDULE_H

#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::hkg {

/// Where a row lives between the passes over it.
enum class RowCache { None, Registers, Lds };
/// How layernorm computes the row's mean and variance.
enum class RowMoments { Separate, Merged };

/// The keywords of the schedule-only enums above, as written in
/// `#hkg.schedule<...>` (the form of ODS enums' generated functions, for
/// EnumKnob).
inline llvm::StringRef stringifyEnum(RowCache e) {
  switch (e) {
  case RowCache::None:
    return "none";
  case RowCache::Registers:
    return "registers";
  case RowCache::Lds:
    return "lds";
  }
  llvm_unreachable("unknown RowCache");
}
template <>
inline std::optional<RowCache> symbolizeEnum<RowCache>(llvm::StringRef s) {
  return llvm::StringSwitch<std::optional<RowCache>>(s)
      .Case("none", RowCache::None)
      .Case("registers", RowCache::Registers)
      .Case("lds", RowCache::Lds)
      .Default(std::nullopt);
}
inline llvm::StringRef stringifyEnum(RowMoments e) {
  return e == RowMoments::Merged ? "merged" : "separate";
}
template <>
inline std::optional<RowMoments> symbolizeEnum<RowMoments>(llvm::StringRef s) {
  return llvm::StringSwitch<std::optional<RowMoments>>(s)
      .Case("separate", RowMoments::Separate)
      .Case("merged", RowMoments::Merged)
      .Default(std::nullopt);
}

/// Whether a bf16 row cached in registers stays packed, two elements a
/// word, where softmax and layernorm otherwise hold its f32 conversions
/// (rmsnorm always packs; ReductionsRowEmitter.cpp): in a workgroup of 1024
/// threads on NVIDIA (64 registers each on sm_90) once a thread holds more
/// than 32 elements. 1024 x 65536 bf16 softmax / layernorm, 64 elements a
/// thread, spilled 164 / 192 bytes as f32 words and ran slower than
/// re-reading the row; packed they ran 1.23x / 1.29x faster than re-read
/// (H100, docs/perf "Long rows").
inline bool packsCachedRow(bool nvidia, int64_t threads,
                           int64_t elementsPerThread) {
  return nvidia && threads >= 1024 && elementsPerThread > 32;
}

/// Rows one workgroup handles, each with threads / rows_per_block threads.
inline constexpr IntKnob kRowsPerBlock{"rows_per_block"};
/// Where a row lives between passes (softmax and the norms).
inline constexpr EnumKnob<RowCache> kRowCache{"row_cache"};
/// The row group's outputs staged in LDS and written with one bulk copy
/// (sm_90; softmax and the norms).
inline constexpr BoolKnob kBulkStore{"bulk_store"};
/// Softmax: one pass computes the running max and sum together.
inline constexpr BoolKnob kOnline{"online"};
/// Layernorm: separate or merged (Chan et al.) row moments.
inline constexpr EnumKnob<RowMoments> kMoments{"moments"};
/// The norms: row groups a workgroup handles one after the other.
inline constexpr IntKnob kRowSteps{"row_steps"};
/// Down columns (softmax and the norms over an inner axis): where the
/// workgroup's column strip lives between passes (none: re-read from
/// global memory; registers: each thread keeps its rows, read once).
inline constexpr EnumKnob<RowCache> kColumnCache{"column_cache"};
/// Down columns: workgroups of a cluster (sm_90) sharing the reduced axis,
/// each with its share of the rows, combining their partial results through
/// distributed shared memory.
inline constexpr IntKnob kAxisSplit{"axis_split"};
/// Along rows (softmax and the norms): workgroups sharing each row, each
/// with a contiguous slice of it, combining their partial statistics as
/// row_split_reduce says.
inline constexpr IntKnob kRowSplit{"row_split"};
/// Where a split row's partial statistics meet: `cluster` (distributed
/// shared memory of a thread-block cluster, sm_90, row_split <= 8) or
/// `workspace` (a global workspace of the kernel's module that every
/// workgroup of the row waits on, every target;
/// ReductionsRowSplitWorkspace.cpp).
inline constexpr KeywordKnob kRowSplitReduce{"row_split_reduce"};

/// A row op's schedule. Knobs an op does not have take the value that
/// means their absence (reduce: no cache, no bulk store; one row step).
struct RowSchedule {
  int64_t vectorWidth;
  int64_t threads;
  int64_t rowsPerBlock;
  int64_t unroll;
  RowCache rowCache;
  bool bulkStore;
  bool online;
  RowMoments moments;
  int64_t rowSteps;
  RowCache columnCache;
  int64_t axisSplit;
  int64_t rowSplit;
  /// row_split_reduce = workspace (otherwise cluster).
  bool rowSplitWorkspace;

  /// Consecutive threads per row.
  int64_t threadsPerRow() const { return threads / rowsPerBlock; }

  static RowSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kVectorWidth),
            s.get(kThreads),
            s.get(kRowsPerBlock),
            s.get(kUnroll),
            s.getOr(kRowCache, RowCache::None),
            s.getOr(kBulkStore, false),
            s.getOr(kOnline, false),
            s.getOr(kMoments, RowMoments::Separate),
            s.getOr(kRowSteps, 1),
            s.getOr(kColumnCache, RowCache::None),
            s.getOr(kAxisSplit, 1),
            s.getOr(kRowSplit, 1),
            s.has(kRowSplitReduce.name) &&
                s.get(kRowSplitReduce) == "workspace"};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_ROWSCHEDULE_H
