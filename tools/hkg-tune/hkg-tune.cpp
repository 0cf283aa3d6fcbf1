//===- hkg-tune.cpp - tuning database and policy command line -------------===//
//
//   hkg-tune import --db tune.sqlite records.jsonl   JSON lines -> database
//   hkg-tune export --db tune.sqlite [-o out.jsonl]  database -> JSON lines
//   hkg-tune train (--db F | --dataset F.jsonl) -o model.json
//   hkg-tune signature input.mlir                    one signature per op
//   hkg-tune synth [--seed N] [--schedules-per-op N] SYNTHETIC test records
//
//===----------------------------------------------------------------------===//

#include "SyntheticDataset.h"

#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Policy.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
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
    synthCmd("synth", "Write SYNTHETIC records from the analytic test model");

static cl::opt<std::string> dbPath("db", cl::desc("Tuning database (SQLite)"),
                                   cl::sub(importCmd), cl::sub(exportCmd),
                                   cl::sub(trainCmd));
static cl::opt<std::string>
    datasetPath("dataset", cl::desc("Records (JSON lines)"), cl::sub(trainCmd));
static cl::opt<std::string> outputPath("o", cl::desc("Output file"),
                                       cl::init("-"), cl::sub(exportCmd),
                                       cl::sub(trainCmd), cl::sub(synthCmd));
static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input>"),
                                      cl::sub(importCmd),
                                      cl::sub(signatureCmd));
static cl::opt<std::string> objective("objective",
                                      cl::desc("rank:pairwise or rank:ndcg"),
                                      cl::init("rank:pairwise"),
                                      cl::sub(trainCmd));
static cl::opt<unsigned> rounds("rounds", cl::desc("Boosting rounds"),
                                cl::init(100), cl::sub(trainCmd));
static cl::opt<unsigned> maxDepth("max-depth", cl::desc("Tree depth"),
                                  cl::init(6), cl::sub(trainCmd));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed"), cl::init(1),
                              cl::sub(trainCmd), cl::sub(synthCmd));
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

static llvm::Expected<std::vector<TuningRecord>> readDataset(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path.str() +
                                   "': " + buffer.getError().message());
  llvm::Expected<std::vector<TuningRecord>> records =
      parseRecordsJsonl((*buffer)->getBuffer());
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
  llvm::Expected<std::vector<TuningRecord>> records = readDataset(inputPath);
  if (!records)
    return fail(llvm::toString(records.takeError()));
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
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return 1;
  module->walk([&](HkgKernelOpInterface op) {
    llvm::outs() << getOpSignature(op) << "\n";
  });
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

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "hkg tuning database and policy\n");
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
  return fail("expected a subcommand: import, export, train, signature, synth "
              "(see --help)");
}
