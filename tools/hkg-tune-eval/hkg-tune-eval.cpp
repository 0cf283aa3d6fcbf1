//===- hkg-tune-eval.cpp - offline evaluation of the tuning policy --------===//
//
//   hkg-tune-eval --dataset records.jsonl [--folds 4] [--seeds 5]
//                 [--budget 64] [--objective rank:pairwise] [-v]
//                 [--require-zero-shot F] [--require-search-speedup X]
//                 [--reach 0.95,0.99]
//                 [--zero-shot-max-changed-knobs 3] [--split-seed 0]
//
// Groups the records per (op signature, target) and splits the groups into
// folds over shapes (within each op kind, so every kind is trained on). For
// each fold a policy is trained on the other folds, then on each held-out
// group:
//  (a) zero-shot: is the policy's pick (pickZeroShot) among the recorded
//      candidates within 10% of the best recorded time?
//  (b) replayed search: how many trials does the policy-guided search
//      (default first, then the agents, retraining as it goes) need to reach
//      95% (each --reach level) of the best recorded speed, against random
//      search (uniform over the recorded candidates)? Median over seeds.
// Searches replay recorded measurements only, so candidates that were never
// recorded are out of reach (see docs/Tuning.md).
//
//===----------------------------------------------------------------------===//

#include "hkg/Support/InputLimits.h"
#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Policy.h"
#include "hkg/Tuner/Search.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;
namespace cl = llvm::cl;

static cl::opt<std::string> datasetPath("dataset", cl::Required,
                                        cl::desc("Records (JSON lines)"));
static cl::opt<unsigned> numFolds("folds", cl::init(4),
                                  cl::desc("Folds over shapes"));
static cl::opt<unsigned> numSeeds("seeds", cl::init(5),
                                  cl::desc("Search seeds per group"));
static cl::opt<unsigned> budget("budget", cl::init(64),
                                cl::desc("Trials per search"));
static cl::opt<std::string> objective("objective", cl::init("rank:pairwise"),
                                      cl::desc("rank:pairwise or rank:ndcg"));
static cl::opt<unsigned> explorerSamples(
    "explorer-samples", cl::init(SearchOptions().explorerSamples),
    cl::desc("Random candidates the guided explorer draws per pick (it takes "
             "one of the model's best-scored quarter; 1 = pure random)"));
static cl::opt<unsigned> rounds("rounds", cl::init(100),
                                cl::desc("Boosting rounds"));
static cl::opt<unsigned> maxDepth("max-depth", cl::init(6),
                                  cl::desc("Tree depth"));
static cl::opt<double> eta("eta", cl::init(0.3), cl::desc("Learning rate"));
static cl::opt<unsigned>
    parallelTrees("parallel-trees", cl::init(1),
                  cl::desc("Trees per round (boosted random forest)"));
static cl::opt<double> subsample("subsample", cl::init(1.0),
                                 cl::desc("Row subsampling per tree"));
static cl::opt<double> colsample("colsample-bynode", cl::init(1.0),
                                 cl::desc("Feature subsampling per split"));
static cl::opt<double>
    minChildWeight("min-child-weight", cl::init(1.0),
                   cl::desc("Smallest hessian sum in a leaf"));
static cl::opt<bool> defaultRelative(
    "default-relative",
    cl::desc("Train on the dflt.* features (knobs against the op's default "
             "schedule)"));
static cl::opt<bool>
    zeroShotOnly("zero-shot-only",
                 cl::desc("Skip the replayed searches (b): only (a)"));
static cl::opt<unsigned> zeroShotMaxChangedKnobs(
    "zero-shot-max-changed-knobs", cl::init(kZeroShotMaxChangedKnobs),
    cl::desc("The zero-shot pick changes at most this many knobs of the "
             "op's default schedule (a large value: no limit)"));
static cl::opt<unsigned> splitSeed(
    "split-seed", cl::init(0),
    cl::desc("0: folds round-robin over each op kind's groups sorted by "
             "signature (the CI split); N: the groups of each kind shuffled "
             "with seed N first (another split, to see how much a result "
             "depends on it)"));
