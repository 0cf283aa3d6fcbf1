//===- TopKSchedule.cpp - the schedule space of hkg.topk ------------------===//
//
// One workgroup per slice streams the slice a few times (a radix select of
// the k-th largest key, then a gather of the k largest): the knobs are the
// streaming ones; a short slice goes to one wave instead (per_slice). Vectors run along the axis, so only a contiguous axis (the
// last non-unit dim) takes vector_width > 1.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/Schedules/TopKSchedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// Elements after `axis` in each slice's stride (1: the axis is contiguous).
static int64_t innerSize(TopKOp op) {
  ArrayRef<int64_t> shape = op.getInput().getType().getShape();
  int64_t n = 1;
  for (int64_t d : shape.drop_front(op.getAxis() + 1))
    n *= d;
  return n;
}

ScheduleSpace TopKOp::getScheduleSpace(const TargetInfo &target) {
  auto t = getInput().getType();
  int64_t bytes = elementBytes(t);
  int64_t length = t.getDimSize(getAxis());
  SmallVector<int64_t> widths = {1};
  if (innerSize(*this) == 1)
    for (int64_t w = 2; w * bytes <= 16 && length % w == 0; w *= 2)
      widths.push_back(w);
  // Radix passes of up to 11 bits: every thread owns at least one of the
  // 1024 bins of the last pass.
  SmallVector<int64_t> threads;
  for (int64_t n : threadCounts(target))
    if (n >= 128 && n <= 1024)
      threads.push_back(n);
  ScheduleSpace space;
  space.add(kVectorWidth, widths, widths.back(),
            "elements per global access along the axis (16 bytes at most)");
  // A wave per slice when the slice fits a wave's registers and k is small;
  // then 256 threads (several slices a workgroup). Otherwise a workgroup per
  // slice with as many threads as it has vectors, within [128, 1024].
  int64_t k = getK();
  bool waveFits = length <= kTopKWaveMaxPerLane * target.waveSize &&
                  k <= kTopKWaveMaxK;
  SmallVector<TopKSliceMapping> mappings = {TopKSliceMapping::Workgroup};
  if (waveFits)
    mappings.push_back(TopKSliceMapping::Wave);
  int64_t defaultThreads =
      waveFits ? 256
               : clampPow2(length / widths.back(), threads.front(),
                           threads.back());
  space.add(kThreads, threads, defaultThreads,
            "threads per workgroup (one workgroup per slice)");
  space.add(kUnroll, {1, 2, 4, 8}, 4,
            "vector accesses per thread in flight per step");
  // Sample as sparsely as keeps the expected pool (about k elements per
  // sampled share of the slice) within an eighth of the pool, and no sparser
  // than one step of those the slice has: a large pool costs more to select
  // from than the pass it saves (docs/perf: topk).
  int64_t pool = getTopKPoolCapacity(target, defaultThreads, k);
  int64_t steps = length / (widths.back() * defaultThreads * 4);
  int64_t every = 1;
  while (every < 8 && every < steps && 8 * k * (2 * every) <= pool)
    every *= 2;
  space.add(kSampleEvery, {1, 2, 4, 8}, every,
            "the lower bound's sample: every n-th step of the slice");
  space.add(kPerSlice, ArrayRef<TopKSliceMapping>(mappings), mappings.back(),
            "what selects one slice: a workgroup, or a wave (short slices, "
            "k <= 32)");
  return space;
}

// The legal values of the space encode every constraint (vectors only along a
// contiguous axis whose size they divide).
LogicalResult TopKOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  return success();
}

CostFeatures TopKOp::getCostFeatures() {
  CostFeatures c;
  auto t = getInput().getType();
  c.bytes = tensorBytes(*this, getInput()) + tensorBytes(*this, getValues()) +
            tensorBytes(*this, getIndices());
  // A key conversion and a compare per element per pass.
  c.flops = 2.0 * t.getNumElements();
  int64_t length = t.getDimSize(getAxis());
  c.shape = {t.getNumElements() / length, length,
             static_cast<int64_t>(getK())};
  c.elementType = t.getElementType();
  return c;
}
