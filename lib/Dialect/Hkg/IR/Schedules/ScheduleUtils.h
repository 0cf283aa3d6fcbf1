//===- ScheduleUtils.h - helpers shared by the ops' schedule spaces -------===//
//
// Knob value lists that depend on the target or element type, written once
// for every op family.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_DIALECT_HKG_IR_SCHEDULES_SCHEDULEUTILS_H
#define HKG_LIB_DIALECT_HKG_IR_SCHEDULES_SCHEDULEUTILS_H

#include "hkg/Dialect/Hkg/IR/DynamicDims.h"
#include "hkg/Dialect/Hkg/IR/ScheduleSpace.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/bit.h"
#include "mlir/IR/Value.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::hkg::detail {

/// Bytes per element of a tensor value.
inline int64_t elementBytes(Type t) {
  return llvm::divideCeil(getElementTypeOrSelf(t).getIntOrFloatBitWidth(), 8);
}

/// Bytes of a whole tensor value of `op` (dynamic dims at the op's size
/// hint).
inline double tensorBytes(Operation *op, Value v) {
  return static_cast<double>(getHintedNumElements(op, v.getType())) *
         elementBytes(v.getType());
}

/// Workgroup sizes: powers of two from one wave to the target's limit.
inline llvm::SmallVector<int64_t> threadCounts(const TargetInfo &target) {
  llvm::SmallVector<int64_t> v;
  for (int64_t t = target.waveSize; t <= target.maxThreadsPerWorkgroup; t *= 2)
    v.push_back(t);
  return v;
}

/// Vector widths (elements) whose accesses are at most 16 bytes.
inline llvm::SmallVector<int64_t> vectorWidths(int64_t elemBytes) {
  llvm::SmallVector<int64_t> v;
  for (int64_t w = 1; w * elemBytes <= 16; w *= 2)
    v.push_back(w);
  return v;
}

/// The widest legal vector: 16 bytes.
inline int64_t widestVector(int64_t elemBytes) { return 16 / elemBytes; }

/// Clamps `v` to [lo, hi] and rounds it down to a power of two.
inline int64_t clampPow2(int64_t v, int64_t lo, int64_t hi) {
  v = std::max(lo, std::min(hi, v));
  return static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(v)));
}

/// LDS (shared memory) one workgroup may declare statically (docs/ABI.md):
/// on NVIDIA that is capped at 48 KiB.
inline int64_t staticLdsBytes(const TargetInfo &target) {
  int64_t lds = target.ldsBytesPerWorkgroup;
  return target.isNVIDIA() ? std::min(lds, kNvidiaStaticSharedMemoryBytes)
                           : lds;
}

/// Whether kernels on `target` can ask the code generator for a minimum
/// occupancy (the `occupancy` knob): NVIDIA through `.minnctapersm`
/// (nvvm.minctasm) and CDNA through `amdgpu-waves-per-eu`
/// (rocdl.waves_per_eu: the waves of `occupancy` workgroups over a CU's 4
/// SIMDs); both cap the registers a thread may use (LowerToGPU.cpp).
inline bool hasOccupancyHint(const TargetInfo &target) {
  return target.isNVIDIA() || target.family.starts_with("cdna");
}

/// Adds the `occupancy` knob: 0 (no hint, the default) or the workgroups a
/// CU (SM) must be able to hold at once.
inline void addOccupancyKnob(ScheduleSpace &space, const TargetInfo &target) {
  llvm::SmallVector<int64_t> values = {0};
  if (hasOccupancyHint(target))
    values.append({2, 3, 4, 5, 6, 8});
  space.addInt("occupancy", values, 0,
               "workgroups a CU (SM) must hold at once: the code generator "
               "caps registers per thread to fit them, spilling if it must "
               "(0: no hint)",
               /*sizesWork=*/false);
}

/// Checks `occupancy` against the waves a CU (SM) holds, for workgroups of
/// `threads` threads.
inline LogicalResult
verifyOccupancy(const ResolvedSchedule &s, int64_t threads,
                const TargetInfo &target,
                llvm::function_ref<InFlightDiagnostic()> emitError) {
  int64_t occupancy = s.has("occupancy") ? s.getInt("occupancy") : 0;
  if (occupancy == 0)
    return success();
  int64_t waves = llvm::divideCeil(threads, target.waveSize);
  if (occupancy * waves > target.maxWavesPerCU)
    return emitError() << "schedule knob 'occupancy' = " << occupancy
                       << " asks for " << occupancy << " x " << waves
                       << " waves per compute unit; " << target.chip
                       << " holds at most " << target.maxWavesPerCU;
  return success();
}

} // namespace mlir::hkg::detail

#endif // HKG_LIB_DIALECT_HKG_IR_SCHEDULES_SCHEDULEUTILS_H
