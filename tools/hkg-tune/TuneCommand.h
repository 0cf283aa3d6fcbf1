//===- TuneCommand.h - `hkg-tune tune`: tune a module on the device -------===//

#ifndef HKG_TOOLS_HKG_TUNE_TUNECOMMAND_H
#define HKG_TOOLS_HKG_TUNE_TUNECOMMAND_H

#include <cstdint>
#include <string>

namespace mlir::hkg::tuner {

struct TuneCommandOptions {
  std::string input;
  std::string output = "-";
  std::string chip;
  unsigned budget = 32;
  /// TuningOptions::batch.
  unsigned batch = 1;
  std::string db;
  std::string model;
  uint64_t seed = 0;
  /// Report prefix: <report>.md and <report>-<n>.svg (best time vs trials);
  /// empty: derived from the output (or "hkg-tune" for stdout).
  std::string report;
  /// Re-measurement of the default and the fastest candidates after the
  /// search (Confirm.h): candidates besides the default, and rounds (either
  /// 0: the search's fastest trial wins as measured).
  unsigned confirmFinalists = 3;
  unsigned confirmRounds = 3;
  /// Ends an op's search once the best trial runs at this fraction of the
  /// speed of a copy moving the op's bytes (Measurement::copyUs over the
  /// best trial's time) or more; 0: never.
  double stopAtCopy = 0;
  /// TuningOptions::randomSample.
  bool randomSample = false;
};

/// Tunes every hkg op without a schedule in `input` on the device at hand
/// (the measurer factory), printing progress, and writes the tuned module
/// and the report. Returns the exit code.
int runTuneCommand(const TuneCommandOptions &options);

} // namespace mlir::hkg::tuner

#endif // HKG_TOOLS_HKG_TUNE_TUNECOMMAND_H
