//===- TunerTest.cpp - signatures, database, policy and search ------------===//

#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Tuner/Confirm.h"
#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Passes.h"
#include "hkg/Tuner/Policy.h"
#include "hkg/Tuner/Search.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

namespace {
constexpr const char *kSoftmax = R"mlir(
  func.func @f(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 256>}
        : tensor<64x8192xf32> -> tensor<64x8192xf32>
    return %0 : tensor<64x8192xf32>
  }
  func.func @g(%y: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    %0 = hkg.softmax %y axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
    return %0 : tensor<64x8192xf32>
  }
)mlir";

class TunerTest : public ::testing::Test {
protected:
  TunerTest() {
    loadTunerDialects(ctx);
    module = parseSourceString<ModuleOp>(kSoftmax, &ctx);
    EXPECT_TRUE(module);
    module->walk([&](HkgKernelOpInterface op) { ops.push_back(op); });
    target = lookupTarget("sm_90");
  }

  std::string tempPath(StringRef name) {
    SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("hkg-tuner", dir));
    SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  SmallVector<HkgKernelOpInterface> ops;
  const TargetInfo *target;
};

/// A deterministic fake device: time from the knobs; `threads = 1024` is
/// "wrong" (and would otherwise be the fastest).
class FakeMeasurer final : public Measurer {
public:
  explicit FakeMeasurer(HkgKernelOpInterface op, const TargetInfo &target)
      : op(op), target(target) {}
  Measurement measure(const MeasureRequest &request) override {
    ++calls;
    EXPECT_TRUE(isLegalSchedule(op, *request.schedule, target))
        << formatKnobs(*request.schedule);
    const KnobMap &k = *request.schedule;
    Measurement m;
    int64_t threads = std::get<int64_t>(k.at("threads"));
    int64_t vw = std::get<int64_t>(k.at("vector_width"));
    if (threads == 1024) {
      m.status = MeasureStatus::Wrong;
      m.maxRelErr = 1;
      return m;
    }
    m.status = MeasureStatus::Ok;
    m.medianUs = 100.0 / std::log2(2.0 * threads) / vw +
                 (std::get<std::string>(k.at("row_cache")) == "none" ? 5 : 0);
    m.spread = 0.01;
    m.stats["registers"] = 32;
    return m;
  }
  llvm::StringRef getName() const override { return "fake"; }
  unsigned calls = 0;

private:
  HkgKernelOpInterface op;
  const TargetInfo &target;
};
} // namespace

TEST_F(TunerTest, SignatureIgnoresScheduleAndNamesAndParsesBack) {
  ASSERT_EQ(ops.size(), 2u);
  std::string a = getOpSignature(ops[0]), b = getOpSignature(ops[1]);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.find("schedule"), std::string::npos);
  EXPECT_EQ(a.find('\n'), std::string::npos);
  EXPECT_NE(a.find("\"hkg.softmax\""), std::string::npos);
  OpCatalog catalog(ctx);
  HkgKernelOpInterface parsed = catalog.get(a);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(getOpSignature(parsed), a);
  EXPECT_FALSE(catalog.get("not mlir"));
}

TEST_F(TunerTest, DynamicSignatureKeysBySizeBucket) {
  auto signatureOf = [&](StringRef text) {
    OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
    EXPECT_TRUE(m);
    std::string sig;
    m->walk([&](HkgKernelOpInterface op) { sig = getOpSignature(op); });
    return sig;
  };
  auto softmax = [](StringRef attrs) {
    return ("func.func @f(%x: tensor<?x8192xbf16>) -> tensor<?x8192xbf16> {"
            " %0 = hkg.softmax %x axis(1) " +
            attrs +
            " : tensor<?x8192xbf16> -> tensor<?x8192xbf16>"
            " return %0 : tensor<?x8192xbf16> }")
        .str();
  };
  std::string none = signatureOf(softmax(""));
  std::string hint3000 = signatureOf(softmax("{hkg.size_hint = 3000 : i64}"));
  std::string hint4096 = signatureOf(softmax("{hkg.size_hint = 4096 : i64}"));
  std::string hint64 = signatureOf(softmax("{hkg.size_hint = 64 : i64}"));
  // The default hint (4096) and 3000 share the bucket 4096; 64 is another.
  EXPECT_NE(none.find("hkg.size_hint = 4096 : i64"), std::string::npos) << none;
  EXPECT_EQ(none, hint3000);
  EXPECT_EQ(none, hint4096);
  EXPECT_NE(none, hint64);
  EXPECT_NE(hint64.find("hkg.size_hint = 64 : i64"), std::string::npos);
  EXPECT_EQ(getSizeBucket(1), 1);
  EXPECT_EQ(getSizeBucket(4097), 8192);
  // A static op's signature has no hint.
  EXPECT_EQ(getOpSignature(ops[0]).find("size_hint"), std::string::npos);
}

TEST_F(TunerTest, KnobsRoundTrip) {
  KnobMap k = {{"threads", int64_t(256)}, {"row_cache", std::string("lds")}};
  EXPECT_EQ(formatKnobs(k), "row_cache=lds,threads=256");
  EXPECT_EQ(knobsFromAttr(knobsToAttr(&ctx, k)), k);
  auto back = knobsFromJson(llvm::json::Value(knobsToJson(k)));
  ASSERT_TRUE(bool(back));
  EXPECT_EQ(*back, k);
  EXPECT_FALSE(bool(knobsFromJson(llvm::json::Object{{"x", 1.5}})));
}

