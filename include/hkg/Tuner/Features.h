//===- Features.h - what the policy model sees ------------------*- C++ -*-===//
//
// A candidate is described to the model by named numeric features:
//   op.*      the op kind (one-hot), log2 of flops, bytes, shape dims,
//             arithmetic intensity, element type (from getCostFeatures);
//   target.*  the target description (wave size, LDS, CUs, registers,
//             peaks, vendor) from TargetInfo;
//   knob.*    the schedule: integer knobs as log2 (0 -> -1), keyword knobs
//             one-hot over the knob's legal values;
//   mix.*     op-agnostic interactions: sums and differences of knobs, op
//             dims against knobs, the element count against every product
//             and ratio of the size knobs;
//   dflt.*    knobs against the op's default schedule;
//   stat.*    static stats of the compiled candidate (vgpr, lds_bytes,
//             spills, occupancy...) when known.
// A model stores the names it was trained on; a name it does not know is
// dropped and a name it knows but the row lacks is a missing value.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_FEATURES_H
#define HKG_TUNER_FEATURES_H

#include "hkg/Tuner/Measurer.h"

#include <map>
#include <string>

namespace mlir::hkg::tuner {

using FeatureMap = std::map<std::string, double>;

void addOpFeatures(FeatureMap &features, llvm::StringRef opName,
                   const CostFeatures &cost);
void addTargetFeatures(FeatureMap &features, const TargetInfo &target);
void addScheduleFeatures(FeatureMap &features, const ScheduleSpace &space,
                         const KnobMap &knobs);
void addStatFeatures(FeatureMap &features, const StatMap &stats);

/// The op and target part, shared by every candidate of one op.
struct OpContext {
  std::string opName;
  CostFeatures cost;
  ScheduleSpace space;
  /// The op's default schedule on the target, resolved against the space:
  /// the op author's heuristic, which `dflt.*` features measure candidates
  /// against.
  KnobMap defaultKnobs;
  const TargetInfo *target = nullptr;

  static OpContext get(HkgKernelOpInterface op, const TargetInfo &target);
  /// Features of `knobs` (resolved against the space) and optional stats.
  FeatureMap getFeatures(const KnobMap &knobs,
                         const StatMap *stats = nullptr) const;
};

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_FEATURES_H
