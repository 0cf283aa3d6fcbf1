//===- TopKSchedule.h - the schedule of hkg.topk ----------------*- C++ -*-===//
//
// The typed schedule of hkg.topk: its knobs, declared once
// (Schedules/TopKSchedule.cpp builds the space with them, the lowering reads
// the decoded struct).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_TOPKSCHEDULE_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_TOPKSCHEDULE_H

#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"

#include <algorithm>

namespace mlir::hkg {

/// The lower bound of hkg.topk comes from every `sample_every`-th step of
/// the slice (a step: `threads * unroll` accesses); 1: the whole slice.
inline constexpr IntKnob kSampleEvery{"sample_every"};

/// What selects one slice: a workgroup (radix select, any slice), or a wave
/// (k rounds of a wave-wide argmax over the slice in registers: short
/// slices, small k, such as mixture-of-experts gating).
enum class TopKSliceMapping { Workgroup, Wave };
inline llvm::StringRef stringifyEnum(TopKSliceMapping e) {
  return e == TopKSliceMapping::Wave ? "wave" : "workgroup";
}
template <>
inline std::optional<TopKSliceMapping>
symbolizeEnum<TopKSliceMapping>(llvm::StringRef s) {
  return llvm::StringSwitch<std::optional<TopKSliceMapping>>(s)
      .Case("workgroup", TopKSliceMapping::Workgroup)
      .Case("wave", TopKSliceMapping::Wave)
      .Default(std::nullopt);
}
inline constexpr EnumKnob<TopKSliceMapping> kPerSlice{"per_slice"};

/// The wave mapping's limits: at most this many elements per lane and k.
inline constexpr int64_t kTopKWaveMaxPerLane = 32;
inline constexpr int64_t kTopKWaveMaxK = 32;

/// hkg.topk: one workgroup of `threads` threads selects one slice's k
/// largest elements by radix select (or, `per_slice = wave`, each of its
/// waves one slice); each thread reads `vector_width` elements per access
/// and keeps `unroll` accesses in flight per step.
struct TopKSchedule {
  int64_t vectorWidth;
  int64_t threads;
  int64_t unroll;
  int64_t sampleEvery;
  TopKSliceMapping perSlice;

  static TopKSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kVectorWidth), s.get(kThreads), s.get(kUnroll),
            s.get(kSampleEvery), s.get(kPerSlice)};
  }
};

/// Elements the LDS pool of hkg.topk's candidates holds on `target` (a
/// power of two, at most 16384), in what the workgroup's LDS has left after
/// its other buffers; 0 when that is less than k. The lowering and the
/// schedule's default agree through this.
inline int64_t getTopKPoolCapacity(const TargetInfo &target, int64_t threads,
                                   int64_t k) {
  int64_t paddedK = static_cast<int64_t>(llvm::bit_ceil(uint64_t(k)));
  // Histogram, candidates, the threads' two maxima, the workgroup scans'
  // wave totals (nine scans), state and counters, alignment slack.
  int64_t other = 2048 * 4 + 8 * paddedK + 8 * threads +
                  9 * 4 * (threads / target.waveSize) + 24 + 32 * 16;
  int64_t left = static_cast<int64_t>(target.ldsBytesPerWorkgroup) - other;
  if (left < 8 * k)
    return 0;
  return std::min<int64_t>(
      16384, static_cast<int64_t>(llvm::bit_floor(uint64_t(left / 8))));
}

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_TOPKSCHEDULE_H