static cl::opt<bool> verbose("v", cl::desc("Print one line per group"));
static cl::opt<double> requireZeroShot(
    "require-zero-shot", cl::init(0),
    cl::desc("Fail (exit 1) unless the zero-shot hit rate is at least this "
             "fraction (0: no requirement)"));
static cl::opt<double> requireSearchSpeedup(
    "require-search-speedup", cl::init(0),
    cl::desc("Fail (exit 1) unless random search needs at least this many "
             "times the trials of policy-guided search (median over groups "
             "of the per-group medians over seeds; 0: no requirement)"));

static cl::list<double>
    reachLevels("reach", cl::CommaSeparated,
                cl::desc("Shares of the best recorded speed the replayed "
                         "searches must reach, e.g. 0.95,0.99 (default 0.95); "
                         "--require-search-speedup applies to the highest"));

namespace {
/// The recorded candidates of one (signature, target).
struct Group {
  std::string signature, target, opName;
  OpContext context;
  KnobMap defaultKnobs;
  std::vector<KnobMap> candidates;
  std::vector<Measurement> measurements;
  double bestUs = std::numeric_limits<double>::infinity();
  unsigned fold = 0;
  std::string shortName;
};
} // namespace

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hkg-tune-eval") << message << "\n";
  return 1;
}

/// A reach level as a percentage: "95", "99", "99.5".
static std::string formatPercent(double level) {
  return llvm::formatv("{0}", llvm::format("%g", 100.0 * level)).str();
}

/// Trials until the best-so-far reaches `target` us; budget + 1 if never.
static unsigned trialsToReach(const SearchResult &r, double targetUs) {
  for (size_t i = 0; i < r.trials.size(); ++i) {
    const Measurement &m = r.trials[i].measurement;
    if (m.isOk() && m.medianUs <= targetUs)
      return static_cast<unsigned>(i + 1);
  }
  return budget + 1;
}

/// Share of the search's first 16 trials that failed or ran slower than
/// twice the best recorded time: what the agents spend on hopeless
/// candidates early (a group holds ~40 recorded candidates, so a
/// full-budget replay measures them all whatever the agents do).
static double wastedShare(const SearchResult &r, double bestUs) {
  size_t n = std::min<size_t>(r.trials.size(), 16);
  if (n == 0)
    return 0.0;
  size_t wasted = 0;
  for (size_t i = 0; i < n; ++i) {
    const Measurement &m = r.trials[i].measurement;
    wasted += !m.isOk() || m.medianUs > 2.0 * bestUs;
  }
  return static_cast<double>(wasted) / n;
}

/// "softmax 4096x4096xbf16" from the signature's first tensor type.
static std::string describe(const Group &g) {
  std::string name = StringRef(g.opName).drop_front(4).str();
  size_t pos = g.signature.find("tensor<");
  if (pos == std::string::npos)
    return name;
  size_t end = g.signature.find('>', pos);
  return name + " " + g.signature.substr(pos + 7, end - pos - 7) + " " +
         g.target;
}

/// Groups `records` per (signature, target), later records of a schedule
/// replacing earlier ones, and keeps the groups with at least two
/// candidates and one ok.
static std::vector<Group> buildGroups(llvm::ArrayRef<TuningRecord> records,
                                      OpCatalog &catalog, unsigned &skipped,
                                      unsigned &illegal) {
  std::vector<Group> groups;
  std::map<std::pair<std::string, std::string>, size_t> groupIndex;
  std::map<std::pair<size_t, std::string>, size_t> candidateIndex;
  for (const TuningRecord &r : records) {
    auto key = std::make_pair(r.signature, r.target);
    auto it = groupIndex.find(key);
    if (it == groupIndex.end()) {
      HkgKernelOpInterface op = catalog.get(r.signature);
      const TargetInfo *target = lookupTarget(r.target);
      if (!op || !target) {
        ++skipped;
        continue;
      }
      Group g;
      g.signature = r.signature;
      g.target = r.target;
      g.opName = op->getName().getStringRef().str();
      g.context = OpContext::get(op, *target);
      g.defaultKnobs = resolveKnobs(
          g.context.space, knobsFromAttr(op.getDefaultSchedule(*target)));
      it = groupIndex.emplace(key, groups.size()).first;
      groups.push_back(std::move(g));
    }
    Group &g = groups[it->second];
    KnobMap knobs = resolveKnobs(g.context.space, r.schedule);
    // Records that are no longer legal are out of the search space.
    if (!isLegalSchedule(catalog.get(r.signature), knobs, *g.context.target)) {
      ++illegal;
      continue;
    }
    auto [c, inserted] = candidateIndex.try_emplace(
        std::make_pair(it->second, formatKnobs(knobs)), g.candidates.size());
    if (inserted) {
      g.candidates.push_back(knobs);
      g.measurements.push_back(r.measurement);
    } else {
      g.measurements[c->second] = r.measurement;
    }
  }
  std::vector<Group> kept;
  for (Group &g : groups) {
    for (const Measurement &m : g.measurements)
      if (m.isOk())
        g.bestUs = std::min(g.bestUs, m.medianUs);
    if (g.candidates.size() >= 2 && std::isfinite(g.bestUs))
      kept.push_back(std::move(g));
  }
  return kept;
}

