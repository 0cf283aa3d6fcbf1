//===- AutotunePass.cpp - pick schedules by measuring, replaying, policy -===//
//
// hkg-autotune: for each hkg op without a schedule, tune it on the device
// when one is available, else replay the database, else ask the policy
// model, else take the default; a remark says which.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Passes.h"
#include "hkg/Tuner/Policy.h"
#include "hkg/Tuner/Search.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "hkg-autotune"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGAUTOTUNEPASS
#include "hkg/Tuner/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir::hkg::tuner;

/// Legal candidates the zero-shot policy chooses among.
static constexpr unsigned kZeroShotCandidates = 512;

namespace mlir::hkg {
namespace {
struct HkgAutotunePass final : impl::HkgAutotunePassBase<HkgAutotunePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult tuneOnDevice(HkgKernelOpInterface op, const TargetInfo &target,
                             StringRef signature, Measurer &measurer);
  LogicalResult pickWithoutDevice(HkgKernelOpInterface op,
                                  const TargetInfo &target, StringRef signature,
                                  StringRef why);
  /// The model option's policy, or one trained from the database (once).
  const Policy *getPolicy(std::string &origin);

  // Per run state (shared_ptr keeps the pass copyable for clonePass).
  std::shared_ptr<TuningDatabase> database;
  std::shared_ptr<Policy> loadedPolicy;
  std::shared_ptr<Policy> trainedPolicy;
  bool triedTraining = false;
};
} // namespace
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;

const Policy *HkgAutotunePass::getPolicy(std::string &origin) {
  if (loadedPolicy) {
    origin = "the policy model '" + model + "'";
    return loadedPolicy.get();
  }
  origin = "a policy trained from the database";
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
  PolicyOptions options;
  options.seed = static_cast<unsigned>(seed);
  llvm::Expected<std::unique_ptr<Policy>> policy =
      Policy::train(groups, options);
  if (!policy) {
    llvm::consumeError(policy.takeError());
    return nullptr;
  }
  trainedPolicy = std::move(*policy);
  return trainedPolicy.get();
}

LogicalResult HkgAutotunePass::tuneOnDevice(HkgKernelOpInterface op,
                                            const TargetInfo &target,
                                            StringRef signature,
                                            Measurer &measurer) {
  OpCandidateSpace space(op, target);
  std::string origin;
  const Policy *prior = getPolicy(origin);
  PolicyOptions policyOptions;
  policyOptions.seed = static_cast<unsigned>(seed);
  PolicyScorer scorer(prior, OpContext::get(op, target), policyOptions);
  std::unique_ptr<RecordingMeasurer> recording;
  Measurer *m = &measurer;
  if (database) {
    recording = std::make_unique<RecordingMeasurer>(measurer, *database);
    m = recording.get();
  }
  MeasureFn measure = [&](const KnobMap &knobs) {
    MeasureRequest request{op, signature, &target, &knobs};
    return m->measure(request);
  };
  SearchOptions options;
  options.budget = budget;
  options.seed = seed;
  // Resume: what the database already holds for this op counts against the
  // budget and seeds the search.
  if (database) {
    llvm::Expected<std::vector<TuningRecord>> records =
        database->getRecords(signature, target.chip);
    if (!records) {
      op.emitError("hkg-autotune: ") << llvm::toString(records.takeError());
      return failure();
    }
    for (const TuningRecord &r : *records)
      options.history.push_back({resolveKnobs(space.getSpace(), r.schedule),
                                 r.measurement, "database"});
  }
  SearchResult result = runSearch(space, measure, &scorer, options);
  size_t reused = llvm::count_if(
      result.trials, [](const Trial &t) { return t.agent == "database"; });
  if (recording && !recording->getError().empty())
    op.emitWarning("hkg-autotune: measurements were not all stored: ")
        << recording->getError();
  if (!result.best)
    return pickWithoutDevice(
        op, target, signature,
        llvm::formatv("none of {0} measured candidates on {1} was correct",
                      result.trials.size(), measurer.getName())
            .str());
  const Trial &best = result.trials[*result.best];
  op.setScheduleAttrTo(knobsToAttr(op->getContext(), best.schedule));
  InFlightDiagnostic remark =
      op.emitRemark() << "hkg-autotune: measured "
                      << result.trials.size() - reused << " candidates on "
                      << measurer.getName() << " and reused " << reused
                      << " from the database";
  remark << "; best " << llvm::formatv("{0:f2}", best.measurement.medianUs)
         << " us by the " << best.agent << " agent";
  auto defaultTrial = llvm::find_if(result.trials, [&](const Trial &t) {
    return t.schedule == space.getDefault();
  });
  if (defaultTrial != result.trials.end() && defaultTrial->measurement.isOk())
    remark << llvm::formatv(", {0:f2}x the default schedule",
                            defaultTrial->measurement.medianUs /
                                best.measurement.medianUs)
                  .str();
  return success();
}

