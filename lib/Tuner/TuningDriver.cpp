//===- TuningDriver.cpp - tune one op: search, confirm, record ------------===//

#include "hkg/Tuner/TuningDriver.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

TuningObserver::~TuningObserver() = default;

//===----------------------------------------------------------------------===//
// TuningResult
//===----------------------------------------------------------------------===//

std::optional<double> TuningResult::getCopyUs() const {
  if (copyUs.empty())
    return std::nullopt;
  std::vector<double> sorted = copyUs;
  std::sort(sorted.begin(), sorted.end());
  return sorted[sorted.size() / 2];
}

std::optional<double> TuningResult::getDefaultUs() const {
  if (confirm.defaultFinalist &&
      confirm.finalists[*confirm.defaultFinalist].isOk())
    return confirm.finalists[*confirm.defaultFinalist].confirmedUs;
  return defaultUs;
}

std::optional<double> TuningResult::getWinnerUs() const {
  if (confirm.winner)
    return confirm.finalists[*confirm.winner].confirmedUs;
  if (winner)
    return trials[*winner].measurement.medianUs;
  return std::nullopt;
}

std::string TuningResult::describeAgainstDefault() const {
  auto us = [](double v) { return llvm::formatv("{0:f2} us", v).str(); };
  if (std::optional<double> speedup = confirm.getSpeedup())
    return llvm::formatv(", confirmed {0} against the default's {1}: {2:f3}x",
                         us(confirm.finalists[*confirm.winner].confirmedUs),
                         us(confirm.finalists[*confirm.defaultFinalist]
                                .confirmedUs),
                         *speedup);
  if (confirm.winner)
    return llvm::formatv(", confirmed {0} (no default to compare: it was not "
                         "ok)",
                         us(confirm.finalists[*confirm.winner].confirmedUs));
  if (winner && defaultUs)
    return llvm::formatv(", {0:f2}x the default schedule",
                         *defaultUs / trials[*winner].measurement.medianUs);
  return "";
}

//===----------------------------------------------------------------------===//
// TuningDriver
//===----------------------------------------------------------------------===//

TuningDriver::TuningDriver(TuningOptions options, TuningDatabase *database,
                           const Policy *model)
    : options(options), database(database), model(model) {}

TuningDriver::~TuningDriver() = default;

const Policy *TuningDriver::getPolicy() {
  if (model)
    return model;
  if (triedTraining || !database)
    return trainedPolicy.get();
  triedTraining = true;
  llvm::Expected<std::vector<TuningRecord>> records = database->getAllRecords();
  if (!records) {
    llvm::consumeError(records.takeError());
    return nullptr;
  }
  // Signatures parse in a context of their own.
  MLIRContext ctx;
  loadTunerDialects(ctx);
  OpCatalog catalog(ctx);
  std::vector<TrainingGroup> groups = buildTrainingGroups(*records, catalog);
  PolicyOptions policyOptions;
  policyOptions.seed = static_cast<unsigned>(options.seed);
  llvm::Expected<std::unique_ptr<Policy>> policy =
      Policy::train(groups, policyOptions);
  if (!policy) {
    // Too few records to learn from: the search goes on without a prior.
    llvm::consumeError(policy.takeError());
    return nullptr;
  }
  trainedPolicy = std::move(*policy);
  return trainedPolicy.get();
}

namespace {
/// Measures the search's candidates: through the database when there is one,
/// counting trials, tracking the best time and the copy times, and telling
/// the observer.
class SearchMeasurer {
public:
  SearchMeasurer(HkgKernelOpInterface op, StringRef signature,
                 const TargetInfo &target, Measurer &measurer,
                 TuningDatabase *database, const SearchOptions &search,
                 TuningObserver &observer, TuningResult &result)
      : op(op), signature(signature), target(target), measurer(&measurer),
        budget(search.budget), observer(observer), result(result) {
    if (database) {
      recording = std::make_unique<RecordingMeasurer>(measurer, *database);
      this->measurer = recording.get();
    }
    numTrials = std::min<size_t>(search.history.size(), budget);
    for (const Trial &h : search.history)
      if (h.measurement.isOk())
        bestUs = std::min(bestUs, h.measurement.medianUs);
  }