TEST_F(TunerTest, DatabaseStoresLooksUpAndRoundTripsJsonl) {
  std::string path = tempPath("tune.sqlite");
  auto db = TuningDatabase::open(path, /*create=*/true);
  ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
  std::string sig = getOpSignature(ops[0]);
  auto record = [&](int64_t threads, MeasureStatus status, double us) {
    TuningRecord r;
    r.op = "hkg.softmax";
    r.signature = sig;
    r.target = "sm_90";
    r.schedule = {{"threads", threads}};
    r.measurement.status = status;
    r.measurement.medianUs = us;
    r.measurement.stats["vgpr"] = 40;
    r.date = "2026-11-29T20:00:00Z";
    return r;
  };
  ASSERT_FALSE(bool((*db)->insert(record(256, MeasureStatus::Ok, 20))));
  ASSERT_FALSE(bool(
      (*db)->insertAll({record(512, MeasureStatus::Ok, 10),
                        record(1024, MeasureStatus::Wrong,
                               std::numeric_limits<double>::quiet_NaN())})));
  auto best = (*db)->getOkRecordsByTime(sig, "sm_90");
  ASSERT_TRUE(bool(best));
  ASSERT_EQ(best->size(), 2u);
  EXPECT_EQ(best->front().schedule.at("threads"), KnobValue(int64_t(512)));
  EXPECT_EQ(best->front().measurement.stats.at("vgpr"), 40);
  auto found = (*db)->lookup(sig, "sm_90", {{"threads", int64_t(1024)}});
  ASSERT_TRUE(bool(found) && found->has_value());
  EXPECT_EQ((*found)->measurement.status, MeasureStatus::Wrong);
  EXPECT_TRUE(std::isnan((*found)->measurement.medianUs));

  auto all = (*db)->getAllRecords();
  ASSERT_TRUE(bool(all));
  std::string jsonl = printRecordsJsonl(*all);
  auto parsed = parseRecordsJsonl(jsonl);
  ASSERT_TRUE(bool(parsed));
  EXPECT_EQ(printRecordsJsonl(*parsed), jsonl);
  auto bad = parseRecordsJsonl("{\"signature\": \"x\"}\n");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("line 1"), std::string::npos);
}

TEST_F(TunerTest, DatabaseRejectsMissingAndCorruptFiles) {
  std::string missing = tempPath("missing.sqlite");
  auto db = TuningDatabase::open(missing, /*create=*/false);
  ASSERT_FALSE(bool(db));
  EXPECT_NE(llvm::toString(db.takeError()).find("does not exist"),
            std::string::npos);
  std::string corrupt = tempPath("corrupt.sqlite");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(corrupt, ec);
    os << "this is not a database, just text long enough to be read\n";
  }
  auto bad = TuningDatabase::open(corrupt, /*create=*/false);
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("not a database"),
            std::string::npos);
}

TEST_F(TunerTest, SearchMeasuresOnlyLegalNewCandidatesAndIsDeterministic) {
  OpCandidateSpace space(ops[1], *target);
  FakeMeasurer fake(ops[1], *target);
  std::string sig = getOpSignature(ops[1]);
  MeasureFn measure = [&](const KnobMap &k) {
    return fake.measure({ops[1], sig, target, &k});
  };
  SearchOptions options;
  options.budget = 24;
  options.seed = 7;
  SearchResult a = runSearch(space, measure, nullptr, options);
  SearchResult b = runSearch(space, measure, nullptr, options);
  ASSERT_EQ(a.trials.size(), 24u);
  ASSERT_EQ(b.trials.size(), 24u);
  std::set<std::string> seen;
  for (size_t i = 0; i < a.trials.size(); ++i) {
    EXPECT_EQ(a.trials[i].schedule, b.trials[i].schedule);
    EXPECT_TRUE(seen.insert(formatKnobs(a.trials[i].schedule)).second);
  }
  EXPECT_EQ(a.trials.front().agent, "default");
  EXPECT_EQ(a.trials.front().schedule, space.getDefault());
  ASSERT_TRUE(a.best.has_value());
  const Trial &best = a.trials[*a.best];
  EXPECT_TRUE(best.measurement.isOk());
  for (const Trial &t : a.trials)
    if (t.measurement.isOk())
      EXPECT_LE(best.measurement.medianUs, t.measurement.medianUs);
}

TEST_F(TunerTest, BatchedSearchPrefetchesEachBatchThenMeasuresItInOrder) {
  OpCandidateSpace space(ops[1], *target);
  FakeMeasurer fake(ops[1], *target);
  std::string sig = getOpSignature(ops[1]);
  std::vector<KnobMap> measuredOrder;
  MeasureFn measure = [&](const KnobMap &k) {
    measuredOrder.push_back(k);
    return fake.measure({ops[1], sig, target, &k});
  };
  std::vector<std::vector<KnobMap>> batches;
  SearchOptions options;
  options.budget = 23;
  options.seed = 7;
  options.batch = 4;
  options.prefetch = [&](llvm::ArrayRef<KnobMap> b) {
    // Told before any of them is measured.
    for (const KnobMap &k : b)
      EXPECT_FALSE(llvm::is_contained(measuredOrder, k));
    batches.emplace_back(b.begin(), b.end());
  };
  SearchResult r = runSearch(space, measure, nullptr, options);
  ASSERT_EQ(r.trials.size(), 23u);
  // Every prefetched candidate is measured, in the order told, and only
  // new legal candidates are (none twice).
  std::vector<KnobMap> prefetched;
  for (const std::vector<KnobMap> &b : batches) {
    EXPECT_GE(b.size(), 2u);
    EXPECT_LE(b.size(), 4u);
    llvm::append_range(prefetched, b);
  }
  std::set<std::string> seen;
  for (const Trial &t : r.trials) {
    EXPECT_TRUE(space.isLegal(t.schedule));
    EXPECT_TRUE(seen.insert(formatKnobs(t.schedule)).second);
  }
  EXPECT_EQ(r.trials.front().agent, "default");
  // The default, then the agents' batches of 4 (a softmax has no
  // sketches), the last one cut to the budget: 1 + 5 x 4 + 2.
  EXPECT_EQ(prefetched.size(), 22u);
  EXPECT_TRUE(std::equal(prefetched.begin(), prefetched.end(),
                         measuredOrder.begin() + 1));
  // Deterministic for a seed, like the unbatched search.
  batches.clear();
  measuredOrder.clear();
  SearchResult again = runSearch(space, measure, nullptr, options);
  ASSERT_EQ(again.trials.size(), r.trials.size());
  for (size_t i = 0; i < r.trials.size(); ++i)
    EXPECT_EQ(again.trials[i].schedule, r.trials[i].schedule);
}

