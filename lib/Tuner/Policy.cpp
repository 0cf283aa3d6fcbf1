//===- Policy.cpp - XGBoost ranking model over tuner features -------------===//

#include "hkg/Tuner/Policy.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <xgboost/c_api.h>

#include <cmath>
#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;
using llvm::Error;
using llvm::Expected;

/// The booster attribute holding the feature names (a JSON array).
static constexpr const char *kNamesAttr = "hkg_feature_names";

static Error xgbError(StringRef what) {
  return llvm::createStringError(what.str() + ": " + XGBGetLastError());
}

Policy::~Policy() {
  if (booster)
    XGBoosterFree(booster);
}

void Policy::setNames(std::vector<std::string> featureNames) {
  names = std::move(featureNames);
  index.clear();
  for (auto [i, n] : llvm::enumerate(names))
    index[n] = static_cast<unsigned>(i);
}

namespace {
/// A dense float matrix owned by XGBoost, freed on scope exit.
struct DMatrix {
  DMatrixHandle handle = nullptr;
  ~DMatrix() {
    if (handle)
      XGDMatrixFree(handle);
  }
};
} // namespace

/// Lays `rows` out densely over `index`; missing values are NaN.
static std::vector<float> toDense(llvm::ArrayRef<FeatureMap> rows,
                                  const llvm::StringMap<unsigned> &index,
                                  size_t numCols) {
  std::vector<float> data(rows.size() * numCols,
                          std::numeric_limits<float>::quiet_NaN());
  for (auto [r, row] : llvm::enumerate(rows))
    for (const auto &[name, value] : row) {
      auto it = index.find(name);
      if (it != index.end())
        data[r * numCols + it->second] = static_cast<float>(value);
    }
  return data;
}

