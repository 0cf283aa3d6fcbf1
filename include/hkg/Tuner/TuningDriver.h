//===- TuningDriver.h - tune one op: search, confirm, record ----*- C++ -*-===//
//
// The one tuning driver behind the hkg-autotune pass and `hkg-tune tune`, so
// that both pick winners the same way. For one op on one target, tune():
//   1. draws candidates from the op's schedule space (OpCandidateSpace: the
//      default first, the sketches, then the agents of Search.h);
//   2. ranks them with the policy: the model given, else one trained from the
//      database's records (once per driver), combined with a model retrained
//      on the op's own trials (PolicyScorer);
//   3. measures them through a Measurer; the database's records of the op
//      seed the search and count against the budget (a killed run resumes),
//      and every new measurement is stored at once (RecordingMeasurer);
//   4. confirms: the default and the fastest few candidates are re-measured
//      in rounds (Confirm.h) and the lowest re-measured median wins. The
//      re-measurements are not records (the schedules already are).
// Without a device, getFastestRecord() replays the database and
// pickZeroShot() lets the policy choose among sampled legal candidates.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_TUNINGDRIVER_H
#define HKG_TUNER_TUNINGDRIVER_H

#include "hkg/Tuner/Confirm.h"
#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Policy.h"
#include "hkg/Tuner/Search.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::hkg::tuner {

struct TuningOptions {
  /// Trials per op, the database's records of the op included.
  unsigned budget = 32;
  /// Seed of the search, of the policy's training and of zero-shot sampling.
  uint64_t seed = 0;
  /// Confirmation (Confirm.h): candidates re-measured besides the default,
  /// and re-measurements of each; either 0: the search's fastest trial wins
  /// as measured.
  unsigned confirmFinalists = 3;
  unsigned confirmRounds = 3;
  /// Ends the search once the best trial runs at this fraction of the speed
  /// of a copy moving the op's bytes (Measurement::copyUs) or more; 0: never.
  double stopAtCopy = 0;
  /// Candidates the search proposes at a time (SearchOptions::batch); the
  /// measurer is told each batch first (Measurer::prefetch) and compiles
  /// them while it measures the ones before.
  unsigned batch = 1;
  /// Legal candidates (the default included) pickZeroShot() chooses among.
  unsigned zeroShotCandidates = 512;
  /// Sample the space instead of searching it (a tuning dataset: see
  /// utils/tuning/README.md): the default, then uniformly random legal
  /// candidates; no sketches, no model and no confirmation, so that the
  /// records are an unbiased sample for the policy's offline evaluation.
  bool randomSample = false;
};

/// One trial the search measured, for progress reports.
struct TrialProgress {
  /// The trial's number (database trials counted first) and the budget.
  size_t number;
  unsigned budget;
  const KnobMap &schedule;
  const Measurement &measurement;
  /// The fastest ok time so far (database trials included); +inf if none.
  double bestUs;
  /// Seconds left at the pace of the trials measured so far.
  double etaSeconds;
};

struct TuningResult;

/// Told what tune() does, in order; every method does nothing by default.
class TuningObserver {
public:
  virtual ~TuningObserver();
  /// Before the search: `numTrials` trials came from the database.
  virtual void onResume(size_t numTrials) {}
  virtual void onTrial(const TrialProgress &progress) {}
  /// The first copy time measured with a candidate of this op.
  virtual void onFirstCopy(double copyUs) {}
  /// After the search, before the confirmation: `result` has the trials,
  /// whether stopAtCopy ended the search and any database error.
  virtual void onSearchDone(const TuningResult &result) {}
  /// After each re-measurement of the confirmation.
  virtual void onConfirm(unsigned round, unsigned rounds, size_t finalist,
                         const Measurement &measurement) {}
};

/// What tune() found for one op.
struct TuningResult {
  std::vector<Trial> trials;
  /// The search's fastest ok trial.
  std::optional<size_t> best;
  /// Trials taken from the database (agent "database"), not measured.
  size_t numReused = 0;
  /// The default schedule's search time, when it was measured ok.
  std::optional<double> defaultUs;
  /// Empty (no finalists, no measurements) unless the confirmation ran.
  ConfirmResult confirm;
  bool confirmed = false;
  /// The trial whose schedule wins: the confirmation's winner, or the
  /// search's fastest trial when nothing was confirmed. None when no trial
  /// was ok, or no finalist passed every re-measurement.
  std::optional<size_t> winner;
  /// Every copy time measured with this op's candidates (search and
  /// confirmation).
  std::vector<double> copyUs;
  /// TuningOptions::stopAtCopy ended the search.
  bool stopped = false;
  double searchSeconds = 0, confirmSeconds = 0;
  /// The first database error (measuring went on without storing).
  std::string recordError;

  const Trial *getWinner() const {
    return winner ? &trials[*winner] : nullptr;
  }
  /// The median copy time: the floor at the op's size.
  std::optional<double> getCopyUs() const;
  /// The default's and the winner's times, confirmed ones where there are.
  std::optional<double> getDefaultUs() const;
  std::optional<double> getWinnerUs() const;
  /// How the winner compares with the default, for remarks and progress:
  /// ", confirmed 17.90 us against the default's 23.40 us: 1.307x", or
  /// ", confirmed 17.90 us (no default to compare: it was not ok)", or
  /// without confirmation ", 1.31x the default schedule"; empty when there
  /// is no winner or nothing to compare it with.
  std::string describeAgainstDefault() const;
};

/// A schedule the policy picked without measuring.
struct ZeroShotPick {
  KnobMap schedule;
  /// Legal candidates it was chosen among.
  size_t numCandidates;
};

class TuningDriver {
public:
  /// `database` (records read, measurements stored) and `model` (the prior
  /// policy) may be null; both must outlive the driver.
  explicit TuningDriver(TuningOptions options,
                        TuningDatabase *database = nullptr,
                        const Policy *model = nullptr);
  ~TuningDriver();

  /// Tunes `op` on `target` through `measurer`. `space` restricts the
  /// candidates (null: the op's legal space). Errors are database errors.
  llvm::Expected<TuningResult> tune(HkgKernelOpInterface op,
                                    const TargetInfo &target,
                                    Measurer &measurer,
                                    TuningObserver *observer = nullptr,
                                    const CandidateSpace *space = nullptr);

  /// The database's fastest ok record of `op` on `target` whose schedule is
  /// still legal, its schedule resolved against the op's space; nullopt
  /// when there is none (or no database).
  llvm::Expected<std::optional<TuningRecord>>
  getFastestRecord(HkgKernelOpInterface op, const TargetInfo &target);

  /// The policy's zero-shot pick (pickZeroShot in Policy.h) among the
  /// default and up to `zeroShotCandidates - 1` random legal candidates;
  /// nullopt when there is no policy.
  llvm::Expected<std::optional<ZeroShotPick>>
  pickZeroShot(HkgKernelOpInterface op, const TargetInfo &target);

  /// The model, else a policy trained from the database's records (trained
  /// on the first call); null when there is neither.
  const Policy *getPolicy();
  /// Whether getPolicy() is the model given (not a trained one).
  bool hasModel() const { return model != nullptr; }

  const TuningOptions &getOptions() const { return options; }

private:
  TuningOptions options;
  TuningDatabase *database;
  const Policy *model;
  std::unique_ptr<Policy> trainedPolicy;
  bool triedTraining = false;
};

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_TUNINGDRIVER_H