TEST_F(TunerTest, SearchEndsWhenStopWhenSaysSo) {
  OpCandidateSpace space(ops[1], *target);
  // Every trial is 1 us faster than the one before: 100, 99, 98...
  unsigned calls = 0;
  MeasureFn measure = [&](const KnobMap &) {
    Measurement m;
    m.status = MeasureStatus::Ok;
    m.medianUs = 100.0 - calls++;
    return m;
  };
  SearchOptions options;
  options.budget = 24;
  options.seed = 7;
  // Stop once the best is at 95 us or under: after the 6th trial.
  options.stopWhen = [](const SearchResult &r) {
    return r.best && r.trials[*r.best].measurement.medianUs <= 95.0;
  };
  SearchResult r = runSearch(space, measure, nullptr, options);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.trials.size(), 6u);
  EXPECT_EQ(calls, 6u);
  // A condition the default already meets ends the search after it, before
  // the sketches and the agents; the history does not count as a trial the
  // search measured, so a recorded 50 us trial does not stop it first.
  calls = 0;
  Measurement fast;
  fast.status = MeasureStatus::Ok;
  fast.medianUs = 50.0;
  KnobMap other = r.trials[1].schedule;
  ASSERT_NE(other, space.getDefault());
  options.history = {Trial{other, fast, "database"}};
  options.stopWhen = [](const SearchResult &r) { return r.best.has_value(); };
  r = runSearch(space, measure, nullptr, options);
  EXPECT_TRUE(r.stopped);
  ASSERT_EQ(r.trials.size(), 2u);
  EXPECT_EQ(r.trials[1].agent, "default");
  EXPECT_EQ(calls, 1u);
  // Without a condition the whole budget is spent.
  options.history.clear();
  options.stopWhen = nullptr;
  r = runSearch(space, measure, nullptr, options);
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(r.trials.size(), 24u);
}

namespace {
/// Ranks every row_cache = none candidate below every other one.
class NoneIsWorstScorer final : public Scorer {
public:
  std::vector<float> score(llvm::ArrayRef<KnobMap> candidates) override {
    std::vector<float> s;
    for (const KnobMap &k : candidates)
      s.push_back(std::get<std::string>(k.at("row_cache")) == "none" ? -1.f
                                                                      : 1.f);
    return s;
  }
};
} // namespace

TEST_F(TunerTest, ExplorerWithAModelSkipsWhatItRanksWorst) {
  // Only the explorer runs; with a scorer it draws explorerSamples random
  // candidates and takes one of the best-scored quarter, so the candidates
  // the model ranks worst become rare; with explorerSamples = 1 (or no
  // model) it is uniform over the space.
  OpCandidateSpace space(ops[1], *target);
  FakeMeasurer fake(ops[1], *target);
  std::string sig = getOpSignature(ops[1]);
  MeasureFn measure = [&](const KnobMap &k) {
    return fake.measure({ops[1], sig, target, &k});
  };
  auto countNone = [&](unsigned samples, uint64_t seed) {
    NoneIsWorstScorer scorer;
    SearchOptions options;
    options.budget = 24;
    options.seed = seed;
    options.startWithDefault = false;
    options.evolutionaryWeight = 0;
    options.greedyWeight = 0;
    options.explorerWeight = 1;
    options.explorerSamples = samples;
    SearchResult r = runSearch(space, measure, &scorer, options);
    EXPECT_EQ(r.trials.size(), 24u);
    unsigned none = 0;
    for (const Trial &t : r.trials) {
      EXPECT_EQ(t.agent, "explorer");
      none += std::get<std::string>(t.schedule.at("row_cache")) == "none";
    }
    return none;
  };
  unsigned vetoed = 0, uniform = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    vetoed += countNone(8, seed);
    uniform += countNone(1, seed);
  }
  // row_cache = none is most of this op's legal space (register and LDS
  // caches of 8192 f32 are mostly over their limits), so uniform draws pick
  // it more than a third of the time; keeping the best 2 of 8 draws picks
  // it only when 7 or 8 of them are `none` (and more often as the other
  // candidates run out over 24 trials).
  EXPECT_GT(uniform, 96u / 3);
  EXPECT_LT(vetoed * 2, uniform);
}