Expected<std::unique_ptr<Policy>>
Policy::train(llvm::ArrayRef<TrainingGroup> groups,
              const PolicyOptions &options) {
  // Each feature's first value and whether another one occurs. A schedule
  // feature (knob.*, and dflt.*: the knob against the default) with one
  // value wherever it is present (a knob the records never vary, such as
  // one added to a space after they were measured) carries no information
  // and is left out, so that adding a knob does not change the model
  // trained on older records. Other features are kept as they are.
  std::map<std::string, std::pair<double, bool>> seen;
  std::vector<FeatureMap> rows;
  std::vector<float> labels;
  std::vector<unsigned> groupSizes;
  bool ndcg = options.objective == "rank:ndcg";
  for (const TrainingGroup &g : groups) {
    if (g.rows.size() < 2)
      continue;
    for (const FeatureMap &row : g.rows)
      for (const auto &entry : row) {
        if (!options.defaultRelativeFeatures &&
            StringRef(entry.first).starts_with("dflt."))
          continue;
        auto [it, inserted] =
            seen.try_emplace(entry.first, entry.second, false);
        if (!inserted && it->second.first != entry.second)
          it->second.second = true;
      }
    rows.insert(rows.end(), g.rows.begin(), g.rows.end());
    for (float l : g.labels)
      // rank:ndcg wants integer relevance grades.
      labels.push_back(ndcg ? std::round(15.0f * l) : l);
    groupSizes.push_back(static_cast<unsigned>(g.rows.size()));
  }
  if (rows.empty())
    return llvm::createStringError(
        "no training data: need a group with at least two records");

  std::unique_ptr<Policy> policy(new Policy());
  // The interactions of such a knob with others (mix.a+b, mix.dim0-a,
  // mix.last-a-b, mix.elements+a-b: Features.cpp) are shifted copies of
  // other features, present only for the ops that have the knob, which
  // splits would pick instead of the originals: they go too.
  llvm::StringSet<> constantKnobs;
  for (const auto &[name, values] : seen) {
    StringRef knob = name;
    if (!values.second && knob.consume_front("knob."))
      constantKnobs.insert(knob);
  }
  auto mixesConstantKnob = [&](StringRef name) {
    if (!name.consume_front("mix."))
      return false;
    while (!name.empty()) {
      size_t end = name.find_first_of("+-");
      if (constantKnobs.contains(name.take_front(end)))
        return true;
      name = end == StringRef::npos ? StringRef() : name.drop_front(end + 1);
    }
    return false;
  };
  std::vector<std::string> names;
  for (const auto &[name, values] : seen) {
    StringRef n = name;
    bool schedule = n.starts_with("knob.") || n.starts_with("dflt.");
    if ((schedule && !values.second) || mixesConstantKnob(n))
      continue;
    names.push_back(name);
  }
  policy->setNames(std::move(names));
  size_t numCols = policy->names.size();
  std::vector<float> data = toDense(rows, policy->index, numCols);

  DMatrix dtrain;
  if (XGDMatrixCreateFromMat(data.data(), rows.size(), numCols,
                             std::numeric_limits<float>::quiet_NaN(),
                             &dtrain.handle) != 0)
    return xgbError("cannot build the training matrix");
  if (XGDMatrixSetFloatInfo(dtrain.handle, "label", labels.data(),
                            labels.size()) != 0 ||
      XGDMatrixSetUIntInfo(dtrain.handle, "group", groupSizes.data(),
                           groupSizes.size()) != 0)
    return xgbError("cannot set labels and groups");

  BoosterHandle booster;
  if (XGBoosterCreate(&dtrain.handle, 1, &booster) != 0)
    return xgbError("cannot create the booster");
  policy->booster = booster;
  std::string depth = std::to_string(options.maxDepth);
  std::string eta = llvm::formatv("{0}", options.eta).str();
  std::string seed = std::to_string(options.seed);
  std::string parallelTrees =
      std::to_string(std::max(1u, options.parallelTrees));
  std::string subsample = llvm::formatv("{0}", options.subsample).str();
  std::string colsample = llvm::formatv("{0}", options.colsampleByNode).str();
  std::string minChild = llvm::formatv("{0}", options.minChildWeight).str();
  const std::pair<const char *, const char *> params[] = {
      {"objective", options.objective.c_str()},
      {"eval_metric", "ndcg"},
      {"tree_method", "hist"},
      {"max_depth", depth.c_str()},
      {"eta", eta.c_str()},
      {"seed", seed.c_str()},
      {"num_parallel_tree", parallelTrees.c_str()},
      {"subsample", subsample.c_str()},
      {"colsample_bynode", colsample.c_str()},
      {"min_child_weight", minChild.c_str()},
      {"nthread", "1"},
      {"verbosity", "0"},
  };
  for (auto [name, value] : params)
    if (XGBoosterSetParam(booster, name, value) != 0)
      return xgbError(std::string("cannot set ") + name);
  for (unsigned i = 0; i < options.rounds; ++i)
    if (XGBoosterUpdateOneIter(booster, static_cast<int>(i), dtrain.handle) !=
        0)
      return xgbError("training failed");

  llvm::json::Array nameArray;
  for (const std::string &n : policy->names)
    nameArray.push_back(n);
  std::string namesJson =
      llvm::formatv("{0}", llvm::json::Value(std::move(nameArray))).str();
  if (XGBoosterSetAttr(booster, kNamesAttr, namesJson.c_str()) != 0)
    return xgbError("cannot store the feature names");
  return policy;
}

Expected<std::unique_ptr<Policy>> Policy::load(StringRef path) {
  std::unique_ptr<Policy> policy(new Policy());
  BoosterHandle booster;
  if (XGBoosterCreate(nullptr, 0, &booster) != 0)
    return xgbError("cannot create a booster");
  policy->booster = booster;
  XGBoosterSetParam(booster, "nthread", "1");
  if (XGBoosterLoadModel(booster, path.str().c_str()) != 0)
    return llvm::createStringError("cannot load policy model '" + path.str() +
                                   "': " + XGBGetLastError());
  const char *names = nullptr;
  int success = 0;
  if (XGBoosterGetAttr(booster, kNamesAttr, &names, &success) != 0 || !success)
    return llvm::createStringError("policy model '" + path.str() +
                                   "' has no '" + kNamesAttr +
                                   "' attribute; it was not saved by hkg");
  Expected<llvm::json::Value> parsed = llvm::json::parse(names);
  if (!parsed)
    return llvm::createStringError(
        "policy model '" + path.str() +
        "': bad feature names: " + llvm::toString(parsed.takeError()));
  std::vector<std::string> list;
  if (const llvm::json::Array *array = parsed->getAsArray())
    for (const llvm::json::Value &v : *array)
      if (std::optional<StringRef> s = v.getAsString())
        list.push_back(s->str());
  if (list.empty())
    return llvm::createStringError("policy model '" + path.str() +
                                   "' lists no features");
  policy->setNames(std::move(list));
  return policy;
}

