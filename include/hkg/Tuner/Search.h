//===- Search.h - agents searching a schedule space -------------*- C++ -*-===//
//
// Several agents share one pool of elites under one trial budget:
//   evolutionary  mutation and crossover of elite schedules over the legal
//                 space (a mutation that breaks a constraint is repaired by
//                 one change of another knob where one can);
//   model-greedy  the policy's top pick among many sampled legal candidates;
//   explorer      a random legal candidate.
// The first trial is the op's default schedule, then up to `sketchShare` of
// the budget goes to the space's sketches (coupled structural variants,
// ScheduleSketch), best-scored first. Every `retrainEvery` trials
// the scorer is told about the trials so far (the policy retrains). Only
// legal candidates are measured, none twice; everything is deterministic for
// a given seed.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_SEARCH_H
#define HKG_TUNER_SEARCH_H

#include "hkg/Tuner/Features.h"
#include "hkg/Tuner/Policy.h"

#include <functional>
#include <optional>
#include <random>
#include <set>
#include <vector>

namespace mlir::hkg::tuner {

using Rng = std::mt19937_64;

/// Where candidates come from.
class CandidateSpace {
public:
  virtual ~CandidateSpace();
  virtual const ScheduleSpace &getSpace() const = 0;
  /// The default schedule, fully resolved.
  virtual KnobMap getDefault() const = 0;
  virtual bool isLegal(const KnobMap &knobs) const = 0;
  /// A random legal candidate (rejection sampling over the knobs by
  /// default); nullopt when none was found.
  virtual std::optional<KnobMap> sample(Rng &rng) const;
  /// The space's sketches (ScheduleSketch) as full schedules: each sketch's
  /// knobs over the default's. Possibly illegal; none by default.
  virtual std::vector<KnobMap> getSketches() const { return {}; }
};

/// The legal space of a live op on a target (verifySchedule).
class OpCandidateSpace final : public CandidateSpace {
public:
  OpCandidateSpace(HkgKernelOpInterface op, const TargetInfo &target);
  const ScheduleSpace &getSpace() const override { return space; }
  KnobMap getDefault() const override { return defaultKnobs; }
  bool isLegal(const KnobMap &knobs) const override;
  std::vector<KnobMap> getSketches() const override;

private:
  HkgKernelOpInterface op;
  const TargetInfo &target;
  ScheduleSpace space;
  KnobMap defaultKnobs;
};

/// A fixed list of candidates (the recorded ones, for replayed search).
class ListCandidateSpace final : public CandidateSpace {
public:
  ListCandidateSpace(ScheduleSpace space, std::vector<KnobMap> candidates,
                     KnobMap defaultKnobs);
  const ScheduleSpace &getSpace() const override { return space; }
  KnobMap getDefault() const override { return defaultKnobs; }
  bool isLegal(const KnobMap &knobs) const override;
  std::optional<KnobMap> sample(Rng &rng) const override;

private:
  ScheduleSpace space;
  std::vector<KnobMap> candidates;
  std::set<std::string> keys;
  KnobMap defaultKnobs;
};

struct Trial {
  KnobMap schedule;
  Measurement measurement;
  /// "default", "evolutionary", "model-greedy", "explorer", or "database"
  /// for a trial from SearchOptions::history.
  std::string agent;
};

/// Ranks candidates for the model-greedy agent.
class Scorer {
public:
  virtual ~Scorer();
  /// Higher is better; empty when the scorer cannot score yet.
  virtual std::vector<float> score(llvm::ArrayRef<KnobMap> candidates) = 0;
  /// Called every `retrainEvery` trials with every trial so far.
  virtual void update(llvm::ArrayRef<Trial> trials) {}
};

/// Scores with a prior model (trained on other ops, may be null) plus a
/// model retrained on this op's own trials; the two are combined by rank.
class PolicyScorer final : public Scorer {
public:
  PolicyScorer(const Policy *prior, OpContext context, PolicyOptions options);
  std::vector<float> score(llvm::ArrayRef<KnobMap> candidates) override;
  void update(llvm::ArrayRef<Trial> trials) override;

private:
  const Policy *prior;
  OpContext context;
  PolicyOptions options;
  std::unique_ptr<Policy> local;
  size_t numLocalTrials = 0;
};

struct SearchResult;

struct SearchOptions {
  unsigned budget = 32;
  uint64_t seed = 0;
  unsigned retrainEvery = 8;
  unsigned eliteSize = 8;
  /// Candidates the model-greedy agent samples per pick.
  unsigned greedySamples = 256;
  /// Random candidates the explorer draws per pick when there is a model;
  /// it takes one of the best-scored quarter at random (1: pure random).
  unsigned explorerSamples = 8;
  /// Relative weights of the agents (evolutionary, model-greedy, explorer).
  /// Without a scorer, model-greedy's share goes to the others.
  double evolutionaryWeight = 0.4, greedyWeight = 0.4, explorerWeight = 0.2;
  /// Measure the default schedule first.
  bool startWithDefault = true;
  /// Most trials, as a share of the budget, spent on the space's sketches
  /// right after the default (best-scored first when there is a model).
  double sketchShare = 0.25;
  /// Trials measured before (e.g. by a killed run, from the database): they
  /// seed the elites and the model and count against the budget, so a
  /// resumed run only measures what is left.
  std::vector<Trial> history;
  /// Asked after each trial the search measures (not for the history): true
  /// ends the search before the budget is spent, e.g. once the best trial is
  /// as fast as a copy of the op's bytes (hkg-tune --stop-at-copy).
  std::function<bool(const SearchResult &)> stopWhen;
  /// Candidates proposed at a time before any of them is measured: the
  /// agents pick `batch` new legal candidates from the same state, `prefetch`
  /// is told about them, then they are measured one by one (the retraining
  /// and `stopWhen` still checked after each). 1: propose, measure, repeat.
  /// A larger batch lets a measurer compile the next candidates while it
  /// runs one; each pick knows fewer results.
  unsigned batch = 1;
  /// Told the candidates of each batch (and of each group of sketches)
  /// before they are measured, when there are several.
  std::function<void(llvm::ArrayRef<KnobMap>)> prefetch;

  /// Uniform random sampling instead of a search: the explorer alone (with
  /// no scorer, a random legal candidate per pick) and no sketches; the
  /// default first as `startWithDefault` says. A sampled dataset
  /// (hkg-tune --random-sample) and the offline evaluation's random
  /// baseline.
  void sampleUniformly() {
    evolutionaryWeight = 0;
    greedyWeight = 0;
    explorerWeight = 1;
    sketchShare = 0;
  }
};

struct SearchResult {
  std::vector<Trial> trials;
  /// Index of the fastest ok trial.
  std::optional<size_t> best;
  /// SearchOptions::stopWhen ended the search.
  bool stopped = false;
};

using MeasureFn = std::function<Measurement(const KnobMap &)>;

/// Runs the agents until `budget` trials were measured or no new legal
/// candidate can be found. `scorer` may be null (no model).
SearchResult runSearch(const CandidateSpace &space, const MeasureFn &measure,
                       Scorer *scorer, const SearchOptions &options);

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_SEARCH_H
