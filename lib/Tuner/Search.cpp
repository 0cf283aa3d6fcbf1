//===- Search.cpp - evolutionary, model-greedy and explorer agents --------===//

#include "hkg/Tuner/Search.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

CandidateSpace::~CandidateSpace() = default;
Scorer::~Scorer() = default;

/// A uniform integer in [0, n); `n` > 0. Written out (rather than
/// std::uniform_int_distribution) so results do not depend on the library.
static size_t pick(Rng &rng, size_t n) { return rng() % n; }

/// A uniform double in [0, 1).
static double unit(Rng &rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

std::optional<KnobMap> CandidateSpace::sample(Rng &rng) const {
  const ScheduleSpace &space = getSpace();
  for (unsigned attempt = 0; attempt < 256; ++attempt) {
    KnobMap knobs;
    for (const KnobSpec &k : space.knobs)
      knobs[k.name] = k.legalValues[pick(rng, k.legalValues.size())];
    if (isLegal(knobs))
      return knobs;
  }
  return std::nullopt;
}

OpCandidateSpace::OpCandidateSpace(HkgKernelOpInterface op,
                                   const TargetInfo &target)
    : op(op), target(target), space(op.getScheduleSpace(target)) {
  defaultKnobs =
      resolveKnobs(space, knobsFromAttr(op.getDefaultSchedule(target)));
}

bool OpCandidateSpace::isLegal(const KnobMap &knobs) const {
  return isLegalSchedule(op, knobs, target);
}

std::vector<KnobMap> OpCandidateSpace::getSketches() const {
  std::vector<KnobMap> sketches;
  for (const ScheduleSketch &sketch : space.sketches) {
    KnobMap k = defaultKnobs;
    for (const auto &[name, value] : sketch.knobs)
      k[name] = value;
    sketches.push_back(std::move(k));
  }
  return sketches;
}

ListCandidateSpace::ListCandidateSpace(ScheduleSpace space,
                                       std::vector<KnobMap> list,
                                       KnobMap defaultKnobs)
    : space(std::move(space)), candidates(std::move(list)),
      defaultKnobs(std::move(defaultKnobs)) {
  for (const KnobMap &k : candidates)
    keys.insert(formatKnobs(k));
}

bool ListCandidateSpace::isLegal(const KnobMap &knobs) const {
  return keys.count(formatKnobs(knobs));
}

std::optional<KnobMap> ListCandidateSpace::sample(Rng &rng) const {
  if (candidates.empty())
    return std::nullopt;
  return candidates[pick(rng, candidates.size())];
}

//===----------------------------------------------------------------------===//
// PolicyScorer
//===----------------------------------------------------------------------===//

PolicyScorer::PolicyScorer(const Policy *prior, OpContext context,
                           PolicyOptions options)
    : prior(prior), context(std::move(context)), options(options) {}

/// Replaces scores by their rank in [0, 1] (ties share the lower rank).
static std::vector<float> rankNormalize(const std::vector<float> &scores) {
  size_t n = scores.size();
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return scores[a] < scores[b]; });
  std::vector<float> ranks(n, 0);
  for (size_t r = 0; r < n; ++r) {
    size_t first = r;
    while (first > 0 && scores[order[first - 1]] == scores[order[r]])
      --first;
    ranks[order[r]] =
        n > 1 ? static_cast<float>(first) / static_cast<float>(n - 1) : 0;
  }
  return ranks;
}

std::vector<float> PolicyScorer::score(llvm::ArrayRef<KnobMap> candidates) {
  if (!prior && !local)
    return {};
  std::vector<FeatureMap> rows;
  rows.reserve(candidates.size());
  for (const KnobMap &k : candidates)
    rows.push_back(context.getFeatures(k));
  std::vector<float> total(candidates.size(), 0);
  auto addScores = [&](const Policy &p, float weight) {
    llvm::Expected<std::vector<float>> s = p.score(rows);
    if (!s) {
      llvm::consumeError(s.takeError());
      return;
    }
    std::vector<float> ranks = rankNormalize(*s);
    for (size_t i = 0; i < ranks.size(); ++i)
      total[i] += weight * ranks[i];
  };
  if (prior)
    addScores(*prior, 1.0f);
  if (local) {
    // Trust the op's own model more as its trials accumulate.
    float weight =
        prior ? std::min(1.0f, static_cast<float>(numLocalTrials) / 32.0f)
              : 1.0f;
    addScores(*local, weight);
  }
  return total;
}

