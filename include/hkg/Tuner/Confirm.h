//===- Confirm.h - re-measure a search's finalists ---------------*- C++ -*-===//
//
// A search's fastest trial is the minimum over many noisy timings and so
// biased low (the winner's curse): with ~1% spread between runs, a 1-2%
// "improvement" found among 50 candidates can be noise. Confirmation
// re-measures the default schedule and the fastest few candidates in rounds
// (their order rotated every round, so that drift over time hits each of
// them alike), and the winner is the finalist with the lowest median of its
// re-measured times. A finalist that fails any re-measurement (a wrong
// result, a fault) cannot win.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_CONFIRM_H
#define HKG_TUNER_CONFIRM_H

#include "hkg/Tuner/Search.h"

namespace mlir::hkg::tuner {

struct ConfirmOptions {
  /// Fastest ok trials re-measured besides the default schedule.
  unsigned finalists = 3;
  /// Re-measurements of each finalist; 0 confirms nothing.
  unsigned rounds = 3;
};

struct Finalist {
  /// Index into SearchResult::trials.
  size_t trial;
  bool isDefault = false;
  /// The re-measurements, in round order.
  std::vector<Measurement> remeasured;
  /// Median of the re-measured times; NaN when a re-measurement was not ok.
  double confirmedUs;

  bool isOk() const;
};

struct ConfirmResult {
  /// The default's finalist (when its trial was ok) first, then the others
  /// by their search time.
  std::vector<Finalist> finalists;
  /// Index into `finalists` of the lowest confirmed median.
  std::optional<size_t> winner;
  /// Index into `finalists` of the default schedule.
  std::optional<size_t> defaultFinalist;
  /// The measurements made.
  unsigned numMeasurements = 0;

  /// The default's confirmed median over the winner's (nullopt when either
  /// is missing).
  std::optional<double> getSpeedup() const;
};

/// Called after each re-measurement (for progress): round, finalist index.
using ConfirmProgressFn =
    std::function<void(unsigned round, size_t finalist, const Measurement &)>;

/// Picks the finalists of `result` (its trial of `defaultKnobs`, if ok, and
/// the `options.finalists` fastest other ok trials) and re-measures each
/// `options.rounds` times through `measure`.
ConfirmResult confirmFinalists(const SearchResult &result,
                               const KnobMap &defaultKnobs,
                               const MeasureFn &measure,
                               const ConfirmOptions &options,
                               const ConfirmProgressFn &progress = {});

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_CONFIRM_H