/// Sorts the groups and deals them into `folds` folds over shapes,
/// round-robin within each op kind (after a shuffle with --split-seed).
static void assignFolds(std::vector<Group> &groups, unsigned folds) {
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group &a, const Group &b) {
                     return std::tie(a.opName, a.target, a.signature) <
                            std::tie(b.opName, b.target, b.signature);
                   });
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  if (splitSeed != 0) {
    // Fisher-Yates within each run of one op kind (spelled out: the
    // standard shuffle's order is the library's choice).
    Rng rng(splitSeed);
    for (size_t begin = 0; begin < groups.size();) {
      size_t end = begin;
      while (end < groups.size() &&
             groups[end].opName == groups[begin].opName &&
             groups[end].target == groups[begin].target)
        ++end;
      for (size_t i = end - 1; i > begin; --i)
        std::swap(order[i], order[begin + rng() % (i - begin + 1)]);
      begin = end;
    }
  }
  std::map<std::string, unsigned> perKind;
  for (size_t i : order) {
    Group &g = groups[i];
    g.fold = perKind[g.opName + g.target]++ % folds;
    g.shortName = describe(g);
  }
}

static PolicyOptions getPolicyOptions() {
  PolicyOptions options;
  options.objective = objective;
  options.rounds = rounds;
  options.maxDepth = maxDepth;
  options.eta = eta;
  options.parallelTrees = parallelTrees;
  options.subsample = subsample;
  options.colsampleByNode = colsample;
  options.minChildWeight = minChildWeight;
  options.defaultRelativeFeatures = defaultRelative;
  return options;
}

/// The training groups of every fold but `fold`; a candidate with stats is
/// also trained on without them (it is ranked before it is compiled).
static std::vector<TrainingGroup>
getTrainingGroups(llvm::ArrayRef<Group> groups, unsigned fold) {
  std::vector<TrainingGroup> training;
  for (const Group &g : groups) {
    if (g.fold == fold)
      continue;
    TrainingGroup t;
    for (size_t i = 0; i < g.candidates.size(); ++i) {
      const Measurement &m = g.measurements[i];
      float label = rankingLabel(m, g.bestUs);
      t.rows.push_back(g.context.getFeatures(g.candidates[i], &m.stats));
      t.labels.push_back(label);
      if (!m.stats.empty()) {
        t.rows.push_back(g.context.getFeatures(g.candidates[i]));
        t.labels.push_back(label);
      }
    }
    training.push_back(std::move(t));
  }
  return training;
}

namespace {
/// What the evaluation counts over the held-out groups.
/// (b) at one reach level: per group, the medians over seeds.
struct ReachTally {
  double level;
  std::vector<double> guidedMedians, randomMedians, unguidedMedians;
  unsigned unguidedMissed = 0;
  unsigned guidedWins = 0, ties = 0, guidedMissed = 0, randomMissed = 0;
};

struct Tally {
  unsigned zeroShotHits = 0, defaultHits = 0;
  double randomHitSum = 0;
  std::vector<double> zeroShotRatios;
  /// One per --reach level, lowest first.
  std::vector<ReachTally> reach;
  /// Per group: the mean over seeds of the wasted share of the first 16
  /// trials of the guided / random search.
  std::vector<double> guidedWaste, randomWaste;
  std::map<std::string, std::pair<unsigned, unsigned>> perOpHits;
};

/// (a) of one held-out group.
struct ZeroShotOutcome {
  bool hit;
  std::optional<double> defaultUs;
};
} // namespace