void PolicyScorer::update(llvm::ArrayRef<Trial> trials) {
  double best = std::numeric_limits<double>::infinity();
  for (const Trial &t : trials)
    if (t.measurement.isOk())
      best = std::min(best, t.measurement.medianUs);
  TrainingGroup g;
  bool distinct = false;
  for (const Trial &t : trials) {
    g.rows.push_back(context.getFeatures(t.schedule));
    g.labels.push_back(rankingLabel(t.measurement, best));
    distinct |= g.labels.back() != g.labels.front();
  }
  if (!distinct)
    return;
  PolicyOptions localOptions = options;
  localOptions.rounds = std::min(options.rounds, 20u);
  localOptions.maxDepth = std::min(options.maxDepth, 4u);
  llvm::Expected<std::unique_ptr<Policy>> trained =
      Policy::train(g, localOptions);
  if (!trained) {
    llvm::consumeError(trained.takeError());
    return;
  }
  local = std::move(*trained);
  numLocalTrials = trials.size();
}

//===----------------------------------------------------------------------===//
// The agents
//===----------------------------------------------------------------------===//

namespace {
class SearchState {
public:
  SearchState(const CandidateSpace &space, const MeasureFn &measure,
              Scorer *scorer, const SearchOptions &options)
      : space(space), measure(measure), scorer(scorer), options(options),
        rng(options.seed) {}

  SearchResult run();

private:
  bool isNew(const KnobMap &k) const { return !measured.count(formatKnobs(k)); }
  bool tryMeasure(const KnobMap &k, llvm::StringRef agent);
  /// Measures candidates known to be new and legal, in order, stopping
  /// early when the search is stopped; the prefetch hook is told first.
  void measureAll(llvm::ArrayRef<std::pair<KnobMap, std::string>> batch);
  /// One candidate: measured and recorded, the scorer retrained and
  /// `stopWhen` asked as due.
  void measureOne(const KnobMap &k, llvm::StringRef agent);
  void record(Trial t);
  std::optional<KnobMap> explore();
  std::optional<KnobMap> evolve();
  std::optional<KnobMap> greedy();
  KnobMap mutate(KnobMap k);
  void repair(KnobMap &k, const std::set<std::string> &changed);
  void trySketches();
  const Trial &tournament();

  const CandidateSpace &space;
  const MeasureFn &measure;
  Scorer *scorer;
  const SearchOptions &options;
  Rng rng;
  std::set<std::string> measured;
  SearchResult result;
  /// Indices of the fastest ok trials, fastest first.
  std::vector<size_t> elites;
};
} // namespace

bool SearchState::tryMeasure(const KnobMap &k, llvm::StringRef agent) {
  if (!isNew(k) || !space.isLegal(k))
    return false;
  measureOne(k, agent);
  return true;
}

void SearchState::measureOne(const KnobMap &k, llvm::StringRef agent) {
  record(Trial{k, measure(k), agent.str()});
  if (scorer && options.retrainEvery &&
      result.trials.size() % options.retrainEvery == 0)
    scorer->update(result.trials);
  if (options.stopWhen && options.stopWhen(result))
    result.stopped = true;
}

void SearchState::measureAll(
    llvm::ArrayRef<std::pair<KnobMap, std::string>> batch) {
  if (batch.size() > 1 && options.prefetch) {
    std::vector<KnobMap> schedules;
    for (const auto &[k, agent] : batch)
      schedules.push_back(k);
    options.prefetch(schedules);
  }
  for (const auto &[k, agent] : batch) {
    if (result.stopped)
      break;
    measureOne(k, agent);
  }
}

void SearchState::record(Trial t) {
  measured.insert(formatKnobs(t.schedule));
  result.trials.push_back(std::move(t));
  size_t index = result.trials.size() - 1;
  const Measurement &m = result.trials.back().measurement;
  if (m.isOk()) {
    if (!result.best ||
        m.medianUs < result.trials[*result.best].measurement.medianUs)
      result.best = index;
    elites.push_back(index);
    std::stable_sort(elites.begin(), elites.end(), [&](size_t a, size_t b) {
      return result.trials[a].measurement.medianUs <
             result.trials[b].measurement.medianUs;
    });
    if (elites.size() > options.eliteSize)
      elites.pop_back();
  }
}

