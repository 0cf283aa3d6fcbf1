//===- ElementwiseSchedules.cpp - schedules of elementwise and rope -------===//
//
// Elementwise ops stream their elements: each thread moves `vector_width`
// elements per access and `unroll` accesses per workgroup step. RoPE streams
// token rows: a workgroup rotates `tokens_per_block` tokens (all heads).
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/ElementwiseSchedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/SliceViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

static int64_t widestElementBytes(Operation *op) {
  int64_t b = 1;
  for (Type t : op->getOperandTypes())
    b = std::max(b, elementBytes(t));
  for (Type t : op->getResultTypes())
    b = std::max(b, elementBytes(t));
  return b;
}

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

/// Whether a vector must stay within one innermost row of the result: an
/// input read through a strided map or as a slice view (its rows need not
/// follow each other in memory: SliceViews.h), or a body that reads
/// `hkg.index`.
static bool needsRowVectors(ElementwiseOp op) {
  ArrayRef<int64_t> shape = op.getResult().getType().getShape();
  for (auto [in, map] : llvm::zip(op.getInputs(), op.getInputMaps())) {
    if (getSliceView(in))
      return true;
    auto strides = operandStridesPerResultDim(
        map, cast<ShapedType>(in.getType()).getShape());
    if (classifyBroadcastAccess(strides, shape) == BroadcastAccess::Strided)
      return true;
  }
  return !op.getBody().front().getOps<IndexOp>().empty();
}

/// The extent a vector must divide so that it stays within one row.
static int64_t rowExtent(ElementwiseOp op) {
  auto t = op.getResult().getType();
  return t.getRank() == 0 ? 1 : t.getShape().back();
}

/// i1 tensors hold a byte per element and move one element per access.
static bool hasI1(ElementwiseOp op) {
  auto isI1 = [](Type t) { return getElementTypeOrSelf(t).isInteger(1); };
  return llvm::any_of(op->getOperandTypes(), isI1) ||
         llvm::any_of(op->getResultTypes(), isI1);
}

ScheduleSpace ElementwiseOp::getScheduleSpace(const TargetInfo &target) {
  int64_t bytes = widestElementBytes(*this);
  SmallVector<int64_t> widths =
      hasI1(*this) ? SmallVector<int64_t>{1} : vectorWidths(bytes);
  int64_t vw = widths.back();
  // The widest vector that every broadcast input's extent is a multiple of
  // (and the result's rows, where vectors must stay within one).
  for (Value in : getInputs())
    while (vw > 1 && getHintedNumElements(*this, in.getType()) % vw != 0)
      vw /= 2;
  if (needsRowVectors(*this))
    while (vw > 1 && rowExtent(*this) % vw != 0)
      vw /= 2;
  ScheduleSpace space;
  space.add(kVectorWidth, widths, vw,
            "elements per global access (16 bytes at most)");
  space.add(kThreads, threadCounts(target), 256,
               "threads per workgroup (a multiple of the wave size)");
  space.add(kUnroll, {1, 2, 4, 8}, 4,
               "vector accesses per thread per workgroup step");
  return space;
}

LogicalResult ElementwiseOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  int64_t vw = ElementwiseSchedule::decode(schedule).vectorWidth;
  int64_t numel = getHintedNumElements(*this, getResult().getType());
  for (auto [i, in] : llvm::enumerate(getInputs())) {
    int64_t n = getHintedNumElements(*this, in.getType());
    if (n != numel && n % vw != 0)
      return emitError() << "schedule knob '" << kVectorWidth.name << "' = " << vw
                         << " must divide the " << n
                         << " elements of broadcast input #" << i;
  }
  if (vw > 1 && needsRowVectors(*this) && rowExtent(*this) % vw != 0)
    return emitError() << "schedule knob '" << kVectorWidth.name << "' = " << vw
                       << " must divide the result's last dim ("
                       << rowExtent(*this)
                       << "): an input follows the result through a strided "
                          "map or is a slice view, or the body reads "
                          "hkg.index";
  return success();
}

CostFeatures ElementwiseOp::getCostFeatures() {
  CostFeatures c;
  for (Value v : getInputs())
    c.bytes += tensorBytes(*this, v);
  c.bytes += tensorBytes(*this, getResult());
  int64_t numel = getHintedNumElements(*this, getResult().getType());
  int64_t opsPerElement = 0;
  for (Operation &op : getBody().front().without_terminator())
    if (!isa<arith::ConstantOp>(op))
      ++opsPerElement;
  c.flops = static_cast<double>(numel) * opsPerElement;
  c.shape = getHintedShape(*this, getResult().getType().getShape());
  c.elementType = getResult().getType().getElementType();
  return c;
}

//===----------------------------------------------------------------------===//
// RopeOp
//===----------------------------------------------------------------------===//

ScheduleSpace RopeOp::getScheduleSpace(const TargetInfo &target) {
  auto t = getInput().getType();
  int64_t h = t.getDimSize(2), d = t.getDimSize(3);
  // Vectors are sized for the streamed input; wider (f32) cos/sin rows take
  // two accesses.
  int64_t bytes = elementBytes(t);
  // neox pairs x[i] with x[i + D/2]: a vector must stay within one half.
  int64_t span = getLayout() == RopeLayout::Neox ? d / 2 : d;
  int64_t vw = widestVector(bytes);
  while (vw > 1 && span % vw != 0)
    vw /= 2;
  if (getLayout() == RopeLayout::Gptj)
    vw = std::max<int64_t>(vw, 2);
  int64_t perToken = h * (getLayout() == RopeLayout::Neox ? d / 2 : d) / vw;
  int64_t threads = clampPow2(perToken, target.waveSize, 256);
  ScheduleSpace space;
  space.add(kVectorWidth, vectorWidths(bytes), vw,
               "elements per global access (16 bytes at most)");
  space.add(kThreads, threadCounts(target), threads,
               "threads per workgroup (a multiple of the wave size)");
  space.add(kTokensPerBlock, {1, 2, 4, 8}, 1,
               "tokens (all heads) one workgroup rotates");
  return space;
}

LogicalResult RopeOp::verifyScheduleConstraints(
    const ResolvedSchedule &schedule, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  int64_t vw = RopeSchedule::decode(schedule).vectorWidth;
  int64_t d = getInput().getType().getDimSize(3);
  if (getLayout() == RopeLayout::Neox && (d / 2) % vw != 0)
    return emitError() << "schedule knob '" << kVectorWidth.name << "' = " << vw
                       << " must divide D/2 = " << d / 2
                       << " for the neox layout";
  if (getLayout() == RopeLayout::Gptj && (vw < 2 || d % vw != 0))
    return emitError() << "schedule knob '" << kVectorWidth.name << "' = " << vw
                       << " must be >= 2 and divide D = " << d
                       << " for the gptj layout";
  return success();
}

CostFeatures RopeOp::getCostFeatures() {
  CostFeatures c;
  auto t = getInput().getType();
  int64_t numel = t.getNumElements();
  c.bytes = 2 * tensorBytes(*this, getInput());
  // Each token reads one row of each table (D/2 or D entries).
  int64_t s = t.getDimSize(1), tableWidth = getCos().getType().getDimSize(1);
  c.bytes += 2.0 * s * tableWidth * elementBytes(getCos().getType());
  c.flops = 3.0 * numel;
  c.shape = llvm::to_vector(t.getShape());
  c.elementType = t.getElementType();
  return c;
}