namespace {
/// Three 0/1 knobs that are legal only all equal: no single or double
/// change leads from one legal schedule to the other, and nothing can be
/// sampled, so only the evolutionary agent moves.
class CoupledSpace final : public CandidateSpace {
public:
  CoupledSpace() {
    for (const char *name : {"a", "b", "c"})
      space.addInt(name, {0, 1}, 0, "coupled");
  }
  const ScheduleSpace &getSpace() const override { return space; }
  KnobMap getDefault() const override {
    return {{"a", int64_t(0)}, {"b", int64_t(0)}, {"c", int64_t(0)}};
  }
  bool isLegal(const KnobMap &k) const override {
    return k.at("a") == k.at("b") && k.at("b") == k.at("c");
  }
  std::optional<KnobMap> sample(Rng &) const override { return std::nullopt; }

private:
  ScheduleSpace space;
};
} // namespace

TEST(SearchTest, MutationsRepairABrokenConstraintWithOneMoreChange) {
  // A mutation changes one or two knobs; the third is changed by the
  // repair, or the child is illegal and never measured.
  CoupledSpace space;
  MeasureFn measure = [](const KnobMap &k) {
    Measurement m;
    m.status = MeasureStatus::Ok;
    m.medianUs = std::get<int64_t>(k.at("a")) ? 1.0 : 2.0;
    return m;
  };
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    SearchOptions options;
    options.budget = 2;
    options.seed = seed;
    options.evolutionaryWeight = 1;
    options.explorerWeight = 0;
    SearchResult r = runSearch(space, measure, nullptr, options);
    ASSERT_EQ(r.trials.size(), 2u) << "seed " << seed;
    EXPECT_EQ(r.trials[1].agent, "evolutionary");
    KnobMap all1 = {{"a", int64_t(1)}, {"b", int64_t(1)}, {"c", int64_t(1)}};
    EXPECT_EQ(r.trials[1].schedule, all1);
  }
}

/// The (last) kernel op of `source`, parsed into `module`, which keeps it
/// alive; null when the source does not parse.
static HkgKernelOpInterface parseKernelOp(MLIRContext &ctx, const char *source,
                                          OwningOpRef<ModuleOp> &module) {
  loadTunerDialects(ctx);
  module = parseSourceString<ModuleOp>(source, &ctx);
  HkgKernelOpInterface op;
  if (module)
    module->walk([&](HkgKernelOpInterface o) { op = o; });
  return op;
}

/// A fake device on which `winner` runs in 90 us, `dflt` in 100 and every
/// other schedule in 110.
static MeasureFn fastestAt(KnobMap winner, KnobMap dflt) {
  return
      [winner = std::move(winner), dflt = std::move(dflt)](const KnobMap &k) {
        Measurement m;
        m.status = MeasureStatus::Ok;
        m.medianUs = k == winner ? 90.0 : k == dflt ? 100.0 : 110.0;
        return m;
      };
}

// 1024 x 4096: fewer 128 x 256 tiles than sm_90's SMs, so the default
// keeps 128 x 128 tiles of wgmma_64x128x16 (MatmulOp::getDefaultSchedule).
static constexpr const char *kGemm = R"mlir(
  func.func @gemm(%a: tensor<1024x4096xbf16>, %b: tensor<4096x4096xbf16>)
      -> tensor<1024x4096xbf16> {
    %0 = hkg.matmul %a, %b : tensor<1024x4096xbf16>, tensor<4096x4096xbf16>
        -> tensor<1024x4096xbf16>
    return %0 : tensor<1024x4096xbf16>
  }
)mlir";

TEST(SearchTest, MatmulSketchesAreMeasuredRightAfterTheDefault) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  HkgKernelOpInterface op = parseKernelOp(ctx, kGemm, module);
  ASSERT_TRUE(op);
  const TargetInfo *sm90 = lookupTarget("sm_90");
  OpCandidateSpace space(op, *sm90);
  ASSERT_EQ(std::get<std::string>(space.getDefault().at("mma")),
            "wgmma_64x128x16");
  // A schedule four knobs away from the default (wider tiles with the wider
  // wgmma instruction, deeper pipeline, one wgmma group pending), which no
  // single-knob step from the default reaches through faster schedules, is
  // a legal sketch.
  KnobMap wide = space.getDefault();
  wide["tile_n"] = int64_t(256);
  wide["mma"] = std::string("wgmma_64x256x16");
  wide["stages"] = int64_t(4);
  wide["wgmma_pending"] = int64_t(1);
  std::vector<KnobMap> sketches = space.getSketches();
  EXPECT_TRUE(llvm::is_contained(sketches, wide));
  EXPECT_TRUE(space.isLegal(wide));
  unsigned legal = 0;
  for (const KnobMap &k : sketches)
    legal += space.isLegal(k);
  EXPECT_GE(legal, 6u);
  // A fake device where that schedule is the fastest and every single-knob
  // step from the default is slower than the default.
  MeasureFn measure = fastestAt(wide, space.getDefault());
  SearchOptions options;
  options.budget = 16;
  options.seed = 5;
  SearchResult r = runSearch(space, measure, nullptr, options);
  ASSERT_EQ(r.trials.size(), 16u);
  EXPECT_EQ(r.trials[0].agent, "default");
  // 16 x sketchShare = 4 sketch trials, in the space's order without a
  // model, each legal.
  for (size_t i = 1; i <= 4; ++i) {
    EXPECT_EQ(r.trials[i].agent, "sketch") << i;
    EXPECT_TRUE(space.isLegal(r.trials[i].schedule));
  }
  EXPECT_NE(r.trials[5].agent, "sketch");
  // With the share raised to all the budget, every legal sketch is tried
  // and the fastest wins.
  options.sketchShare = 1.0;
  options.budget = 64;
  r = runSearch(space, measure, nullptr, options);
  ASSERT_TRUE(r.best.has_value());
  EXPECT_EQ(r.trials[*r.best].schedule, wide);
  EXPECT_EQ(r.trials[*r.best].agent, "sketch");
}

