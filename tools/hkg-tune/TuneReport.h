//===- TuneReport.h - `hkg-tune tune`'s report ------------------*- C++ -*-===//
//
// What `hkg-tune tune` writes besides the tuned module: PREFIX.md (per op:
// the search's fastest and the default, the floor, the confirmation table,
// every trial), PREFIX.json (the same numbers) and PREFIX-<n>.svg (the best
// time so far and each correct trial against the trial number).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TOOLS_HKG_TUNE_TUNEREPORT_H
#define HKG_TOOLS_HKG_TUNE_TUNEREPORT_H

#include "hkg/Tuner/TuningDriver.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::hkg::tuner {

/// One tuned op, as the report shows it.
struct TunedOp {
  /// "hkg.softmax tensor<4x16xf32> on sm_90".
  std::string description;
  std::string signature;
  TuningResult result;
};

/// The run the report describes.
struct TuneReportHeader {
  std::string deviceName;
  std::string chip;
  TuningOptions options;
};

/// "1.23 us".
std::string formatUs(double us);
/// "97.1%": the copy's time as a share of `us`, i.e. the kernel's speed as a
/// fraction of the copy's.
std::string formatShareOfCopy(double copyUs, double us);

/// Writes PREFIX.md, PREFIX.json and PREFIX-<n>.svg.
llvm::Error writeTuneReport(llvm::StringRef prefix,
                            const TuneReportHeader &header,
                            llvm::ArrayRef<TunedOp> ops);

/// Writes `text` to `path` ("-": stdout).
llvm::Error writeTextFile(llvm::StringRef path, llvm::StringRef text);

} // namespace mlir::hkg::tuner

#endif // HKG_TOOLS_HKG_TUNE_TUNEREPORT_H
