//===- SyntheticDataset.h - an analytic stand-in for measurements -*- C++
//-*-===//
//
// SYNTHETIC DATA, FOR TESTS ONLY. Until real device measurements exist, the
// tuner's offline evaluation runs on records whose "time" comes from a small
// analytic cost model (roofline with vector-width, occupancy, latency-hiding,
// wave-quantization, reduction and spill terms, plus +-4% deterministic
// noise). The model is documented in docs/Tuning.md; its numbers say nothing
// about real kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TOOLS_HKG_TUNE_SYNTHETICDATASET_H
#define HKG_TOOLS_HKG_TUNE_SYNTHETICDATASET_H

#include "hkg/Tuner/Database.h"

#include <vector>

namespace mlir::hkg::tuner {

struct SyntheticOptions {
  uint64_t seed = 1;
  /// Legal schedules sampled per (op, shape, target), plus the default.
  unsigned schedulesPerOp = 200;
  /// Chips to generate for.
  std::vector<std::string> chips = {"sm_90"};
};

/// Generates synthetic records for softmax, layernorm, rmsnorm and matmul
/// at a fixed list of shapes. Fails only when an op fails to parse.
llvm::Expected<std::vector<TuningRecord>>
generateSyntheticRecords(MLIRContext &ctx, const SyntheticOptions &options);

} // namespace mlir::hkg::tuner

#endif // HKG_TOOLS_HKG_TUNE_SYNTHETICDATASET_H