// Causal attention, D128, 512 tokens: the sm_90 default is warpgroup MMA
// over 128 x 128 tiles (AttentionOp::getScheduleSpace).
static constexpr const char *kAttention = R"mlir(
  func.func @attention(%q: tensor<1x4x512x128xbf16>)
      -> tensor<1x4x512x128xbf16> {
    %0 = hkg.attention %q, %q, %q causal : tensor<1x4x512x128xbf16>,
        tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>
        -> tensor<1x4x512x128xbf16>
    return %0 : tensor<1x4x512x128xbf16>
  }
)mlir";

TEST(SearchTest, AttentionSketchesReachCoupledWgmmaSchedules) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  HkgKernelOpInterface op = parseKernelOp(ctx, kAttention, module);
  ASSERT_TRUE(op);
  const TargetInfo *sm90 = lookupTarget("sm_90");
  OpCandidateSpace space(op, *sm90);
  KnobMap dflt = space.getDefault();
  ASSERT_EQ(std::get<std::string>(dflt.at("mma")), "wgmma_64x128x16");
  ASSERT_EQ(std::get<int64_t>(dflt.at("tile_q")), 128);
  ASSERT_EQ(std::get<int64_t>(dflt.at("wgmma_pipeline")), 1);
  // One warpgroup of 64 x 64 tiles with the pipelined key loop: three
  // knobs from the default that only go together (waves = tile_q / 16);
  // and the default's tiles with the plain key loop and with the other
  // overlap (two knobs: the two overlaps exclude each other).
  KnobMap small = dflt;
  small["tile_q"] = int64_t(64);
  small["waves"] = int64_t(4);
  small["tile_kv"] = int64_t(64);
  KnobMap plain = dflt;
  plain["wgmma_pipeline"] = int64_t(0);
  KnobMap overlapped = plain;
  overlapped["wgmma_overlap"] = int64_t(1);
  std::vector<KnobMap> sketches = space.getSketches();
  for (const KnobMap &k : {small, plain, overlapped}) {
    EXPECT_TRUE(llvm::is_contained(sketches, k));
    EXPECT_TRUE(space.isLegal(k));
  }
  // No sketch sets both ways of overlapping the softmax.
  for (const KnobMap &k : sketches)
    EXPECT_FALSE(std::get<int64_t>(k.at("wgmma_overlap")) == 1 &&
                 std::get<int64_t>(k.at("wgmma_pipeline")) == 1);
  // The search measures them right after the default: on a fake device
  // where the small pipelined schedule is the fastest and every single-knob
  // step is slower than the default, it is found.
  MeasureFn measure = fastestAt(small, dflt);
  SearchOptions options;
  options.budget = 32;
  options.seed = 5;
  options.sketchShare = 1.0;
  SearchResult r = runSearch(space, measure, nullptr, options);
  ASSERT_TRUE(r.best.has_value());
  EXPECT_EQ(r.trials[*r.best].schedule, small);
  EXPECT_EQ(r.trials[*r.best].agent, "sketch");
}

TEST_F(TunerTest, KilledRunResumesFromTheDatabase) {
  HkgKernelOpInterface op = ops[1];
  std::string sig = getOpSignature(op);
  OpCandidateSpace space(op, *target);
  SearchOptions options;
  options.seed = 3;
  auto run = [&](TuningDatabase &db, FakeMeasurer &fake, unsigned budget) {
    RecordingMeasurer recording(fake, db);
    MeasureFn measure = [&](const KnobMap &k) {
      return recording.measure({op, sig, target, &k});
    };
    options.budget = budget;
    return runSearch(space, measure, nullptr, options);
  };
  // Uninterrupted: 16 trials.
  auto fresh = TuningDatabase::open(tempPath("a.sqlite"), true);
  ASSERT_TRUE(bool(fresh));
  FakeMeasurer f1(op, *target);
  SearchResult whole = run(**fresh, f1, 16);
  EXPECT_EQ(f1.calls, 16u);
  // "Killed" after 6, then run again with the full budget.
  std::string path = tempPath("b.sqlite");
  {
    auto db = TuningDatabase::open(path, true);
    ASSERT_TRUE(bool(db));
    FakeMeasurer f2(op, *target);
    run(**db, f2, 6);
    EXPECT_EQ(f2.calls, 6u);
  }
  auto db = TuningDatabase::open(path, false);
  ASSERT_TRUE(bool(db));
  FakeMeasurer f3(op, *target);
  SearchResult resumed = run(**db, f3, 16);
  EXPECT_EQ(f3.calls, 10u);
  ASSERT_EQ(resumed.trials.size(), whole.trials.size());
  for (size_t i = 0; i < whole.trials.size(); ++i)
    EXPECT_EQ(resumed.trials[i].schedule, whole.trials[i].schedule);
  auto all = (*db)->getAllRecords();
  ASSERT_TRUE(bool(all));
  EXPECT_EQ(all->size(), 16u);
}