  size_t getNumResumed() const { return numTrials; }

  /// Measurer::prefetch for the search's next candidates.
  void prefetch(llvm::ArrayRef<KnobMap> schedules) {
    std::vector<MeasureRequest> requests;
    for (const KnobMap &knobs : schedules)
      requests.push_back(MeasureRequest{op, signature, &target, &knobs});
    measurer->prefetch(requests);
  }
  std::string getRecordError() const {
    return recording ? recording->getError() : std::string();
  }

  Measurement operator()(const KnobMap &knobs) {
    MeasureRequest request{op, signature, &target, &knobs};
    Measurement m = measurer->measure(request);
    ++numTrials;
    ++measuredHere;
    bool firstCopy = std::isfinite(m.copyUs) && result.copyUs.empty();
    if (std::isfinite(m.copyUs))
      result.copyUs.push_back(m.copyUs);
    if (m.isOk())
      bestUs = std::min(bestUs, m.medianUs);
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    double left = budget > numTrials ? budget - numTrials : 0;
    observer.onTrial(TrialProgress{numTrials, budget, knobs, m, bestUs,
                                   elapsed / measuredHere * left});
    if (firstCopy)
      observer.onFirstCopy(m.copyUs);
    return m;
  }

private:
  HkgKernelOpInterface op;
  StringRef signature;
  const TargetInfo &target;
  Measurer *measurer;
  std::unique_ptr<RecordingMeasurer> recording;
  unsigned budget;
  TuningObserver &observer;
  TuningResult &result;
  size_t numTrials = 0, measuredHere = 0;
  double bestUs = std::numeric_limits<double>::infinity();
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};
} // namespace

/// Re-measures the finalists of `searched` and sets the winner.
static void confirm(const SearchResult &searched, const KnobMap &defaultKnobs,
                    const MeasureFn &remeasure, const TuningOptions &options,
                    TuningObserver &observer, TuningResult &result) {
  ConfirmOptions confirmOptions;
  confirmOptions.finalists = options.confirmFinalists;
  confirmOptions.rounds = options.confirmRounds;
  result.confirm = confirmFinalists(
      searched, defaultKnobs, remeasure, confirmOptions,
      [&](unsigned round, size_t finalist, const Measurement &m) {
        observer.onConfirm(round, options.confirmRounds, finalist, m);
      });
  result.confirmed = true;
  result.winner = std::nullopt;
  if (result.confirm.winner)
    result.winner = result.confirm.finalists[*result.confirm.winner].trial;
}

