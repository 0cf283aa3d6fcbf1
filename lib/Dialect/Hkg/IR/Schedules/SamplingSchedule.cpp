//===- SamplingSchedule.cpp - schedule of top-p sampling ------------------===//
//
// One workgroup samples one row: a pass for the row's max, a mass histogram
// over `bins` bins (LDS atomics) that finds the bin holding the nucleus cut,
// a pass that gathers that bin's tokens into LDS (or, when they are too
// many, key-histogram passes of log2(bins) bits each), and the draw. Each
// thread moves `vector_width` logits per access. `ctas_per_row` = 2 or 4:
// a cluster of that many workgroups per row, each with its share of it
// (docs/Lowering.md); on sm_90 the default is 4 for rows up to 3/16 of the
// SMs, 2 up to half of them. Opt-in: `light_tokens` (tokens too light for
// any nucleus skip the histogram), `bin_cache` (the gather pass reads the
// histogram pass's bins from LDS).
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/Schedules/SamplingSchedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/Utils/SamplingLayout.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

ScheduleSpace TopPSampleOp::getScheduleSpace(const TargetInfo &target) {
  int64_t bytes = elementBytes(getLogits().getType());
  int64_t v = getLogits().getType().getDimSize(1);
  // The widest vector that divides the row keeps every row's vectors
  // aligned.
  int64_t vw = widestVector(bytes);
  while (vw > 1 && v % vw != 0)
    vw /= 2;
  ScheduleSpace space;
  space.add(kVectorWidth, vectorWidths(bytes), vw,
            "logits per global access (16 bytes at most)");

  // 2 by default: as fast as 4 and 8 on long rows (docs/perf), and it keeps
  // the kernel smaller (compile time).
  space.add(kUnroll, {1, 2, 4, 8}, 2,
            "vectors a thread loads before using them, per pass");
  space.add(kBins, {256, 512, 1024, 2048}, 2048,
            "histogram bins of the cut search (LDS, 8 bytes each; at "
            "least 2 per thread): wider bins keep more tokens in the "
            "cut's bin");
  // Off: measured slower, with one workgroup per row and with two
  // (docs/perf).
  space.add(kLightTokens, false,
            "1: tokens too light to be in any nucleus (q <= ((1 - p) "
            "2^S - 1) / V - 1) skip the histogram's LDS atomics and are "
            "summed in registers");
  // 2 where the target has clusters, the row splits in two halves of whole
  // vectors, and two workgroups per row still fit the GPU in one wave: twice
  // the SMs busy for few rows, but more waves of clusters than of single
  // workgroups once the rows fill the GPU (docs/perf).
  // 4 (at 512 threads) where the row splits in four and four workgroups
  // per row take at most 3/4 of the SMs: faster than 2 up to that point,
  // slower beyond it, where more four-workgroup clusters are launched than
  // fit at once (clusters are placed within a GPC; docs/perf).
  int64_t rows = getLogits().getType().getDimSize(0);
  SmallVector<int64_t> ctas = {1};
  if (target.hasClusters())
    ctas.append({2, 4});
  bool fixed = !ShapedType::isDynamic(v) && !ShapedType::isDynamic(rows);
  auto splitFits = [&](int64_t n) {
    return target.hasClusters() && fixed && v % (n * vw) == 0;
  };
  int64_t ctasDefault = 1;
  if (splitFits(4) && 4 * 4 * rows <= 3 * target.computeUnits)
    ctasDefault = 4;
  else if (splitFits(2) && 2 * rows <= target.computeUnits)
    ctasDefault = 2;
  int64_t threadsDefault = clampPow2(
      v / vw, target.waveSize,
      ctasDefault == 4 ? std::min<int64_t>(512, target.maxThreadsPerWorkgroup)
                       : target.maxThreadsPerWorkgroup);
  space.add(kThreads, threadCounts(target), threadsDefault,
            "threads per workgroup (of each workgroup of a row's cluster)");
  space.add(kCtasPerRow, ctas, ctasDefault,
            "workgroups per row: 2 or 4 = a cluster of that many "
            "(sm_90), each with its share of the row, exchanging through "
            "distributed shared memory");
  // Off by default until measured to pay: pass 3, which recomputes every
  // token's mass and bin to find the few in or above the cut's bin, takes
  // a large share of the default's time on long rows (docs/perf).
  space.add(kBinCache, false,
            "1: the histogram pass keeps each token's bin in LDS (2 "
            "bytes per token of the workgroup's share), and the gather "
            "pass reloads only vectors with a token in or above the "
            "cut's bin");
  // No hint by default: with ctas_per_row = 4 at 512 threads, 2 workgroups
  // per SM must fit 64 registers, which spills; that ran slower than the
  // default (docs/perf).
  addOccupancyKnob(space, target);
  return space;
}

LogicalResult TopPSampleOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  TopPSchedule sched = TopPSchedule::decode(schedule);
  int64_t bins = sched.bins, threads = sched.threads;
  if (bins < 2 * threads)
    return emitError() << "schedule knob 'bins' = " << bins
                       << " is not legal with threads = " << threads
                       << "; expected bins >= 2 * threads";
  if (failed(verifyOccupancy(schedule, threads, target, emitError)))
    return failure();
  int64_t split = sched.ctasPerRow;
  int64_t vw = sched.vectorWidth;
  int64_t v = getLogits().getType().getDimSize(1);
  if (split > 1 && v % (split * vw) != 0)
    return emitError() << "schedule knob 'ctas_per_row' = " << split
                       << " needs the vocabulary (" << v
                       << ") to be a multiple of ctas_per_row * vector_width = "
                       << split * vw;
  if (sched.binCache) {
    if (v % (split * vw) != 0)
      return emitError() << "schedule knob 'bin_cache' = 1 needs the "
                            "vocabulary ("
                         << v << ") to be a multiple of ctas_per_row * "
                         << "vector_width = " << split * vw;
    int64_t bytes = sampling::binCacheLdsBytes(v, split, vw, threads, bins);
    if (bytes > target.ldsBytesPerWorkgroup)
      return emitError() << "schedule knob 'bin_cache' = 1 needs " << bytes
                         << " bytes of LDS (the bins of " << v / split
                         << " tokens, the histogram and the cut's list); "
                         << target.chip << " allows "
                         << target.ldsBytesPerWorkgroup << " per workgroup";
  }
  return success();
}

CostFeatures TopPSampleOp::getCostFeatures() {
  CostFeatures c;
  auto t = getLogits().getType();
  c.bytes = tensorBytes(*this, getLogits()) + tensorBytes(*this, getResult());
  if (getUniform())
    c.bytes += tensorBytes(*this, getUniform());
  c.flops = 4.0 * t.getNumElements();
  c.shape = llvm::to_vector(t.getShape());
  c.elementType = t.getElementType();
  return c;
}