/// (a) zero-shot top-1 among the recorded candidates (not compiled yet: no
/// stats).
static llvm::Expected<ZeroShotOutcome>
evaluateZeroShot(const Group &g, const Policy &policy, Tally &tally) {
  std::vector<FeatureMap> rows;
  for (const KnobMap &k : g.candidates)
    rows.push_back(g.context.getFeatures(k));
  auto scores = policy.score(rows);
  if (!scores)
    return scores.takeError();
  size_t top = pickZeroShot(*scores, g.candidates, g.defaultKnobs,
                            zeroShotMaxChangedKnobs);
  const Measurement &picked = g.measurements[top];
  ZeroShotOutcome outcome;
  outcome.hit = picked.isOk() && picked.medianUs <= 1.1 * g.bestUs;
  tally.zeroShotHits += outcome.hit;
  tally.perOpHits[g.opName].first += outcome.hit;
  tally.perOpHits[g.opName].second += 1;
  tally.zeroShotRatios.push_back(picked.isOk() ? g.bestUs / picked.medianUs
                                               : 0.0);
  unsigned within = 0;
  for (size_t i = 0; i < g.candidates.size(); ++i) {
    const Measurement &m = g.measurements[i];
    within += m.isOk() && m.medianUs <= 1.1 * g.bestUs;
    if (g.candidates[i] == g.defaultKnobs && m.isOk())
      outcome.defaultUs = m.medianUs;
  }
  tally.randomHitSum += static_cast<double>(within) / g.candidates.size();
  tally.defaultHits +=
      outcome.defaultUs && *outcome.defaultUs <= 1.1 * g.bestUs;
  return outcome;
}

/// (b) replayed search on one held-out group: the medians over seeds of
/// the trials to each reach level, guided, without a model and random;
/// returns those of the lowest level.
static std::array<double, 3> evaluateSearch(const Group &g,
                                            const Policy &policy,
                                            const PolicyOptions &options,
                                            Tally &tally) {
  ReplayMeasurer replay;
  for (size_t i = 0; i < g.candidates.size(); ++i)
    replay.add(g.signature, g.target, g.candidates[i], g.measurements[i]);
  ListCandidateSpace space(g.context.space, g.candidates, g.defaultKnobs);
  MeasureFn measure = [&](const KnobMap &k) {
    MeasureRequest request{nullptr, g.signature, g.context.target, &k};
    return replay.measure(request);
  };
  size_t levels = tally.reach.size();
  std::vector<std::vector<double>> guided(levels), random(levels),
      unguided(levels);
  auto reachEach = [&](std::vector<std::vector<double>> &trials,
                       const SearchResult &run) {
    for (size_t l = 0; l < levels; ++l)
      trials[l].push_back(trialsToReach(run, g.bestUs / tally.reach[l].level));
  };
  std::pair<double, double> waste{0.0, 0.0};
  for (unsigned s = 1; s <= numSeeds; ++s) {
    SearchOptions search;
    search.budget = budget;
    search.seed = s;
    search.explorerSamples = explorerSamples;
    // As in hkg-tune and the pass: the search's per-op models use the
    // default feature set.
    PolicyOptions scorerOptions = options;
    scorerOptions.defaultRelativeFeatures = false;
    PolicyScorer scorer(&policy, g.context, scorerOptions);
    SearchResult guidedRun = runSearch(space, measure, &scorer, search);
    reachEach(guided, guidedRun);
    waste.first += wastedShare(guidedRun, g.bestUs) / numSeeds;
    // The same agents without a model: what the policy adds.
    reachEach(unguided, runSearch(space, measure, nullptr, search));
    SearchOptions randomOptions = search;
    randomOptions.sampleUniformly();
    randomOptions.startWithDefault = false;
    SearchResult randomRun = runSearch(space, measure, nullptr, randomOptions);
    reachEach(random, randomRun);
    waste.second += wastedShare(randomRun, g.bestUs) / numSeeds;
  }
  tally.guidedWaste.push_back(waste.first);
  tally.randomWaste.push_back(waste.second);
  std::array<double, 3> first;
  for (size_t l = 0; l < levels; ++l) {
    ReachTally &t = tally.reach[l];
    double gm = median(guided[l]), rm = median(random[l]);
    double um = median(unguided[l]);
    t.unguidedMedians.push_back(um);
    t.unguidedMissed += um > budget;
    t.guidedMedians.push_back(gm);
    t.randomMedians.push_back(rm);
    t.guidedWins += gm < rm;
    t.ties += gm == rm;
    t.guidedMissed += gm > budget;
    t.randomMissed += rm > budget;
    if (l == 0)
      first = {gm, um, rm};
  }
  return first;
}