std::optional<KnobMap> SearchState::explore() {
  // Random new legal candidates. With a model, `explorerSamples` of them are
  // drawn and one of the best-scored quarter is taken at random: the
  // explorer still roams the whole space but skips what the model already
  // ranks among the worst. A purely random explorer spends a large share of
  // its trials on schedules far slower than the default (e.g. GEMMs without
  // matrix cores) that the model can rule out, and reaches the best no
  // sooner for it; the offline replay behind this is in docs/Tuning.md.
  unsigned wanted = scorer ? std::max(1u, options.explorerSamples) : 1u;
  std::vector<KnobMap> pool;
  std::set<std::string> seen;
  for (unsigned attempt = 0; attempt < 32 * wanted && pool.size() < wanted;
       ++attempt) {
    std::optional<KnobMap> k = space.sample(rng);
    if (k && isNew(*k) && seen.insert(formatKnobs(*k)).second)
      pool.push_back(std::move(*k));
  }
  if (pool.empty())
    return std::nullopt;
  if (pool.size() == 1)
    return pool.front();
  std::vector<float> scores = scorer->score(pool);
  if (scores.size() != pool.size())
    return pool[pick(rng, pool.size())];
  std::vector<size_t> order(pool.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return scores[a] != scores[b] ? scores[a] > scores[b] : a < b;
  });
  return pool[order[pick(rng, std::max<size_t>(1, pool.size() / 4))]];
}

KnobMap SearchState::mutate(KnobMap k) {
  const ScheduleSpace &s = space.getSpace();
  unsigned changes = unit(rng) < 0.3 ? 2 : 1;
  std::set<std::string> changed;
  for (unsigned c = 0; c < changes; ++c) {
    const KnobSpec &spec = s.knobs[pick(rng, s.knobs.size())];
    const auto &legal = spec.legalValues;
    if (legal.size() < 2)
      continue;
    auto it = llvm::find(legal, k[spec.name]);
    size_t at = it == legal.end() ? 0 : it - legal.begin();
    bool isInt = std::holds_alternative<int64_t>(legal.front());
    if (isInt && unit(rng) < 0.7) {
      // Step to a neighbouring value.
      if (at == 0)
        at = 1;
      else if (at + 1 == legal.size())
        at = at - 1;
      else
        at = unit(rng) < 0.5 ? at - 1 : at + 1;
    } else {
      size_t other = pick(rng, legal.size() - 1);
      at = other >= at ? other + 1 : other;
    }
    k[spec.name] = legal[at];
    changed.insert(spec.name);
  }
  if (!changed.empty() && !space.isLegal(k))
    repair(k, changed);
  return k;
}

void SearchState::repair(KnobMap &k, const std::set<std::string> &changed) {
  // One change of another knob that makes the child legal, at random among
  // all that do: with wgmma, tile_n = 256 is legal only with the 64x256
  // instruction (or twice the warpgroups along N), so the step to it is two
  // knobs at once. Left illegal (and discarded by the caller) when no
  // single change helps.
  std::vector<std::pair<const KnobSpec *, size_t>> fixes;
  for (const KnobSpec &spec : space.getSpace().knobs) {
    if (changed.count(spec.name))
      continue;
    KnobValue original = k[spec.name];
    for (size_t i = 0; i < spec.legalValues.size(); ++i) {
      if (spec.legalValues[i] == original)
        continue;
      k[spec.name] = spec.legalValues[i];
      if (space.isLegal(k))
        fixes.emplace_back(&spec, i);
    }
    k[spec.name] = original;
  }
  if (fixes.empty())
    return;
  auto [spec, i] = fixes[pick(rng, fixes.size())];
  k[spec->name] = spec->legalValues[i];
}

const Trial &SearchState::tournament() {
  size_t a = elites[pick(rng, elites.size())];
  size_t b = elites[pick(rng, elites.size())];
  return result.trials[std::min(a, b, [&](size_t x, size_t y) {
    return result.trials[x].measurement.medianUs <
           result.trials[y].measurement.medianUs;
  })];
}

std::optional<KnobMap> SearchState::evolve() {
  if (elites.empty())
    return explore();
  for (unsigned attempt = 0; attempt < 32; ++attempt) {
    KnobMap child = tournament().schedule;
    if (elites.size() >= 2 && unit(rng) < 0.5) {
      const KnobMap &other = tournament().schedule;
      for (auto &[name, value] : child)
        if (unit(rng) < 0.5) {
          auto it = other.find(name);
          if (it != other.end())
            value = it->second;
        }
    }
    child = mutate(std::move(child));
    if (isNew(child) && space.isLegal(child))
      return child;
  }
  return explore();
}