TEST_F(TunerTest, PolicyLearnsARankingAndSurvivesSaveLoad) {
  HkgKernelOpInterface op = ops[1];
  OpContext context = OpContext::get(op, *target);
  OpCandidateSpace space(op, *target);
  FakeMeasurer fake(op, *target);
  std::string sig = getOpSignature(op);
  Rng rng(3);
  std::vector<KnobMap> candidates;
  std::set<std::string> seen;
  while (candidates.size() < 80) {
    std::optional<KnobMap> k = space.sample(rng);
    ASSERT_TRUE(k.has_value());
    if (seen.insert(formatKnobs(*k)).second)
      candidates.push_back(*k);
  }
  std::vector<TuningRecord> records;
  for (const KnobMap &k : candidates) {
    TuningRecord r;
    r.op = "hkg.softmax";
    r.signature = sig;
    r.target = "sm_90";
    r.schedule = k;
    r.measurement = fake.measure({op, sig, target, &k});
    records.push_back(r);
  }
  OpCatalog catalog(ctx);
  std::vector<TrainingGroup> groups = buildTrainingGroups(records, catalog);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].rows.size(), 2 * records.size() - 0u -
                                       static_cast<size_t>(llvm::count_if(
                                           records, [](const TuningRecord &r) {
                                             return r.measurement.stats.empty();
                                           })));
  PolicyOptions options;
  auto policy = Policy::train(groups, options);
  ASSERT_TRUE(bool(policy)) << llvm::toString(policy.takeError());

  // Ranking on the training candidates: the top pick is correct and within
  // 10% of the best.
  std::vector<FeatureMap> rows;
  for (const KnobMap &k : candidates)
    rows.push_back(context.getFeatures(k));
  auto scores = (*policy)->score(rows);
  ASSERT_TRUE(bool(scores));
  size_t top =
      std::max_element(scores->begin(), scores->end()) - scores->begin();
  double best = std::numeric_limits<double>::infinity();
  for (const TuningRecord &r : records)
    if (r.measurement.isOk())
      best = std::min(best, r.measurement.medianUs);
  ASSERT_TRUE(records[top].measurement.isOk());
  EXPECT_LE(records[top].measurement.medianUs, 1.1 * best);

  std::string path = tempPath("model.json");
  ASSERT_FALSE(bool((*policy)->save(path)));
  auto loaded = Policy::load(path);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ((*loaded)->getFeatureNames(), (*policy)->getFeatureNames());
  auto again = (*loaded)->score(rows);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(*again, *scores);
  EXPECT_FALSE(bool(Policy::load(tempPath("none.json"))));
}

// A knob the records never vary (one added to a space after they were
// measured) is left out of the model with its default-relative feature and
// its interactions; the model is then the one trained without it.
TEST_F(TunerTest, PolicyLeavesOutKnobsTheRecordsNeverVary) {
  auto groupsWith = [](bool extraKnob) {
    std::vector<TrainingGroup> groups;
    for (int g = 0; g < 3; ++g) {
      TrainingGroup t;
      for (int i = 0; i < 6; ++i) {
        FeatureMap f;
        f["op.log2_bytes"] = 20 + g;
        f["target.amd"] = 0; // constant, but not a schedule feature: kept
        f["knob.threads"] = 5 + i % 3;
        f["knob.unroll"] = i % 2;
        f["knob.row_cache=none"] = i % 2;
        f["dflt.threads"] = i % 3;
        f["mix.threads+unroll"] = 5 + i % 3 + i % 2;
        f["mix.elements+threads-unroll"] = 20 + g + 5 + i % 3 - i % 2;
        if (extraKnob) {
          f["knob.bulk_store"] = -1;
          f["dflt.bulk_store"] = 0;
          f["mix.bulk_store+threads"] = -1 + 5 + i % 3;
          f["mix.dim0-bulk_store"] = 14;
          f["mix.last-threads-bulk_store"] = 13 - 5 - i % 3 + 1;
          f["mix.elements+threads-bulk_store"] = 20 + g + 5 + i % 3 + 1;
        }
        t.rows.push_back(f);
        t.labels.push_back(static_cast<float>((i * 7 + g) % 6) / 5.0f);
      }
      groups.push_back(std::move(t));
    }
    return groups;
  };
  PolicyOptions options;
  options.defaultRelativeFeatures = true;
  auto without = Policy::train(groupsWith(false), options);
  auto with = Policy::train(groupsWith(true), options);
  ASSERT_TRUE(bool(without)) << llvm::toString(without.takeError());
  ASSERT_TRUE(bool(with)) << llvm::toString(with.takeError());
  std::vector<std::string> expected = {"dflt.threads",
                                       "knob.row_cache=none",
                                       "knob.threads",
                                       "knob.unroll",
                                       "mix.elements+threads-unroll",
                                       "mix.threads+unroll",
                                       "op.log2_bytes",
                                       "target.amd"};
  EXPECT_EQ(std::vector<std::string>((*with)->getFeatureNames().begin(),
                                     (*with)->getFeatureNames().end()),
            expected);
  EXPECT_EQ((*with)->getFeatureNames(), (*without)->getFeatureNames());
  // Scored on rows with the knob's features, the same scores.
  std::vector<FeatureMap> rows = groupsWith(true)[1].rows;
  auto a = (*with)->score(rows), b = (*without)->score(rows);
  ASSERT_TRUE(bool(a) && bool(b));
  EXPECT_EQ(*a, *b);
}

TEST_F(TunerTest, ReplayMeasurerAnswersOnlyWhatWasRecorded) {
  ReplayMeasurer replay;
  KnobMap k = {{"threads", int64_t(256)}};
  Measurement m;
  m.status = MeasureStatus::Ok;
  m.medianUs = 12;
  replay.add("sig", "sm_90", k, m);
  EXPECT_TRUE(replay.contains("sig", "sm_90", k));
  EXPECT_EQ(replay.measure({nullptr, "sig", target, &k}).medianUs, 12);
  KnobMap other = {{"threads", int64_t(512)}};
  EXPECT_EQ(replay.measure({nullptr, "sig", target, &other}).status,
            MeasureStatus::CompileError);
  EXPECT_EQ(replay.getNumCalls(), 2u);
}

