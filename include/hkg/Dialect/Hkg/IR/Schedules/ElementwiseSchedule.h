//===- ElementwiseSchedule.h - schedules of the streaming ops ---*- C++ -*-===//
//
// The typed schedules of hkg.elementwise and hkg.rope: their knobs, declared
// once (ElementwiseSchedules.cpp builds the spaces with them, the lowerings
// read the decoded structs).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_ELEMENTWISESCHEDULE_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_ELEMENTWISESCHEDULE_H

#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"

namespace mlir::hkg {

/// hkg.elementwise: a flat stream of `threads * vector_width * unroll`
/// elements per workgroup.
struct ElementwiseSchedule {
  int64_t vectorWidth;
  int64_t threads;
  int64_t unroll;

  static ElementwiseSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kVectorWidth), s.get(kThreads), s.get(kUnroll)};
  }
};

/// Tokens one workgroup of hkg.rope rotates.
inline constexpr IntKnob kTokensPerBlock{"tokens_per_block"};

/// hkg.rope: `tokens_per_block` tokens a workgroup, `vector_width` elements
/// an access.
struct RopeSchedule {
  int64_t vectorWidth;
  int64_t threads;
  int64_t tokensPerBlock;

  static RopeSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kVectorWidth), s.get(kThreads), s.get(kTokensPerBlock)};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_ELEMENTWISESCHEDULE_H