/// Trains on the other folds and evaluates the groups of `fold`.
static llvm::Error evaluateFold(llvm::ArrayRef<Group> groups, unsigned fold,
                                const PolicyOptions &options, Tally &tally) {
  auto policy = Policy::train(getTrainingGroups(groups, fold), options);
  if (!policy)
    return policy.takeError();
  for (const Group &g : groups) {
    if (g.fold != fold)
      continue;
    llvm::Expected<ZeroShotOutcome> zeroShot =
        evaluateZeroShot(g, **policy, tally);
    if (!zeroShot)
      return zeroShot.takeError();
    const char *hit = zeroShot->hit ? "(hit)" : "(miss)";
    if (zeroShotOnly) {
      if (verbose)
        llvm::outs() << llvm::formatv(
            "  {0,-32} fold {1}: {2,4} candidates, zero-shot {3:f3} of "
            "best {4}, default {5:f3}\n",
            g.shortName, fold, g.candidates.size(),
            tally.zeroShotRatios.back(), hit,
            zeroShot->defaultUs ? g.bestUs / *zeroShot->defaultUs : 0.0);
      continue;
    }
    auto [gm, um, rm] = evaluateSearch(g, **policy, options, tally);
    if (verbose)
      llvm::outs() << llvm::formatv(
          "  {0,-32} fold {1}: {2,4} candidates, zero-shot {3:f3} of best "
          "{4}, trials to {8}%: guided {5}, no model {6}, random {7}\n",
          g.shortName, fold, g.candidates.size(), tally.zeroShotRatios.back(),
          hit, gm, um, rm, formatPercent(tally.reach.front().level));
  }
  return llvm::Error::success();
}