TEST(MeasurerFactory, NoFactoryMeansNoDeviceAndAFactoryIsCalled) {
  const TargetInfo *t = lookupTarget("gfx942");
  std::string why;
  setMeasurerFactory(nullptr);
  EXPECT_EQ(createDeviceMeasurer(*t, why), nullptr);
  EXPECT_FALSE(why.empty());
  setMeasurerFactory([](const TargetInfo &, std::string &whyNot) {
    whyNot = "no HIP device";
    return std::unique_ptr<Measurer>();
  });
  why.clear();
  EXPECT_EQ(createDeviceMeasurer(*t, why), nullptr);
  EXPECT_EQ(why, "no HIP device");
  setMeasurerFactory(nullptr);
}

namespace {
/// Times softmax candidates from their knobs; counts calls across instances.
class CountingDevice final : public Measurer {
public:
  explicit CountingDevice(unsigned &calls) : calls(calls) {}
  Measurement measure(const MeasureRequest &request) override {
    ++calls;
    EXPECT_TRUE(request.op);
    EXPECT_TRUE(
        isLegalSchedule(request.op, *request.schedule, *request.target));
    const KnobMap &k = *request.schedule;
    Measurement m;
    m.status = MeasureStatus::Ok;
    m.medianUs = 1000.0 / std::get<int64_t>(k.at("threads")) +
                 10.0 / std::get<int64_t>(k.at("vector_width"));
    m.stats["registers"] = 32;
    return m;
  }
  llvm::StringRef getName() const override { return "fake-device"; }

private:
  unsigned &calls;
};
} // namespace

TEST_F(TunerTest, AutotunePassMeasuresThroughTheFactoryAndResumes) {
  unsigned calls = 0;
  setMeasurerFactory([&](const TargetInfo &, std::string &) {
    return std::make_unique<CountingDevice>(calls);
  });
  std::string db = tempPath("pass.sqlite");
  auto runPass = [&](unsigned budget) -> std::string {
    OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(R"mlir(
      func.func @g(%y: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
        %0 = hkg.softmax %y axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
        return %0 : tensor<64x8192xf32>
      })mlir",
                                                          &ctx);
    EXPECT_TRUE(m);
    PassManager pm(&ctx);
    HkgAutotunePassOptions options;
    options.chip = "sm_90";
    options.budget = budget;
    options.db = db;
    options.seed = 5;
    pm.addPass(createHkgAutotunePass(options));
    std::string remarks;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      remarks += d.str() + "\n";
      return success();
    });
    EXPECT_TRUE(succeeded(pm.run(*m)));
    std::string schedule;
    m->walk([&](HkgKernelOpInterface op) {
      llvm::raw_string_ostream os(schedule);
      os << op.getScheduleAttrOrNull();
    });
    return schedule + "\n" + remarks;
  };
  // Every search trial is measured once; then the confirmation (on by
  // default, as in hkg-tune) re-measures the default and the 3 fastest
  // others 3 times each: 12 more calls, none of them a record.
  constexpr unsigned kConfirmCalls = 4 * 3;
  std::string first = runPass(12);
  EXPECT_EQ(calls, 12u + kConfirmCalls);
  EXPECT_NE(first.find("hkg-autotune: measured 12 candidates on fake-device "
                       "and reused 0 from the database"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("#hkg.schedule<"), std::string::npos);
  EXPECT_NE(first.find(", confirmed "), std::string::npos) << first;
  // The same run again is answered by the database: no search trial is
  // re-measured (only the finalists are confirmed again) and the same
  // schedule wins.
  std::string again = runPass(12);
  EXPECT_EQ(calls, 12u + 2 * kConfirmCalls);
  EXPECT_NE(again.find("measured 0 candidates on fake-device and reused 12 "
                       "from the database"),
            std::string::npos)
      << again;
  EXPECT_EQ(StringRef(first).split('\n').first,
            StringRef(again).split('\n').first);
  auto opened = TuningDatabase::open(db, false);
  ASSERT_TRUE(bool(opened));
  auto all = (*opened)->getAllRecords();
  ASSERT_TRUE(bool(all));
  EXPECT_EQ(all->size(), 12u);
  // A bigger budget measures only the difference.
  runPass(20);
  EXPECT_EQ(calls, 20u + 3 * kConfirmCalls);
  auto after = (*opened)->getAllRecords();
  ASSERT_TRUE(bool(after));
  EXPECT_EQ(after->size(), 20u);
  setMeasurerFactory(nullptr);
}

