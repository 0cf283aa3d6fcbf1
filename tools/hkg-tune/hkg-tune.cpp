//===- hkg-tune.cpp - tuning database and policy command line -------------===//
//
//   hkg-tune import --db tune.sqlite records.jsonl   JSON lines -> database
//   hkg-tune export --db tune.sqlite [-o out.jsonl]  database -> JSON lines
//   hkg-tune train (--db F | --dataset F.jsonl) -o model.json
//   hkg-tune signature input.mlir                    one signature per op
//   hkg-tune synth [--seed N] [--schedules-per-op N] SYNTHETIC test records
//   hkg-tune sample input.mlir --chip C -n N [--seed S]
//                                 N distinct legal schedules of the first op
//   hkg-tune tune input.mlir --chip C --budget N [--db F] -o out.mlir
//                                 tune every op on the device at hand
//
//===----------------------------------------------------------------------===//

#include "SyntheticDataset.h"
#include "TuneCommand.h"

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Runtime/KernelRunner.h"
#include "hkg/Support/InputLimits.h"
#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/DeviceMeasurer.h"
#include "hkg/Tuner/Policy.h"
#include "hkg/Tuner/Search.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;
namespace cl = llvm::cl;

static cl::SubCommand importCmd("import",
                                "Import JSON-lines records into a database");
static cl::SubCommand exportCmd("export", "Export a database as JSON lines");
static cl::SubCommand trainCmd("train", "Train the policy model");
static cl::SubCommand signatureCmd("signature",
                                   "Print the signature of each hkg op");
static cl::SubCommand
    sampleCmd("sample", "Print distinct legal schedules of an op (JSON lines): "
                        "the default first, then random ones (every legal one "
                        "in random order when the space is small)");
static cl::SubCommand
    tuneCmd("tune", "Tune every hkg op without a schedule on the device at "
                    "hand; writes the tuned module and a report");
static cl::SubCommand
    synthCmd("synth", "Write SYNTHETIC records from the analytic test model");

static cl::opt<std::string> dbPath("db", cl::desc("Tuning database (SQLite)"),
                                   cl::sub(importCmd), cl::sub(exportCmd),
                                   cl::sub(trainCmd), cl::sub(tuneCmd));
static cl::opt<std::string>
    datasetPath("dataset", cl::desc("Records (JSON lines)"), cl::sub(trainCmd));
static cl::opt<std::string> outputPath("o", cl::desc("Output file"),
                                       cl::init("-"), cl::sub(exportCmd),
                                       cl::sub(trainCmd), cl::sub(synthCmd),
                                       cl::sub(tuneCmd));
static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input>"),
                                      cl::sub(importCmd), cl::sub(signatureCmd),
                                      cl::sub(sampleCmd), cl::sub(tuneCmd));
static cl::opt<bool> allowIllegalKnobs(
    "allow-illegal-knobs",
    cl::desc("Import records whose knobs the current schedule spaces refuse "
             "(an older hkg's measurements, with a warning); replay, "
             "training and evaluation skip them"),
    cl::sub(importCmd));
static cl::opt<std::string> objective("objective",
                                      cl::desc("rank:pairwise or rank:ndcg"),
                                      cl::init("rank:pairwise"),
                                      cl::sub(trainCmd));
static cl::opt<unsigned> rounds("rounds", cl::desc("Boosting rounds"),
                                cl::init(100), cl::sub(trainCmd));
static cl::opt<unsigned> maxDepth("max-depth", cl::desc("Tree depth"),
                                  cl::init(6), cl::sub(trainCmd));
static cl::opt<double> eta("eta", cl::desc("Learning rate"), cl::init(0.3),
                           cl::sub(trainCmd));
static cl::opt<unsigned>
    parallelTrees("parallel-trees",
                  cl::desc("Trees per round (boosted random forest)"),
                  cl::init(1), cl::sub(trainCmd));
static cl::opt<double> subsample("subsample",
                                 cl::desc("Row subsampling per tree"),
                                 cl::init(1.0), cl::sub(trainCmd));
static cl::opt<double> colsample("colsample-bynode",
                                 cl::desc("Feature subsampling per split"),
                                 cl::init(1.0), cl::sub(trainCmd));
