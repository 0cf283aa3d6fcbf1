//===- TuneCommand.cpp - `hkg-tune tune`: tune a module on the device -----===//
//
// For each hkg op without a schedule, the tuning driver (TuningDriver.h, the
// same as the hkg-autotune pass's): the search measuring on the device
// through the measurer factory, every measurement stored in the database (a
// killed run resumes), then the default and the fastest candidates
// re-measured in rounds, the lowest re-measured median winning. This file
// prints the progress on stderr (trial n/budget, best so far, ETA, the
// confirmation) and writes the module with the winning schedules attached
// and the report (TuneReport.h).
//
//===----------------------------------------------------------------------===//

#include "TuneCommand.h"
#include "TuneReport.h"

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Support/InputLimits.h"
#include "hkg/Tuner/TuningDriver.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hkg-tune") << message << "\n";
  return 1;
}

/// "compile 0.14 s, worker 1.02 s (open 0.31, host 0.22, ...)": the phases
/// of Measurement::seconds, the measurer's first (with "wait": how long a
/// prefetched candidate's compile was waited for) and the worker's inside;
/// empty when none was timed.
static std::string formatSeconds(const StatMap &seconds) {
  auto get = [&](StringRef phase) -> std::optional<double> {
    auto it = seconds.find(phase.str());
    if (it == seconds.end())
      return std::nullopt;
    return it->second;
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::ListSeparator outer;
  for (StringRef phase : {"compile", "wait", "worker"})
    if (std::optional<double> s = get(phase))
      os << outer << llvm::formatv("{0} {1:f2} s", phase, *s);
  std::string inner;
  llvm::raw_string_ostream is(inner);
  llvm::ListSeparator sep;
  for (StringRef phase : {"open", "host", "load", "check", "time"})
    if (std::optional<double> s = get(phase))
      is << sep << llvm::formatv("{0} {1:f2}", phase, *s);
  if (!inner.empty())
    os << " (" << inner << ")";
  return text;
}

namespace {
/// Prints the driver's progress on one op, each line prefixed "[op/ops]".
class ProgressPrinter final : public TuningObserver {
public:
  ProgressPrinter(size_t index, size_t numOps, std::string description,
                  double stopAtCopy)
      : index(index), numOps(numOps), description(std::move(description)),
        stopAtCopy(stopAtCopy) {}

  void onResume(size_t numTrials) override {
    line() << llvm::formatv("{0}: {1} trial(s) from the database\n",
                            description, numTrials);
  }

  void onTrial(const TrialProgress &p) override {
    const Measurement &m = p.measurement;
    line() << llvm::formatv(
        "trial {0}/{1}: {2,-13} {3,12}  best so far {4}  ETA {5:f0} s  {6}\n",
        p.number, p.budget, stringifyMeasureStatus(m.status),
        m.isOk() ? formatUs(m.medianUs) : std::string("-"),
        std::isfinite(p.bestUs) ? formatUs(p.bestUs) : std::string("none"),
        p.etaSeconds, formatKnobs(p.schedule));
    if (std::string seconds = formatSeconds(m.seconds); !seconds.empty())
      line() << "  " << seconds << "\n";
  }

  void onFirstCopy(double copyUs) override {
    line() << "a copy moving the op's bytes, timed the same way: "
           << formatUs(copyUs) << "\n";
  }

  void onSearchDone(const TuningResult &result) override {
    if (result.stopped && result.best)
      line() << llvm::formatv(
          "search ended after {0} trial(s): the best runs at {1} of the "
          "copy's speed (--stop-at-copy={2})\n",
          result.trials.size(),
          formatShareOfCopy(*result.getCopyUs(),
                            result.trials[*result.best].measurement.medianUs),
          llvm::formatv("{0}", llvm::format("%g", stopAtCopy)).str());
    if (!result.recordError.empty())
      llvm::errs() << "hkg-tune: warning: measurements were not all stored: "
                   << result.recordError << "\n";
  }

  void onConfirm(unsigned round, unsigned rounds, size_t finalist,
                 const Measurement &m) override {
    line() << llvm::formatv(
        "confirm round {0}/{1}, finalist {2}: {3,-13} {4,12}\n", round + 1,
        rounds, finalist + 1, stringifyMeasureStatus(m.status),
        m.isOk() ? formatUs(m.medianUs) : std::string("-"));
  }

  /// What the op got: the finalists, the winner against the default, the
  /// floor, and where the trials' time went.
  void printOutcome(const TuningResult &t) {
    std::vector<const Measurement *> measured;
    for (const Trial &trial : t.trials)
      if (!trial.measurement.seconds.empty())
        measured.push_back(&trial.measurement);
    if (!measured.empty())
      line() << llvm::formatv("seconds per trial, median of {0} measured: "
                              "{1}\n",
                              measured.size(),
                              formatSeconds(getMedianSeconds(measured)));
    for (auto [k, f] : llvm::enumerate(t.confirm.finalists))
      line() << llvm::formatv(
          "finalist {0}: search {1}, re-measured {2}{3}: {4}\n", k + 1,
          formatUs(t.trials[f.trial].measurement.medianUs),
          f.isOk() ? formatUs(f.confirmedUs) : std::string("(not ok)"),
          f.isDefault ? " (default)" : "",
          formatKnobs(t.trials[f.trial].schedule));
    if (const Trial *best = t.getWinner())
      line() << llvm::formatv("best {0} by the {1} agent{2}: {3}\n",
                              formatUs(best->measurement.medianUs),
                              best->agent, t.describeAgainstDefault(),
                              formatKnobs(best->schedule));
    else if (t.best)
      line() << "no finalist passed every re-measurement; the op keeps no "
                "schedule\n";
    else
      line() << llvm::formatv("no correct candidate in {0} trials; the op "
                              "keeps no schedule\n",
                              t.trials.size());
    if (std::optional<double> copy = t.getCopyUs()) {
      std::string shares;
      if (std::optional<double> d = t.getDefaultUs())
        shares += ", the default at " + formatShareOfCopy(*copy, *d);
      if (std::optional<double> w = t.getWinnerUs())
        shares += ", the winner at " + formatShareOfCopy(*copy, *w);
      line() << llvm::formatv("copy of the op's bytes {0} (median of {1}){2} "
                              "of its speed\n",
                              formatUs(*copy), t.copyUs.size(), shares);
    }
  }

private:
  llvm::raw_ostream &line() {
    return llvm::errs() << llvm::formatv("  [{0}/{1}] ", index + 1, numOps);
  }

  size_t index, numOps;
  std::string description;
  double stopAtCopy;
};
} // namespace

/// The report's prefix: --report, else next to the output.
static std::string getReportPrefix(const TuneCommandOptions &options) {
  if (!options.report.empty())
    return options.report;
  if (options.output == "-")
    return "hkg-tune";
  StringRef dir = llvm::sys::path::parent_path(options.output);
  return (dir.empty() ? std::string() : dir.str() + "/") +
         llvm::sys::path::stem(options.output).str() + ".report";
}

int mlir::hkg::tuner::runTuneCommand(const TuneCommandOptions &options) {
  const TargetInfo *target = lookupTarget(options.chip);
  if (!target)
    return fail("tune needs --chip with a known chip, got '" + options.chip +
                "'; expected one of: " + getKnownChipsString());
  std::string whyNot;
  std::unique_ptr<Measurer> measurer = createDeviceMeasurer(*target, whyNot);
  if (!measurer)
    return fail("no device to measure on: " + whyNot);

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  loadTunerDialects(ctx);
  llvm::SourceMgr sourceMgr;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(options.input);
  if (!buffer)
    return fail("cannot read '" + options.input + "'");
  if (llvm::Error e = ::hkg::checkInputNesting((*buffer)->getBuffer(),
                                               ::hkg::InputSyntax::MLIR))
    return fail(options.input + ": " + llvm::toString(std::move(e)));
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return 1;

  std::unique_ptr<TuningDatabase> db;
  if (!options.db.empty()) {
    auto opened = TuningDatabase::open(options.db, /*create=*/true);
    if (!opened)
      return fail(llvm::toString(opened.takeError()));
    db = std::move(*opened);
  }
  std::unique_ptr<Policy> model;
  if (!options.model.empty()) {
    auto loaded = Policy::load(options.model);
    if (!loaded)
      return fail(llvm::toString(loaded.takeError()));
    model = std::move(*loaded);
  }
  TuningOptions tuning;
  tuning.budget = options.budget;
  tuning.batch = options.batch;
  tuning.seed = options.seed;
  tuning.confirmFinalists = options.confirmFinalists;
  tuning.confirmRounds = options.confirmRounds;
  tuning.stopAtCopy = options.stopAtCopy;
  tuning.randomSample = options.randomSample;
  TuningDriver driver(tuning, db.get(), model.get());

  std::vector<HkgKernelOpInterface> ops;
  module->walk([&](HkgKernelOpInterface op) {
    if (!op.getScheduleAttrOrNull())
      ops.push_back(op);
  });
  llvm::errs() << llvm::formatv(
      "hkg-tune: tuning {0} op(s) on {1} for {2}, budget {3} trials each\n",
      ops.size(), measurer->getName(), target->chip, options.budget);

  std::vector<TunedOp> tuned;
  for (auto [index, op] : llvm::enumerate(ops)) {
    TunedOp t;
    t.description = llvm::formatv("{0} {1} on {2}", op->getName(),
                                  op->getOperand(0).getType(), target->chip)
                        .str();
    t.signature = getOpSignature(op);
    ProgressPrinter printer(index, ops.size(), t.description,
                            options.stopAtCopy);
    llvm::Expected<TuningResult> result =
        driver.tune(op, *target, *measurer, &printer);
    if (!result)
      return fail(llvm::toString(result.takeError()));
    t.result = std::move(*result);
    printer.printOutcome(t.result);
    if (const Trial *winner = t.result.getWinner())
      op.setScheduleAttrTo(knobsToAttr(&ctx, winner->schedule));
    tuned.push_back(std::move(t));
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  if (llvm::Error e = writeTextFile(options.output, text))
    return fail(llvm::toString(std::move(e)));
  std::string prefix = getReportPrefix(options);
  TuneReportHeader header{measurer->getName().str(), target->chip.str(),
                          tuning};
  if (llvm::Error e = writeTuneReport(prefix, header, tuned))
    return fail(llvm::toString(std::move(e)));
  llvm::errs() << "hkg-tune: wrote " << options.output << " and the report "
               << prefix << ".md\n";
  return 0;
}