Error Policy::save(StringRef path) const {
  if (XGBoosterSaveModel(booster, path.str().c_str()) != 0)
    return llvm::createStringError("cannot save policy model '" + path.str() +
                                   "': " + XGBGetLastError());
  return Error::success();
}

Expected<std::vector<float>>
Policy::score(llvm::ArrayRef<FeatureMap> rows) const {
  if (rows.empty())
    return std::vector<float>();
  std::vector<float> data = toDense(rows, index, names.size());
  DMatrix dm;
  if (XGDMatrixCreateFromMat(data.data(), rows.size(), names.size(),
                             std::numeric_limits<float>::quiet_NaN(),
                             &dm.handle) != 0)
    return xgbError("cannot build the prediction matrix");
  bst_ulong length = 0;
  const float *out = nullptr;
  if (XGBoosterPredict(booster, dm.handle, 0, 0, 0, &length, &out) != 0)
    return xgbError("prediction failed");
  return std::vector<float>(out, out + length);
}

float mlir::hkg::tuner::rankingLabel(const Measurement &m, double bestUs) {
  if (!m.isOk() || !(m.medianUs > 0) || !(bestUs > 0))
    return 0.0f;
  return static_cast<float>(bestUs / m.medianUs);
}

unsigned mlir::hkg::tuner::countChangedKnobs(const KnobMap &knobs,
                                             const KnobMap &defaults) {
  unsigned changed = 0;
  for (const auto &[name, value] : knobs) {
    auto it = defaults.find(name);
    changed += it != defaults.end() && it->second != value;
  }
  return changed;
}

size_t mlir::hkg::tuner::pickZeroShot(llvm::ArrayRef<float> scores,
                                      llvm::ArrayRef<KnobMap> candidates,
                                      const KnobMap &defaults,
                                      unsigned maxChangedKnobs) {
  std::optional<size_t> best;
  for (size_t i = 0; i < scores.size() && i < candidates.size(); ++i)
    if (countChangedKnobs(candidates[i], defaults) <= maxChangedKnobs &&
        (!best || scores[i] > scores[*best]))
      best = i;
  if (best)
    return *best;
  size_t top = 0;
  for (size_t i = 1; i < scores.size(); ++i)
    if (scores[i] > scores[top])
      top = i;
  return top;
}

std::vector<TrainingGroup>
mlir::hkg::tuner::buildTrainingGroups(llvm::ArrayRef<TuningRecord> records,
                                      OpCatalog &catalog, bool statDropout,
                                      unsigned *numSkipped) {
  // (signature, target) -> record indices, in first-seen order.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> byKey;
  std::vector<std::pair<std::string, std::string>> order;
  for (auto [i, r] : llvm::enumerate(records)) {
    auto key = std::make_pair(r.signature, r.target);
    auto [it, inserted] = byKey.try_emplace(key);
    if (inserted)
      order.push_back(key);
    it->second.push_back(i);
  }
  unsigned skipped = 0;
  std::vector<TrainingGroup> groups;
  for (const auto &key : order) {
    const std::vector<size_t> &members = byKey[key];
    HkgKernelOpInterface op = catalog.get(key.first);
    const TargetInfo *target = lookupTarget(key.second);
    if (!op || !target) {
      skipped += members.size();
      continue;
    }
    OpContext context = OpContext::get(op, *target);
    double best = std::numeric_limits<double>::infinity();
    for (size_t i : members)
      if (records[i].measurement.isOk())
        best = std::min(best, records[i].measurement.medianUs);
    TrainingGroup g;
    for (size_t i : members) {
      const TuningRecord &r = records[i];
      float label = rankingLabel(r.measurement, best);
      g.rows.push_back(context.getFeatures(r.schedule, &r.measurement.stats));
      g.labels.push_back(label);
      if (statDropout && !r.measurement.stats.empty()) {
        g.rows.push_back(context.getFeatures(r.schedule));
        g.labels.push_back(label);
      }
    }
    groups.push_back(std::move(g));
  }
  if (numSkipped)
    *numSkipped = skipped;
  return groups;
}