TEST(ConfirmTest, TheWinnerIsTheLowestRemeasuredMedian) {
  auto knobs = [](int64_t v) { return KnobMap{{"unroll", v}}; };
  auto trial = [&](int64_t v, MeasureStatus status, double us) {
    Trial t;
    t.schedule = knobs(v);
    t.measurement.status = status;
    t.measurement.medianUs = us;
    return t;
  };
  // The search: the default (v = 0) at 100 us; v = 1 looked fastest by luck;
  // v = 4 is ok but not among the 3 fastest others; v = 5 was wrong.
  SearchResult result;
  result.trials = {trial(0, MeasureStatus::Ok, 100.0),
                   trial(1, MeasureStatus::Ok, 95.0),
                   trial(5, MeasureStatus::Wrong, NAN),
                   trial(2, MeasureStatus::Ok, 97.0),
                   trial(3, MeasureStatus::Ok, 98.0),
                   trial(4, MeasureStatus::Ok, 99.0)};
  // Re-measured: v = 1 is really 101 us, v = 2 96 us, v = 3 fails once.
  std::map<int64_t, std::vector<double>> times = {
      {0, {100.5, 99.5, 100.0}},
      {1, {101.0, 102.0, 100.5}},
      {2, {96.5, 95.5, 96.0}},
      {3, {90.0, -1.0, 90.0}}};
  std::vector<int64_t> order;
  std::map<int64_t, size_t> calls;
  MeasureFn measure = [&](const KnobMap &k) {
    int64_t v = std::get<int64_t>(k.at("unroll"));
    order.push_back(v);
    Measurement m;
    double us = times.at(v).at(calls[v]++);
    m.status = us < 0 ? MeasureStatus::Wrong : MeasureStatus::Ok;
    m.medianUs = us < 0 ? NAN : us;
    return m;
  };
  ConfirmOptions options;
  ConfirmResult confirm = confirmFinalists(result, knobs(0), measure, options);
  ASSERT_EQ(confirm.finalists.size(), 4u);
  EXPECT_TRUE(confirm.finalists[0].isDefault);
  EXPECT_EQ(confirm.defaultFinalist, std::optional<size_t>(0));
  // Finalists: the default, then the others by search time (v = 4 is out).
  std::vector<size_t> trialIndices;
  for (const Finalist &f : confirm.finalists)
    trialIndices.push_back(f.trial);
  EXPECT_EQ(trialIndices, (std::vector<size_t>{0, 1, 3, 4}));
  EXPECT_EQ(confirm.numMeasurements, 12u);
  // Each round starts one finalist later.
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1}));
  EXPECT_DOUBLE_EQ(confirm.finalists[0].confirmedUs, 100.0);
  EXPECT_DOUBLE_EQ(confirm.finalists[1].confirmedUs, 101.0);
  EXPECT_DOUBLE_EQ(confirm.finalists[2].confirmedUs, 96.0);
  // The fastest times, but one re-measurement was wrong: it cannot win.
  EXPECT_FALSE(confirm.finalists[3].isOk());
  ASSERT_TRUE(confirm.winner.has_value());
  EXPECT_EQ(*confirm.winner, 2u);
  ASSERT_TRUE(confirm.getSpeedup().has_value());
  EXPECT_DOUBLE_EQ(*confirm.getSpeedup(), 100.0 / 96.0);
}

TEST(ConfirmTest, TheDefaultCanWinAndZeroRoundsMeasureNothing) {
  SearchResult result;
  for (int64_t v : {0, 1}) {
    Trial t;
    t.schedule = KnobMap{{"unroll", v}};
    t.measurement.status = MeasureStatus::Ok;
    t.measurement.medianUs = v ? 90.0 : 100.0;
    result.trials.push_back(t);
  }
  KnobMap dflt{{"unroll", int64_t(0)}};
  MeasureFn measure = [&](const KnobMap &k) {
    Measurement m;
    m.status = MeasureStatus::Ok;
    m.medianUs = std::get<int64_t>(k.at("unroll")) ? 100.2 : 99.8;
    return m;
  };
  ConfirmResult confirm =
      confirmFinalists(result, dflt, measure, ConfirmOptions{});
  ASSERT_TRUE(confirm.winner.has_value());
  EXPECT_TRUE(confirm.finalists[*confirm.winner].isDefault);
  EXPECT_DOUBLE_EQ(*confirm.getSpeedup(), 1.0);

  ConfirmOptions none;
  none.rounds = 0;
  ConfirmResult skipped = confirmFinalists(result, dflt, measure, none);
  EXPECT_EQ(skipped.numMeasurements, 0u);
  EXPECT_FALSE(skipped.winner.has_value());
  EXPECT_EQ(skipped.finalists.size(), 2u);
}

TEST(FeaturesTest, MixFeaturesCombineOnlyKnobsThatSizeWork) {
  MLIRContext ctx;
  loadTunerDialects(ctx);
  auto module = parseSourceString<ModuleOp>(R"mlir(
    func.func @mm(%a: tensor<256x512xbf16>, %b: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
      %0 = hkg.matmul %a, %b : tensor<256x512xbf16>, tensor<512x256xbf16> -> tensor<256x256xbf16>
      return %0 : tensor<256x256xbf16>
    }
  )mlir",
                                            &ctx);
  ASSERT_TRUE(module);
  HkgKernelOpInterface op;
  module->walk([&](HkgKernelOpInterface found) { op = found; });
  OpContext context = OpContext::get(op, *lookupTarget("sm_90"));
  ASSERT_NE(context.space.lookup("group_m"), nullptr);
  EXPECT_FALSE(context.space.lookup("group_m")->sizesWork);
  FeatureMap f = context.getFeatures(context.defaultKnobs);
  // The element count against the 9 size knobs (tile_m/n/k, waves_m/n,
  // stages, vector_width, unroll, split_k): 3^9 sign choices less the
  // all-zero one and the all-minus one (code 0, which the loop of
  // addElementsPerKnobFeatures starts after); group_m (an order, not a
  // size) is in none of them, only in the pairwise mixes.
  size_t mixes = 0, withGroup = 0;
  EXPECT_TRUE(f.count("mix.group_m+tile_m") || f.count("mix.tile_m+group_m"));
  for (const auto &[name, value] : f) {
    if (!StringRef(name).starts_with("mix.elements"))
      continue;
    ++mixes;
    withGroup += StringRef(name).contains("group_m");
  }
  EXPECT_EQ(mixes, 19683u - 2u);
  EXPECT_EQ(withGroup, 0u);
  EXPECT_DOUBLE_EQ(f.at("knob.group_m"), 3.0);
}