LogicalResult HkgAutotunePass::pickWithoutDevice(HkgKernelOpInterface op,
                                                 const TargetInfo &target,
                                                 StringRef signature,
                                                 StringRef why) {
  std::string prefix = "hkg-autotune: " + why.str() + "; ";
  // 1. The fastest correct record of the database that is still legal.
  if (database) {
    llvm::Expected<std::vector<TuningRecord>> records =
        database->getOkRecordsByTime(signature, target.chip);
    if (!records) {
      op.emitError("hkg-autotune: ") << llvm::toString(records.takeError());
      return failure();
    }
    for (const TuningRecord &r : *records) {
      KnobMap knobs = resolveKnobs(op.getScheduleSpace(target), r.schedule);
      if (!isLegalSchedule(op, knobs, target))
        continue;
      op.setScheduleAttrTo(knobsToAttr(op->getContext(), knobs));
      op.emitRemark() << prefix << "replayed the fastest database record ("
                      << llvm::formatv("{0:f2}", r.measurement.medianUs)
                      << " us, measured " << r.date << ")";
      return success();
    }
  }
  // 2. The policy, zero-shot among legal candidates.
  std::string origin;
  if (const Policy *policy = getPolicy(origin)) {
    OpCandidateSpace space(op, target);
    Rng rng(seed);
    std::vector<KnobMap> candidates = {space.getDefault()};
    std::set<std::string> seen = {formatKnobs(candidates.front())};
    for (unsigned i = 0;
         i < 4 * kZeroShotCandidates && candidates.size() < kZeroShotCandidates;
         ++i) {
      std::optional<KnobMap> k = space.sample(rng);
      if (k && seen.insert(formatKnobs(*k)).second)
        candidates.push_back(std::move(*k));
    }
    OpContext context = OpContext::get(op, target);
    std::vector<FeatureMap> rows;
    for (const KnobMap &k : candidates)
      rows.push_back(context.getFeatures(k));
    llvm::Expected<std::vector<float>> scores = policy->score(rows);
    if (!scores) {
      op.emitError("hkg-autotune: ") << llvm::toString(scores.takeError());
      return failure();
    }
    size_t best = pickZeroShot(*scores, candidates, context.defaultKnobs);
    op.setScheduleAttrTo(knobsToAttr(op->getContext(), candidates[best]));
    op.emitRemark() << prefix << "picked zero-shot by " << origin << " among "
                    << candidates.size() << " legal candidates";
    return success();
  }
  // 3. The default schedule.
  op.setScheduleAttrTo(op.getDefaultSchedule(target));
  op.emitRemark() << prefix
                  << "no database record or policy model for this op; "
                     "using the default schedule";
  return success();
}

void HkgAutotunePass::runOnOperation() {
  Operation *root = getOperation();
  if (device != "auto" && device != "none") {
    root->emitError("hkg-autotune: unknown device '")
        << device << "'; expected auto or none";
    return signalPassFailure();
  }
  database.reset();
  loadedPolicy.reset();
  trainedPolicy.reset();
  triedTraining = false;
  if (!db.empty()) {
    // Measuring creates the database; replaying needs an existing one.
    llvm::Expected<std::unique_ptr<TuningDatabase>> opened =
        TuningDatabase::open(db, /*create=*/device == "auto");
    if (!opened) {
      root->emitError("hkg-autotune: ") << llvm::toString(opened.takeError());
      return signalPassFailure();
    }
    database = std::move(*opened);
  }
  if (!model.empty()) {
    llvm::Expected<std::unique_ptr<Policy>> loaded = Policy::load(model);
    if (!loaded) {
      root->emitError("hkg-autotune: ") << llvm::toString(loaded.takeError());
      return signalPassFailure();
    }
    loadedPolicy = std::move(*loaded);
  }

  SmallVector<HkgKernelOpInterface> ops;
  root->walk([&](HkgKernelOpInterface op) {
    if (!op.getScheduleAttrOrNull())
      ops.push_back(op);
  });
  // One device measurer per chip, created on first use.
  llvm::StringMap<std::unique_ptr<Measurer>> measurers;
  llvm::StringMap<std::string> noDeviceReasons;
  bool failed = false;
  for (HkgKernelOpInterface op : ops) {
    FailureOr<const TargetInfo *> target = getTargetFor(op, chip);
    if (::mlir::failed(target)) {
      failed = true;
      break;
    }
    const TargetInfo &t = **target;
    std::string signature = getOpSignature(op);
    LogicalResult picked = failure();
    if (device == "none") {
      picked = pickWithoutDevice(op, t, signature, "device=none");
    } else {
      if (!measurers.count(t.chip)) {
        std::string whyNot;
        measurers[t.chip] = createDeviceMeasurer(t, whyNot);
        noDeviceReasons[t.chip] = whyNot;
      }
      if (Measurer *m = measurers[t.chip].get())
        picked = tuneOnDevice(op, t, signature, *m);
      else
        picked = pickWithoutDevice(op, t, signature,
                                   "no device to measure on (" +
                                       noDeviceReasons[t.chip] + ")");
    }
    if (::mlir::failed(picked) ||
        ::mlir::failed(verifySchedule(op, op.getScheduleAttrOrNull(), t,
                                      [&] { return op.emitOpError(); })))
      failed = true;
  }
  if (failed)
    signalPassFailure();
}
