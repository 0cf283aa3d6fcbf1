//===- SamplingSchedule.h - schedule of top-p sampling ----------*- C++ -*-===//
//
// The typed schedule of hkg.top_p_sample: its knobs, declared once
// (SamplingSchedule.cpp builds the space with them, the lowering in
// lib/Conversion/HkgToGPU/Sampling*.cpp reads the decoded struct).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_SAMPLINGSCHEDULE_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_SAMPLINGSCHEDULE_H

#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"

namespace mlir::hkg {

/// Histogram bins of the cut search.
inline constexpr IntKnob kBins{"bins"};
/// Tokens too light for any nucleus skip the histogram.
inline constexpr BoolKnob kLightTokens{"light_tokens"};
/// Workgroups per row (2 or 4: a cluster, sm_90).
inline constexpr IntKnob kCtasPerRow{"ctas_per_row"};
/// The gather pass reads the histogram pass's bins from LDS.
inline constexpr BoolKnob kBinCache{"bin_cache"};

/// hkg.top_p_sample: one workgroup (or a cluster of `ctasPerRow`) per row.
struct TopPSchedule {
  int64_t vectorWidth;
  int64_t unroll;
  int64_t bins;
  bool lightTokens;
  int64_t threads;
  int64_t ctasPerRow;
  bool binCache;

  static TopPSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kVectorWidth), s.get(kUnroll),  s.get(kBins),
            s.get(kLightTokens), s.get(kThreads), s.get(kCtasPerRow),
            s.get(kBinCache)};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_SAMPLINGSCHEDULE_H