std::optional<KnobMap> SearchState::greedy() {
  // Half random legal candidates, half mutations of elites.
  std::vector<KnobMap> pool;
  std::set<std::string> seen;
  unsigned wanted = std::max(1u, options.greedySamples);
  for (unsigned i = 0; i < wanted * 2 && pool.size() < wanted; ++i) {
    std::optional<KnobMap> k;
    if (!elites.empty() && i % 2 == 1) {
      KnobMap m = mutate(tournament().schedule);
      if (space.isLegal(m))
        k = std::move(m);
    } else {
      k = space.sample(rng);
    }
    if (!k || !isNew(*k) || !seen.insert(formatKnobs(*k)).second)
      continue;
    pool.push_back(std::move(*k));
  }
  if (pool.empty())
    return std::nullopt;
  std::vector<float> scores = scorer->score(pool);
  if (scores.size() != pool.size())
    return pool[pick(rng, pool.size())];
  size_t best = 0;
  for (size_t i = 1; i < pool.size(); ++i)
    if (scores[i] > scores[best])
      best = i;
  return pool[best];
}

void SearchState::trySketches() {
  auto cap = static_cast<size_t>(options.sketchShare * options.budget);
  std::vector<KnobMap> pool;
  std::set<std::string> seen;
  for (KnobMap &k : space.getSketches())
    if (isNew(k) && space.isLegal(k) && seen.insert(formatKnobs(k)).second)
      pool.push_back(std::move(k));
  if (cap == 0 || pool.empty())
    return;
  std::vector<size_t> order(pool.size());
  std::iota(order.begin(), order.end(), 0);
  if (scorer) {
    std::vector<float> scores = scorer->score(pool);
    if (scores.size() == pool.size())
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return scores[a] > scores[b];
      });
  }
  // Every pooled sketch is new and legal: the first `cap` that the budget
  // leaves room for are measured, `batch` at a time.
  size_t room = std::min(cap, options.budget - result.trials.size());
  std::vector<std::pair<KnobMap, std::string>> chosen;
  for (size_t i : order) {
    if (chosen.size() >= room)
      break;
    chosen.emplace_back(pool[i], "sketch");
  }
  size_t step = std::max(1u, options.batch);
  for (size_t at = 0; at < chosen.size() && !result.stopped; at += step)
    measureAll(
        llvm::ArrayRef(chosen).slice(at, std::min(step, chosen.size() - at)));
}

SearchResult SearchState::run() {
  if (options.budget == 0)
    return result;
  for (const Trial &t : options.history) {
    if (result.trials.size() >= options.budget)
      break;
    if (!isNew(t.schedule) || !space.isLegal(t.schedule))
      continue;
    record(t);
  }
  if (scorer && !result.trials.empty())
    scorer->update(result.trials);
  if (options.startWithDefault && result.trials.size() < options.budget)
    tryMeasure(space.getDefault(), "default");
  if (result.stopped)
    return result;
  trySketches();
  double greedyWeight = scorer ? options.greedyWeight : 0.0;
  double total =
      options.evolutionaryWeight + greedyWeight + options.explorerWeight;
  unsigned misses = 0;
  while (result.trials.size() < options.budget && misses < 64 &&
         !result.stopped) {
    // Up to `batch` new legal candidates, picked from the same state (each
    // marked as taken, so the batch holds no duplicate), then measured.
    size_t room = std::min<size_t>(std::max(1u, options.batch),
                                   options.budget - result.trials.size());
    std::vector<std::pair<KnobMap, std::string>> batch;
    while (batch.size() < room && misses < 64) {
      double r = unit(rng) * total;
      std::optional<KnobMap> k;
      llvm::StringRef agent;
      if (r < options.evolutionaryWeight) {
        agent = "evolutionary";
        k = evolve();
      } else if (r < options.evolutionaryWeight + greedyWeight) {
        agent = "model-greedy";
        k = greedy();
      } else {
        agent = "explorer";
        k = explore();
      }
      if (k && isNew(*k) && space.isLegal(*k)) {
        measured.insert(formatKnobs(*k));
        batch.emplace_back(std::move(*k), agent.str());
        misses = 0;
        continue;
      }
      ++misses;
    }
    measureAll(batch);
  }
  return result;
}

SearchResult mlir::hkg::tuner::runSearch(const CandidateSpace &space,
                                         const MeasureFn &measure,
                                         Scorer *scorer,
                                         const SearchOptions &options) {
  return SearchState(space, measure, scorer, options).run();
}
