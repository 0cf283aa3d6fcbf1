//===- CommonKnobs.h - knobs several op families share ----------*- C++ -*-===//
//
// The knobs whose meaning is the same in every family that has them; a
// family's own knobs live in its schedule header next to this one.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_COMMONKNOBS_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_COMMONKNOBS_H

#include "hkg/Dialect/Hkg/IR/ScheduleSpace.h"

namespace mlir::hkg {

/// Elements per global access (16 bytes at most).
inline constexpr IntKnob kVectorWidth{"vector_width"};
/// Threads per workgroup.
inline constexpr IntKnob kThreads{"threads"};
/// Vector accesses each thread keeps in flight per step.
inline constexpr IntKnob kUnroll{"unroll"};
/// Workgroups a CU (SM) must hold at once (0: no hint).
inline constexpr IntKnob kOccupancy{"occupancy"};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_COMMONKNOBS_H
