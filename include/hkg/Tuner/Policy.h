//===- Policy.h - the learned ranking model ---------------------*- C++ -*-===//
//
// An XGBoost ranking model (rank:pairwise by default, or rank:ndcg) scoring
// candidates of one op on one target: higher is faster. Trained from
// records grouped per (op signature, target), with label = best time in the
// group / time (failed candidates 0); saved as XGBoost JSON with the feature
// names stored as a model attribute, so a saved model is one file.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_POLICY_H
#define HKG_TUNER_POLICY_H

#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Features.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace mlir::hkg::tuner {

struct PolicyOptions {
  /// "rank:pairwise" or "rank:ndcg".
  std::string objective = "rank:pairwise";
  unsigned rounds = 100;
  unsigned maxDepth = 6;
  double eta = 0.3;
  /// Trees grown per round, each on a random subsample of the rows and of
  /// the features (a boosted random forest): > 1 averages out the
  /// high-variance splits a few dozen training groups allow.
  unsigned parallelTrees = 1;
  /// Row and per-split feature subsampling (1: all).
  double subsample = 1.0;
  double colsampleByNode = 1.0;
  /// Smallest hessian sum in a leaf (XGBoost's min_child_weight).
  double minChildWeight = 1.0;
  /// Train on the `dflt.*` features too (knobs against the op's default
  /// schedule). Off by default: across many shapes (the shipped model) they
  /// tell the model where the author's heuristic sits, but within one op
  /// (the search's small per-op models) the default is fixed, so they only
  /// restate the knobs and make a small model rank worse (docs/Tuning.md).
  bool defaultRelativeFeatures = false;
  unsigned seed = 0;
};

/// The candidates of one (op signature, target) with their labels.
struct TrainingGroup {
  std::vector<FeatureMap> rows;
  std::vector<float> labels;
};

class Policy {
public:
  ~Policy();
  Policy(const Policy &) = delete;
  Policy &operator=(const Policy &) = delete;

  /// Trains on `groups` (groups with fewer than two rows are skipped).
  static llvm::Expected<std::unique_ptr<Policy>>
  train(llvm::ArrayRef<TrainingGroup> groups, const PolicyOptions &options);
  /// Loads a model saved by save(); errors name the file.
  static llvm::Expected<std::unique_ptr<Policy>> load(llvm::StringRef path);
  /// Saves as XGBoost JSON (the path should end in .json).
  llvm::Error save(llvm::StringRef path) const;

  /// Scores rows; higher is predicted faster.
  llvm::Expected<std::vector<float>>
  score(llvm::ArrayRef<FeatureMap> rows) const;

  llvm::ArrayRef<std::string> getFeatureNames() const { return names; }

private:
  Policy() = default;
  void setNames(std::vector<std::string> featureNames);

  void *booster = nullptr;
  std::vector<std::string> names;
  llvm::StringMap<unsigned> index;
};

/// Groups `records` per (signature, target) and computes their features,
/// parsing signatures through `catalog`. Records whose signature does not
/// parse or whose target is unknown are skipped (counted in `numSkipped`).
/// With `statDropout`, a record with stats also appears without them, so the
/// model learns to rank candidates that are not compiled yet.
std::vector<TrainingGroup>
buildTrainingGroups(llvm::ArrayRef<TuningRecord> records, OpCatalog &catalog,
                    bool statDropout = true, unsigned *numSkipped = nullptr);

/// Label of a measurement in a group whose best ok time is `bestUs`.
float rankingLabel(const Measurement &m, double bestUs);

/// Knobs of `knobs` whose value differs from `defaults` (knobs `defaults`
/// lacks do not count).
unsigned countChangedKnobs(const KnobMap &knobs, const KnobMap &defaults);

/// The most knobs of the op's default schedule a zero-shot pick may change.
/// The default is the op author's heuristic for the shape and target; far
/// from it a model trained on a few dozen shapes extrapolates, and its
/// unrestricted picks can run far slower than the default they replace. 3
/// was chosen over 1, 2, 4 and no limit on re-shuffled splits, not on the CI
/// split (docs/Tuning.md).
inline constexpr unsigned kZeroShotMaxChangedKnobs = 3;

/// The zero-shot pick: the index of the highest score among `candidates`
/// that change at most `maxChangedKnobs` knobs of `defaults` (the highest
/// overall when none does).
size_t pickZeroShot(llvm::ArrayRef<float> scores,
                    llvm::ArrayRef<KnobMap> candidates, const KnobMap &defaults,
                    unsigned maxChangedKnobs = kZeroShotMaxChangedKnobs);

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_POLICY_H
