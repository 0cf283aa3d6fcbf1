//===- PlanRunner.h - run, check and time a bundle's launch plan -*- C++
//-*-===//
//
// Runs one function's launch plan (manifest `plans`, docs/ABI.md): seeded
// random inputs, the arena and the (poisoned) outputs on the device, every
// step launched in order on one stream, the function's outputs checked
// against the composed float64 reference (each step's reference run in plan
// order on host tensors, fed the reference results of the steps before it),
// then the whole plan timed next to the sum of its kernels' standalone
// times. docs/Runtime.md, "Running a plan".
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_PLANRUNNER_H
#define HKG_RUNTIME_PLANRUNNER_H

#include "hkg/Runtime/Bundle.h"
#include "hkg/Runtime/KernelRunner.h"

namespace hkg::rt {

/// Runs `plan` of `bundle` on `device`, every plan size parameter taking
/// the value in `sizeValues` (one per PlanSpec::sizes). The record:
///   {"function", "status": "pass"|"fail", "message",
///    "outputs": [{"value", "status", "message", check fields...}],
///    "timing": {"plan_median_us", "kernels_sum_us", "ratio", "reps",
///               "steps": [{"kernel", "median_us"}]}}
/// ("timing" only when every output passed and reps > 0). A plan that
/// cannot run (a step's source without a model, a step reading a buffer no
/// step has written yet, a failing driver call) is an error.
llvm::Expected<llvm::json::Object> runPlan(const Bundle &bundle,
                                           const PlanSpec &plan, Device &device,
                                           const RunOptions &options,
                                           llvm::ArrayRef<int64_t> sizeValues);

} // namespace hkg::rt

#endif // HKG_RUNTIME_PLANRUNNER_H