static cl::opt<bool> defaultRelative(
    "default-relative",
    cl::desc("Train on the dflt.* features (knobs against the op's default "
             "schedule)"),
    cl::sub(trainCmd));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed"), cl::init(1),
                              cl::sub(trainCmd), cl::sub(synthCmd),
                              cl::sub(sampleCmd));
static cl::opt<std::string> sampleChip("chip", cl::desc("Target chip"),
                                       cl::sub(sampleCmd), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneBudget("budget",
                                    cl::desc("Trials per op (database "
                                             "records included)"),
                                    cl::init(32), cl::sub(tuneCmd));
static cl::opt<uint64_t> tuneSeed("seed", cl::desc("Search seed"), cl::init(0),
                                  cl::sub(tuneCmd));
static cl::opt<std::string> tuneModel("model",
                                      cl::desc("Policy model guiding the "
                                               "search"),
                                      cl::sub(tuneCmd));
static cl::opt<std::string>
    tuneReport("report",
               cl::desc("Report prefix: <prefix>.md and <prefix>-<n>.svg "
                        "(default: next to -o, <stem>.report)"),
               cl::sub(tuneCmd));
static cl::opt<unsigned> tuneReps("reps", cl::desc("Timed launches"),
                                  cl::init(50), cl::sub(tuneCmd));
static cl::opt<double> tuneTimeBudget(
    "time-budget-ms",
    cl::desc("Milliseconds one candidate's launches may take: a slower one "
             "gets one warm-up and as many timed launches as fit (at least "
             "5); 0: no limit"),
    cl::init(250), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneWarmup("warmup", cl::desc("Untimed launches"),
                                    cl::init(10), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneTimeout("timeout",
                                     cl::desc("Seconds one candidate may take"),
                                     cl::init(120), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneFlushMiB("flush-l2-mib",
                                      cl::desc("MiB overwritten before each "
                                               "timed launch"),
                                      cl::init(256), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneConfirmFinalists(
    "confirm-finalists",
    cl::desc("Fastest candidates re-measured with the default after the "
             "search (0: no confirmation)"),
    cl::init(3), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneConfirmRounds(
    "confirm-rounds",
    cl::desc("Re-measurements of each finalist; the winner has the lowest "
             "median of them (0: the search's fastest trial wins)"),
    cl::init(3), cl::sub(tuneCmd));
static cl::opt<bool> tuneRandomSample(
    "random-sample",
    cl::desc("Sample the space instead of searching it (a tuning dataset): "
             "the default, then uniformly random legal candidates up to the "
             "budget; no sketches, model or confirmation"),
    cl::sub(tuneCmd));
static cl::opt<bool> tuneTimeCopy(
    "time-copy",
    cl::desc("Time a copy moving the op's bytes with every candidate, the "
             "same way (the floor at the op's size, in the report)"),
    cl::init(true), cl::sub(tuneCmd));
static cl::opt<double> tuneStopAtCopy(
    "stop-at-copy",
    cl::desc("End an op's search once its best trial runs at this fraction "
             "of the copy's speed or more, e.g. 0.98 (0: never)"),
    cl::init(0), cl::sub(tuneCmd));
static cl::opt<std::string> tuneDeviceLock(
    "device-lock",
    cl::desc("Lock file held while a candidate uses the GPU, for several "
             "hkg-tune runs sharing one GPU"),
    cl::value_desc("file"), cl::sub(tuneCmd));
static cl::opt<std::string> tuneHostCache(
    "host-cache",
    cl::desc("Directory where the candidates of an op share its random "
             "inputs and float64 reference (kept; default: a temporary one "
             "removed at exit)"),
    cl::value_desc("dir"), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneBatch(
    "batch",
    cl::desc("Candidates the search proposes at a time: the next ones "
             "compile (in parallel) while one is measured; 1 proposes each "
             "after the last one's result"),
    cl::init(4), cl::sub(tuneCmd));
static cl::opt<bool> tuneServe(
    "serve",
    cl::desc("Measure every candidate in one serving hkg-run worker (the "
             "device opened once, the op's host work kept in memory; "
             "replaced after a crash, hang or fault); "
             "--serve=false starts one worker per candidate"),
    cl::init(true), cl::sub(tuneCmd));
static cl::opt<unsigned> sampleCount("n", cl::desc("Schedules to print"),
                                     cl::init(32), cl::sub(sampleCmd));
static cl::opt<unsigned> sampleOpIndex("op-index",
                                       cl::desc("Which hkg op of the input "
                                                "(in walk order)"),
                                       cl::init(0), cl::sub(sampleCmd));
static cl::opt<double> enumerateLimit(
    "enumerate-limit",
    cl::desc("Enumerate the whole space when it has at most this many "
             "schedules (legal or not)"),
    cl::init(50000), cl::sub(sampleCmd));
static cl::opt<unsigned>
    schedulesPerOp("schedules-per-op",
                   cl::desc("Schedules sampled per op and shape"),
                   cl::init(200), cl::sub(synthCmd));
static cl::list<std::string> chips("chip", cl::desc("Chips to synthesize for"),
                                   cl::sub(synthCmd));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hkg-tune") << message << "\n";
  return 1;
}

static llvm::Expected<std::vector<TuningRecord>>
readDataset(StringRef path, std::vector<unsigned> *lineNumbers = nullptr) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path.str() +
                                   "': " + buffer.getError().message());
  llvm::Expected<std::vector<TuningRecord>> records =
      parseRecordsJsonl((*buffer)->getBuffer(), lineNumbers);
  if (!records)
    return llvm::createStringError(path.str() + ": " +
                                   llvm::toString(records.takeError()));
  return records;
}

static int writeOutput(StringRef text) {
  std::error_code ec;
  llvm::ToolOutputFile out(outputPath, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot write '" + outputPath + "': " + ec.message());
  out.os() << text;
  out.keep();
  return 0;
}

static int runImport() {
  if (dbPath.empty())
    return fail("import needs --db");
  std::vector<unsigned> lines;
  llvm::Expected<std::vector<TuningRecord>> records =
      readDataset(inputPath, &lines);
  if (!records)
    return fail(llvm::toString(records.takeError()));
  // Knobs must be legal for the op's schedule space on the record's target:
  // the op is rebuilt from the signature.
  MLIRContext ctx;
  loadTunerDialects(ctx);
  OpCatalog catalog(ctx);
  unsigned illegal = 0;
  for (auto [r, line] : llvm::zip(*records, lines)) {
    HkgKernelOpInterface op = catalog.get(r.signature);
    if (!op)
      return fail(llvm::formatv("{0}: line {1}: 'signature' is not an hkg op "
                                "signature (hkg-tune signature prints one)",
                                inputPath.getValue(), line)
                      .str());
    llvm::Error e = checkLegalSchedule(op, r.schedule, *lookupTarget(r.target));
    if (!e)
      continue;
    std::string message = llvm::formatv("{0}: line {1}: {2}",
                                        inputPath.getValue(), line,
                                        llvm::toString(std::move(e)));
    if (!allowIllegalKnobs)
      return fail(message + " (--allow-illegal-knobs imports such records)");
    if (illegal++ == 0)
      llvm::WithColor::warning(llvm::errs(), "hkg-tune")
          << message << "; kept (--allow-illegal-knobs)\n";
  }
  if (illegal > 1)
    llvm::WithColor::warning(llvm::errs(), "hkg-tune")
        << illegal << " records with illegal knobs kept\n";
  auto db = TuningDatabase::open(dbPath, /*create=*/true);
  if (!db)
    return fail(llvm::toString(db.takeError()));
  if (llvm::Error e = (*db)->insertAll(*records))
    return fail(llvm::toString(std::move(e)));
  llvm::errs() << "imported " << records->size() << " records into " << dbPath
               << "\n";
  return 0;
}

static int runExport() {
  if (dbPath.empty())
    return fail("export needs --db");
  auto db = TuningDatabase::open(dbPath, /*create=*/false);
  if (!db)
    return fail(llvm::toString(db.takeError()));
  auto records = (*db)->getAllRecords();
  if (!records)
    return fail(llvm::toString(records.takeError()));
  return writeOutput(printRecordsJsonl(*records));
}

static int runTrain() {
  if (dbPath.empty() == datasetPath.empty())
    return fail("train needs exactly one of --db and --dataset");
  if (outputPath == "-")
    return fail("train needs -o <model.json>");
  std::vector<TuningRecord> records;
  if (!datasetPath.empty()) {
    auto read = readDataset(datasetPath);
    if (!read)
      return fail(llvm::toString(read.takeError()));
    records = std::move(*read);
  } else {
    auto db = TuningDatabase::open(dbPath, /*create=*/false);
    if (!db)
      return fail(llvm::toString(db.takeError()));
    auto read = (*db)->getAllRecords();
    if (!read)
      return fail(llvm::toString(read.takeError()));
    records = std::move(*read);
  }
  MLIRContext ctx;
  loadTunerDialects(ctx);
  OpCatalog catalog(ctx);
  unsigned skipped = 0;
  std::vector<TrainingGroup> groups =
      buildTrainingGroups(records, catalog, true, &skipped);
  PolicyOptions options;
  options.objective = objective;
  options.rounds = rounds;
  options.maxDepth = maxDepth;
  options.eta = eta;
  options.parallelTrees = parallelTrees;
  options.subsample = subsample;
  options.colsampleByNode = colsample;
  options.defaultRelativeFeatures = defaultRelative;
  options.seed = static_cast<unsigned>(seed);
  auto policy = Policy::train(groups, options);
  if (!policy)
    return fail(llvm::toString(policy.takeError()));
  if (llvm::Error e = (*policy)->save(outputPath))
    return fail(llvm::toString(std::move(e)));
  llvm::errs() << "trained on " << records.size() - skipped << " records in "
               << groups.size() << " groups (" << skipped << " skipped), "
               << (*policy)->getFeatureNames().size() << " features -> "
               << outputPath << "\n";
  return 0;
}

static int runSignature() {
  MLIRContext ctx;
  loadTunerDialects(ctx);
  llvm::SourceMgr sourceMgr;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputPath);
  if (!buffer)
    return fail("cannot read '" + inputPath + "'");
  if (llvm::Error e = ::hkg::checkInputNesting((*buffer)->getBuffer(),
                                               ::hkg::InputSyntax::MLIR))
    return fail(inputPath + ": " + llvm::toString(std::move(e)));
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return 1;
  module->walk([&](HkgKernelOpInterface op) {
    llvm::outs() << getOpSignature(op) << "\n";
  });
  return 0;
}

/// Every schedule of `space` (the product of the knobs' values), in order.
static std::vector<KnobMap> enumerateSpace(const ScheduleSpace &space) {
  std::vector<KnobMap> all(1);
  for (const KnobSpec &k : space.knobs) {
    std::vector<KnobMap> next;
    next.reserve(all.size() * k.legalValues.size());
    for (const KnobMap &partial : all)
      for (const KnobValue &v : k.legalValues) {
        KnobMap knobs = partial;
        knobs[k.name] = v;
        next.push_back(std::move(knobs));
      }
    all = std::move(next);
  }
  return all;
}

static int runSample() {
  const TargetInfo *target = lookupTarget(sampleChip);
  if (!target)
    return fail("sample needs --chip with a known chip, got '" + sampleChip +
                "'");
  MLIRContext ctx;
  loadTunerDialects(ctx);
  llvm::SourceMgr sourceMgr;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputPath);
  if (!buffer)
    return fail("cannot read '" + inputPath + "'");
  if (llvm::Error e = ::hkg::checkInputNesting((*buffer)->getBuffer(),
                                               ::hkg::InputSyntax::MLIR))
    return fail(inputPath + ": " + llvm::toString(std::move(e)));
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return 1;
  std::vector<HkgKernelOpInterface> ops;
  module->walk([&](HkgKernelOpInterface op) { ops.push_back(op); });
  if (sampleOpIndex >= ops.size())
    return fail("op index " + llvm::Twine(sampleOpIndex) + " out of range; " +
                inputPath + " has " + llvm::Twine(ops.size()) + " hkg op(s)");
  OpCandidateSpace space(ops[sampleOpIndex], *target);
  Rng rng(seed);

  std::vector<KnobMap> picked;
  std::set<std::string> seen;
  auto add = [&](const KnobMap &knobs) {
    if (picked.size() < sampleCount && seen.insert(formatKnobs(knobs)).second)
      picked.push_back(knobs);
  };
  add(space.getDefault());
  double size = space.getSpace().size();
  size_t legal = 0;
  bool exhaustive = size <= enumerateLimit;
  if (exhaustive) {
    std::vector<KnobMap> all;
    for (KnobMap &knobs : enumerateSpace(space.getSpace()))
      if (space.isLegal(knobs))
        all.push_back(std::move(knobs));
    legal = all.size();
    // Fisher-Yates with the tuner's Rng: the same seed, the same order.
    for (size_t i = all.size(); i > 1; --i)
      std::swap(all[i - 1], all[rng() % i]);
    for (const KnobMap &knobs : all)
      add(knobs);
  } else {
    for (unsigned attempt = 0;
         picked.size() < sampleCount && attempt < 64 * sampleCount; ++attempt)
      if (std::optional<KnobMap> knobs = space.sample(rng))
        add(*knobs);
  }
  for (const KnobMap &knobs : picked)
    llvm::outs() << llvm::json::Value(knobsToJson(knobs)) << "\n";
  llvm::errs() << "hkg-tune sample: " << picked.size() << " schedule(s) of "
               << ops[sampleOpIndex]->getName() << " on " << target->chip
               << "; space of " << llvm::formatv("{0:F0}", size) << " schedules"
               << (exhaustive
                       ? " enumerated, " + std::to_string(legal) + " legal"
                       : std::string(", sampled"))
               << "\n";
  return 0;
}

static int runSynth() {
  MLIRContext ctx;
  loadTunerDialects(ctx);
  SyntheticOptions options;
  options.seed = seed;
  options.schedulesPerOp = schedulesPerOp;
  if (!chips.empty())
    options.chips.assign(chips.begin(), chips.end());
  auto records = generateSyntheticRecords(ctx, options);
  if (!records)
    return fail(llvm::toString(records.takeError()));
  return writeOutput(printRecordsJsonl(*records));
}

static int tuneMain();

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "hkg tuning database and policy\n");
  // Deeply nested input recurses deeply: the work runs on a large stack.
  return ::hkg::runOnLargeStack(tuneMain);
}

static int tuneMain() {
  if (importCmd)
    return runImport();
  if (exportCmd)
    return runExport();
  if (trainCmd)
    return runTrain();
  if (signatureCmd)
    return runSignature();
  if (synthCmd)
    return runSynth();
  if (sampleCmd)
    return runSample();
  if (tuneCmd) {
    if (!tuneDeviceLock.empty())
      if (llvm::Error e = ::hkg::rt::checkDeviceLockPath(tuneDeviceLock))
        return fail(llvm::toString(std::move(e)));
    if (!(tuneStopAtCopy >= 0 && tuneStopAtCopy <= 2))
      return fail(llvm::formatv("--stop-at-copy must be a fraction of the "
                                "copy's speed in [0, 2], got {0}",
                                tuneStopAtCopy.getValue())
                      .str());
    if (tuneStopAtCopy > 0 && !tuneTimeCopy)
      return fail("--stop-at-copy needs the copy timed (it is off with "
                  "--time-copy=false)");
    if (tuneRandomSample && !tuneModel.empty())
      return fail("--random-sample measures random candidates: it takes no "
                  "--model");
    if (tuneRandomSample && tuneStopAtCopy > 0)
      return fail("--random-sample measures the whole budget: it takes no "
                  "--stop-at-copy");
    DeviceMeasurerOptions device;
    device.timeCopy = tuneTimeCopy;
    device.reps = tuneReps;
    device.warmup = tuneWarmup;
    device.timeBudgetMs = tuneTimeBudget;
    device.timeoutSeconds = tuneTimeout;
    device.flushMiB = tuneFlushMiB;
    device.deviceLock = tuneDeviceLock;
    device.hostCacheDir = tuneHostCache;
    device.serve = tuneServe;
    registerDeviceMeasurer(device);
    TuneCommandOptions options;
    options.input = inputPath;
    options.output = outputPath;
    options.chip = sampleChip;
    options.budget = tuneBudget;
    options.batch = tuneBatch;
    options.db = dbPath;
    options.model = tuneModel;
    options.seed = tuneSeed;
    options.report = tuneReport;
    options.confirmFinalists = tuneConfirmFinalists;
    options.confirmRounds = tuneConfirmRounds;
    options.stopAtCopy = tuneStopAtCopy;
    options.randomSample = tuneRandomSample;
    return runTuneCommand(options);
  }
  return fail("expected a subcommand: import, export, train, signature, "
              "sample, tune, synth "
              "(see --help)");
}