llvm::Expected<TuningResult>
TuningDriver::tune(HkgKernelOpInterface op, const TargetInfo &target,
                   Measurer &measurer, TuningObserver *observer,
                   const CandidateSpace *space) {
  TuningObserver silent;
  TuningObserver &observe = observer ? *observer : silent;
  std::optional<OpCandidateSpace> opSpace;
  if (!space)
    space = &opSpace.emplace(op, target);
  std::string signature = getOpSignature(op);
  TuningResult result;

  SearchOptions search;
  search.budget = options.budget;
  search.seed = options.seed;
  search.batch = options.batch;
  if (options.randomSample)
    search.sampleUniformly();
  if (database) {
    llvm::Expected<std::vector<TuningRecord>> records =
        database->getRecords(signature, target.chip);
    if (!records)
      return records.takeError();
    for (const TuningRecord &r : *records)
      search.history.push_back({resolveKnobs(space->getSpace(), r.schedule),
                                r.measurement, "database"});
  }
  SearchMeasurer searchMeasurer(op, signature, target, measurer, database,
                                search, observe, result);
  if (size_t resumed = searchMeasurer.getNumResumed())
    observe.onResume(resumed);
  if (options.stopAtCopy > 0)
    search.stopWhen = [&](const SearchResult &r) {
      std::optional<double> copy = result.getCopyUs();
      return r.best && copy &&
             *copy / r.trials[*r.best].measurement.medianUs >=
                 options.stopAtCopy;
    };

  auto start = std::chrono::steady_clock::now();
  PolicyOptions policyOptions;
  policyOptions.seed = static_cast<unsigned>(options.seed);
  std::optional<PolicyScorer> scorer;
  if (!options.randomSample)
    scorer.emplace(getPolicy(), OpContext::get(op, target), policyOptions);
  MeasureFn measure = [&](const KnobMap &knobs) {
    return searchMeasurer(knobs);
  };
  search.prefetch = [&](llvm::ArrayRef<KnobMap> schedules) {
    searchMeasurer.prefetch(schedules);
  };
  SearchResult searched =
      runSearch(*space, measure, scorer ? &*scorer : nullptr, search);
  result.trials = searched.trials;
  result.best = searched.best;
  result.winner = searched.best;
  result.stopped = searched.stopped;
  KnobMap defaultKnobs = space->getDefault();
  for (const Trial &trial : searched.trials) {
    result.numReused += trial.agent == "database";
    if (trial.schedule == defaultKnobs && trial.measurement.isOk())
      result.defaultUs = trial.measurement.medianUs;
  }
  result.recordError = searchMeasurer.getRecordError();
  auto confirmStart = std::chrono::steady_clock::now();
  result.searchSeconds =
      std::chrono::duration<double>(confirmStart - start).count();
  observe.onSearchDone(result);

  if (searched.best && !options.randomSample && options.confirmRounds > 0 &&
      options.confirmFinalists > 0) {
    // The finalists are in the database already: re-measurements bypass it
    // (a recording measurer would answer them from their records).
    MeasureFn remeasure = [&](const KnobMap &knobs) {
      MeasureRequest request{op, signature, &target, &knobs};
      Measurement m = measurer.measure(request);
      if (std::isfinite(m.copyUs))
        result.copyUs.push_back(m.copyUs);
      return m;
    };
    confirm(searched, defaultKnobs, remeasure, options, observe, result);
  }
  result.confirmSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - confirmStart)
                              .count();
  return result;
}

llvm::Expected<std::optional<TuningRecord>>
TuningDriver::getFastestRecord(HkgKernelOpInterface op,
                               const TargetInfo &target) {
  if (!database)
    return std::nullopt;
  llvm::Expected<std::vector<TuningRecord>> records =
      database->getOkRecordsByTime(getOpSignature(op), target.chip);
  if (!records)
    return records.takeError();
  ScheduleSpace space = op.getScheduleSpace(target);
  for (TuningRecord &r : *records) {
    KnobMap knobs = resolveKnobs(space, r.schedule);
    if (!isLegalSchedule(op, knobs, target))
      continue;
    r.schedule = std::move(knobs);
    return std::optional<TuningRecord>(std::move(r));
  }
  return std::nullopt;
}

llvm::Expected<std::optional<ZeroShotPick>>
TuningDriver::pickZeroShot(HkgKernelOpInterface op, const TargetInfo &target) {
  const Policy *policy = getPolicy();
  if (!policy)
    return std::nullopt;
  OpCandidateSpace space(op, target);
  Rng rng(options.seed);
  unsigned wanted = std::max(1u, options.zeroShotCandidates);
  std::vector<KnobMap> candidates = {space.getDefault()};
  std::set<std::string> seen = {formatKnobs(candidates.front())};
  for (unsigned i = 0; i < 4 * wanted && candidates.size() < wanted; ++i) {
    std::optional<KnobMap> k = space.sample(rng);
    if (k && seen.insert(formatKnobs(*k)).second)
      candidates.push_back(std::move(*k));
  }
  OpContext context = OpContext::get(op, target);
  std::vector<FeatureMap> rows;
  rows.reserve(candidates.size());
  for (const KnobMap &k : candidates)
    rows.push_back(context.getFeatures(k));
  llvm::Expected<std::vector<float>> scores = policy->score(rows);
  if (!scores)
    return scores.takeError();
  size_t best =
      tuner::pickZeroShot(*scores, candidates, context.defaultKnobs);
  return std::optional<ZeroShotPick>(
      ZeroShotPick{std::move(candidates[best]), candidates.size()});
}
