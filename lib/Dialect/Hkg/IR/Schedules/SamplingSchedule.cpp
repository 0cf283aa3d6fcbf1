//===- SamplingSchedule.cpp - schedule of top-p sampling ------------------===//
//
// One workgroup samples one row: a pass for the row's max and normalizer,
// threshold-search passes for the nucleus cut (each evaluating
// `thresholds_per_pass` thresholds, until the cut is exact), and a final
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
  // The widest vector that divides the row keeps every row's vectors
  // aligned.
  int64_t vw = widestVector(bytes);
  while (vw > 1 && v % vw != 0)
    vw /= 2;
  ScheduleSpace space;
  space.addInt("vector_width", vectorWidths(bytes), vw,
               "logits per global access (16 bytes at most)");
  space.addInt(
      "threads", threadCounts(target),
      clampPow2(v / vw, target.waveSize, target.maxThreadsPerWorkgroup),
      "threads per workgroup; one workgroup per row");
  space.addInt("thresholds_per_pass", {1, 3, 7, 15}, 7,
               "probability thresholds one search pass evaluates; the "
               "boundary interval shrinks by thresholds + 1 per pass");
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