static double mean(const std::vector<double> &v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

static void printZeroShot(const Tally &t, size_t n) {
  llvm::outs() << llvm::formatv(
      "(a) zero-shot: top-1 within 10% of the best measured schedule in "
      "{0}/{1} held-out shapes = {2:f1}%\n",
      t.zeroShotHits, n, 100.0 * t.zeroShotHits / n);
  llvm::outs() << llvm::formatv(
      "    baselines: default schedule {0:f1}%, a random recorded candidate "
      "{1:f1}% (expected); median top-1 speed = {2:f3} of best\n",
      100.0 * t.defaultHits / n, 100.0 * t.randomHitSum / n,
      median(t.zeroShotRatios));
  for (const auto &[op, hits] : t.perOpHits)
    llvm::outs() << llvm::formatv("    {0}: {1}/{2}\n", op, hits.first,
                                  hits.second);
}

static void printReach(const ReachTally &t, size_t n) {
  llvm::outs() << llvm::formatv(
      "(b) replayed search: trials to reach {3}% of the best (median over {0} "
      "seeds, budget {1}, {2} = not reached)\n",
      numSeeds, budget, budget + 1, formatPercent(t.level));
  llvm::outs() << llvm::formatv(
      "    policy-guided: median {0:f1}, mean {1:f1}, not reached in {2}/{3}\n",
      median(t.guidedMedians), mean(t.guidedMedians), t.guidedMissed, n);
  llvm::outs() << llvm::formatv(
      "    agents without a model: median {0:f1}, mean {1:f1}, not reached "
      "in {2}/{3}\n",
      median(t.unguidedMedians), mean(t.unguidedMedians), t.unguidedMissed, n);
  llvm::outs() << llvm::formatv(
      "    random:        median {0:f1}, mean {1:f1}, not reached in {2}/{3}\n",
      median(t.randomMedians), mean(t.randomMedians), t.randomMissed, n);
  llvm::outs() << llvm::formatv(
      "    policy-guided needed fewer trials in {0}/{1} groups ({2} ties)\n",
      t.guidedWins, n, t.ties);
}

static void printSearch(const Tally &t, size_t n) {
  for (const ReachTally &r : t.reach)
    printReach(r, n);
  llvm::outs() << llvm::formatv(
      "    of the first 16 trials, failed or over 2x the best (mean over "
      "groups): policy-guided {0:f1}%, random {1:f1}%\n",
      100.0 * mean(t.guidedWaste), 100.0 * mean(t.randomWaste));
}

/// Prints the requirements asked for; 1 when one is not met.
static int checkRequirements(const Tally &t, size_t n) {
  int status = 0;
  double hitRate = static_cast<double>(t.zeroShotHits) / n;
  if (requireZeroShot > 0) {
    bool met = hitRate >= requireZeroShot;
    llvm::outs() << llvm::formatv(
        "requirement (a): zero-shot hit rate {0:f3} >= {1:f3}: {2}\n", hitRate,
        requireZeroShot.getValue(), met ? "met" : "NOT MET");
    status |= !met;
  }
  if (zeroShotOnly || requireSearchSpeedup <= 0)
    return status;
  // The highest level: the strictest.
  const ReachTally &r = t.reach.back();
  double speedup = median(r.randomMedians) / median(r.guidedMedians);
  bool met = speedup >= requireSearchSpeedup;
  llvm::outs() << llvm::formatv(
      "requirement (b): random / policy-guided trials to {3}% {0:f2} >= "
      "{1:f2}: {2}\n",
      speedup, requireSearchSpeedup.getValue(), met ? "met" : "NOT MET",
      formatPercent(r.level));
  return status | !met;
}

static int evalMain();

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "hkg tuning policy evaluation\n");
  // Deeply nested input recurses deeply: the work runs on a large stack.
  return ::hkg::runOnLargeStack(evalMain);
}

static int evalMain() {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(datasetPath);
  if (!buffer)
    return fail("cannot read '" + datasetPath + "'");
  auto records = parseRecordsJsonl((*buffer)->getBuffer());
  if (!records)
    return fail(datasetPath + ": " + llvm::toString(records.takeError()));

  MLIRContext ctx;
  loadTunerDialects(ctx);
  OpCatalog catalog(ctx);
  unsigned skipped = 0, illegal = 0;
  std::vector<Group> groups = buildGroups(*records, catalog, skipped, illegal);
  if (groups.size() < 2)
    return fail("need at least two groups with an ok record");
  unsigned folds = std::max(2u, numFolds.getValue());
  assignFolds(groups, folds);
  llvm::outs() << llvm::formatv(
      "hkg-tune-eval: {0} records, {1} groups (op signature x target), {2} "
      "folds over shapes, {3} unparsed and {4} illegal records skipped\n",
      records->size(), groups.size(), folds, skipped, illegal);

  Tally tally;
  std::vector<double> levels(reachLevels.begin(), reachLevels.end());
  if (levels.empty())
    levels.push_back(0.95);
  llvm::sort(levels);
  for (double level : levels) {
    if (!(level > 0 && level <= 1))
      return fail(llvm::formatv("--reach levels are shares of the best speed "
                                "in (0, 1], got {0}",
                                level)
                      .str());
    tally.reach.push_back({level});
  }
  PolicyOptions options = getPolicyOptions();
  for (unsigned fold = 0; fold < folds; ++fold)
    if (llvm::Error e = evaluateFold(groups, fold, options, tally))
      return fail(llvm::toString(std::move(e)));
  size_t n = groups.size();
  printZeroShot(tally, n);
  if (!zeroShotOnly)
    printSearch(tally, n);
  return checkRequirements(tally, n);
}
