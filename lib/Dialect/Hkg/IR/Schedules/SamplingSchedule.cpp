//===- SamplingSchedule.cpp - schedule of top-p sampling ------------------===//
//
// One workgroup samples one row: a pass for the row's max and normalizer,
// `search_iters` threshold-search passes for the nucleus cut, and a final
// pass that draws the token. Each thread moves `vector_width` logits per
// access.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

ScheduleSpace TopPSampleOp::getScheduleSpace(const TargetInfo &target) {
  int64_t bytes = elementBytes(getLogits().getType());
  int64_t v = getLogits().getType().getDimSize(1);
  ScheduleSpace space;
  space.addInt("vector_width", vectorWidths(bytes), widestVector(bytes),
               "logits per global access (16 bytes at most)");
  space.addInt("threads", threadCounts(target),
               clampPow2(v / widestVector(bytes), target.waveSize,
                         target.maxThreadsPerWorkgroup),
               "threads per workgroup; one workgroup per row");
  space.addInt("search_iters", {8, 12, 16, 24, 32}, 16,
               "threshold-search passes over the row before the exact cut");
  return space;
}

LogicalResult TopPSampleOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  return success();
}

CostFeatures TopPSampleOp::getCostFeatures() {
  CostFeatures c;
  auto t = getLogits().getType();
  c.bytes = tensorBytes(getLogits()) + tensorBytes(getResult());
  if (getUniform())
    c.bytes += tensorBytes(getUniform());
  c.flops = 4.0 * t.getNumElements();
  c.shape = llvm::to_vector(t.getShape());
  c.elementType = t.getElementType();
  return c;
}
