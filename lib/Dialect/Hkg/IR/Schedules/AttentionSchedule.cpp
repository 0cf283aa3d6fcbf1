//===- AttentionSchedule.cpp - schedule of hkg.attention ------------------===//
//
// Flash-attention style: a workgroup owns `tile_q` query rows of one head and
// streams key/value blocks of `tile_kv` rows through LDS (`stages` buffers),
// keeping an online softmax; `waves` waves split the query rows.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

ScheduleSpace AttentionOp::getScheduleSpace(const TargetInfo &target) {
  Type elem = getQuery().getType().getElementType();
  bool half = elem.isF16() || elem.isBF16();
  SmallVector<StringRef> mmas = {"none"};
  for (StringRef m : target.mmaIntrinsics)
    mmas.push_back(m);
  StringRef mma = half && !target.mmaIntrinsics.empty()
                      ? StringRef(target.mmaIntrinsics.front())
                      : "none";
  // The default must fit the target's LDS (see verifyScheduleConstraints):
  // large head dims give up double buffering first, then shrink the tiles.
  int64_t d = getQuery().getType().getDimSize(3);
  int64_t dv = getValue().getType().getDimSize(3);
  int64_t tileQ = 64, tileKv = 64, stages = half ? 2 : 1;
  auto ldsBytes = [&] {
    return (tileQ * d + stages * tileKv * (d + dv)) * elementBytes(elem);
  };
  while (ldsBytes() > staticLdsBytes(target)) {
    if (stages > 1)
      stages = 1;
    else if (tileKv > 16)
      tileKv /= 2;
    else if (tileQ > 16)
      tileQ /= 2;
    else
      break; // No tile fits: verification reports it.
  }
  ScheduleSpace space;
  space.addInt("tile_q", {16, 32, 64, 128}, tileQ, "query rows per workgroup");
  space.addInt("tile_kv", {16, 32, 64, 128}, tileKv, "key/value rows per step");
  space.addInt("waves", {1, 2, 4, 8}, 4, "waves per workgroup");
  space.addKeyword("mma", mmas, mma,
                   "matrix-core instruction, or none for FMAs");
  space.addInt("stages", {1, 2}, stages, "LDS buffers for key/value blocks");
  return space;
}

LogicalResult AttentionOp::verifyScheduleConstraints(
    const ResolvedSchedule &s, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  Type elem = getQuery().getType().getElementType();
  StringRef mma = s.getKeyword("mma");
  if (mma != "none" && !(elem.isF16() || elem.isBF16()))
    return emitError() << "schedule knob 'mma' = " << mma
                       << " needs f16 or bf16 operands, got " << elem
                       << "; expected mma = none";
  int64_t waves = s.getInt("waves"), tileQ = s.getInt("tile_q");
  if (tileQ % waves != 0)
    return emitError() << "schedule knob 'tile_q' = " << tileQ
                       << " must be a multiple of 'waves' = " << waves;
  int64_t d = getQuery().getType().getDimSize(3);
  int64_t dv = getValue().getType().getDimSize(3);
  int64_t bytes = elementBytes(elem);
  int64_t lds = (tileQ * d + s.getInt("stages") * s.getInt("tile_kv") *
                                 (d + dv)) *
                bytes;
  if (lds > staticLdsBytes(target))
    return emitError() << "schedule needs " << lds
                       << " bytes of LDS (tile_q x D + stages x tile_kv x "
                          "(D + Dv) elements); "
                       << target.chip << " has "
                       << staticLdsBytes(target);
  return success();
}

CostFeatures AttentionOp::getCostFeatures() {
  CostFeatures c;
  auto q = getQuery().getType();
  int64_t b = q.getDimSize(0), h = q.getDimSize(1), sq = q.getDimSize(2),
          d = q.getDimSize(3);
  int64_t skv = getKey().getType().getDimSize(2);
  int64_t dv = getValue().getType().getDimSize(3);
  double pairs = static_cast<double>(sq) * skv;
  // With `causal`, query i sees keys j <= i + (skv - sq).
  if (getCausal())
    pairs = static_cast<double>(sq) * (skv - sq + 1) +
            static_cast<double>(sq) * (sq - 1) / 2.0;
  c.flops = 2.0 * b * h * pairs * (d + dv);
  c.bytes = tensorBytes(getQuery()) + tensorBytes(getKey()) +
            tensorBytes(getValue()) + tensorBytes(getResult());
  c.shape = {b, h, sq, skv, d, dv};
  c.elementType = q.getElementType();
  return c;
}
