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

namespace mlir::hkg {

/// hkg.topk: one workgroup of `threads` threads selects one slice's k
/// largest elements by radix select; each thread reads `vector_width`
/// elements per access and keeps `unroll` accesses in flight per step.
struct TopKSchedule {
  int64_t vectorWidth;
  int64_t threads;
  int64_t unroll;

  static TopKSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kVectorWidth), s.get(kThreads), s.get(kUnroll)};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_TOPKSCHEDULE_H
