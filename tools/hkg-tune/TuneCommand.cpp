//===- TuneCommand.cpp - `hkg-tune tune`: tune a module on the device -----===//
//
// For each hkg op without a schedule: the search of Search.h (default first,
// then the agents, guided by the policy) measuring on the device through the
// measurer factory, every measurement stored in the database (a killed run
// resumes), progress on stderr (trial n/budget, best so far, ETA); then the
// default and the fastest candidates are re-measured in rounds (Confirm.h)
// and the lowest re-measured median wins. Writes the module with the winning
// schedules attached, and a report: a markdown summary, the same as JSON,
// and, per op, an SVG plot of the best time against trials.
//
//===----------------------------------------------------------------------===//

#include "TuneCommand.h"

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Tuner/Confirm.h"
#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Policy.h"
#include "hkg/Tuner/Search.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hkg-tune") << message << "\n";
  return 1;
}

namespace {
/// What the report shows of one tuned op.
struct TunedOp {
  std::string description;
  std::string signature;
  std::vector<Trial> trials;
  /// The search's fastest ok trial.
  std::optional<size_t> best;
  std::optional<double> defaultUs;
  ConfirmResult confirm;
  /// The trial whose schedule the op gets: the confirmation's winner, or
  /// the search's fastest trial when nothing was confirmed.
  std::optional<size_t> winner;
  double searchSeconds = 0, confirmSeconds = 0;
  /// Every copy time measured with this op's candidates (search and
  /// confirmation), and whether --stop-at-copy ended the search.
  std::vector<double> copyUs;
  bool stopped = false;

  /// The median copy time: the floor at the op's size.
  std::optional<double> getCopyUs() const {
    if (copyUs.empty())
      return std::nullopt;
    std::vector<double> sorted = copyUs;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
  /// The default's and the winner's times, confirmed ones when there are.
  std::optional<double> getDefaultUs() const {
    if (confirm.defaultFinalist &&
        confirm.finalists[*confirm.defaultFinalist].isOk())
      return confirm.finalists[*confirm.defaultFinalist].confirmedUs;
    return defaultUs;
  }
  std::optional<double> getWinnerUs() const {
    if (confirm.winner)
      return confirm.finalists[*confirm.winner].confirmedUs;
    if (winner)
      return trials[*winner].measurement.medianUs;
    return std::nullopt;
  }
};
} // namespace

/// "97.1%": the copy's time as a share of `us`, the kernel's speed as a
/// fraction of the copy's.
static std::string formatShareOfCopy(double copyUs, double us) {
  return llvm::formatv("{0:f1}%", 100.0 * copyUs / us).str();
}

static std::string formatUs(double us) {
  return llvm::formatv("{0:f2} us", us).str();
}

/// An SVG line plot of the best time so far (and each ok trial as a dot)
/// against the trial number.
static std::string bestVsTrialsSvg(const TunedOp &t) {
  const double w = 640, h = 400, left = 70, right = 20, top = 40, bottom = 50;
  std::vector<double> best;
  double bestSoFar = INFINITY, lo = INFINITY, hi = 0;
  for (const Trial &trial : t.trials) {
    if (trial.measurement.isOk()) {
      bestSoFar = std::min(bestSoFar, trial.measurement.medianUs);
      lo = std::min(lo, trial.measurement.medianUs);
      hi = std::max(hi, trial.measurement.medianUs);
    }
    best.push_back(bestSoFar);
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                      "height=\"{1}\" font-family=\"sans-serif\" "
                      "font-size=\"12\">\n",
                      w, h);
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << llvm::formatv("<text x=\"{0}\" y=\"20\" text-anchor=\"middle\">best "
                      "time vs trials: {1}</text>\n",
                      w / 2, t.description);
  size_t n = t.trials.size();
  if (!std::isfinite(lo)) {
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\">no "
                        "correct candidate</text>\n</svg>\n",
                        w / 2, h / 2);
    return s;
  }
  if (hi <= lo)
    hi = lo * 1.1 + 1e-9;
  double pad = 0.05 * (hi - lo);
  double y0 = std::max(0.0, lo - pad), y1 = hi + pad;
  auto x = [&](size_t i) {
    return left + (n <= 1 ? 0.0
                          : (w - left - right) * static_cast<double>(i) /
                                static_cast<double>(n - 1));
  };
  auto y = [&](double us) {
    return top + (h - top - bottom) * (1.0 - (us - y0) / (y1 - y0));
  };
  // Axes, ticks and labels.
  os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                      "stroke=\"black\"/>\n",
                      left, top, h - bottom);
  os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                      "stroke=\"black\"/>\n",
                      left, h - bottom, w - right);
  for (int k = 0; k <= 4; ++k) {
    double us = y0 + (y1 - y0) * k / 4;
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">{2:f1}"
                        "</text>\n",
                        left - 6, y(us) + 4, us);
  }
  for (size_t i = 0; i < n; i += std::max<size_t>(1, n / 8))
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\">{2}"
                        "</text>\n",
                        x(i), h - bottom + 16, i + 1);
  os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\">trial"
                      "</text>\n",
                      (left + w - right) / 2, h - 12);
  os << llvm::formatv("<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" "
                      "transform=\"rotate(-90 16 {0})\">median time (us)"
                      "</text>\n",
                      (top + h - bottom) / 2);
  // Each ok trial, then the best-so-far step line.
  for (size_t i = 0; i < n; ++i)
    if (t.trials[i].measurement.isOk())
      os << llvm::formatv("<circle cx=\"{0:f1}\" cy=\"{1:f1}\" r=\"2.5\" "
                          "fill=\"#999\"/>\n",
                          x(i), y(t.trials[i].measurement.medianUs));
  os << "<polyline fill=\"none\" stroke=\"#c00\" stroke-width=\"2\" points=\"";
  double previous = INFINITY;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(best[i]))
      continue;
    if (std::isfinite(previous))
      os << llvm::formatv(" {0:f1},{1:f1}", x(i), y(previous));
    os << llvm::formatv(" {0:f1},{1:f1}", x(i), y(best[i]));
    previous = best[i];
  }
  os << "\"/>\n</svg>\n";
  return s;
}

static llvm::Error writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError("cannot write '" + path.str() +
                                   "': " + ec.message());
  out.os() << text;
  out.keep();
  return llvm::Error::success();
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
  std::unique_ptr<Policy> prior;
  if (!options.model.empty()) {
    auto loaded = Policy::load(options.model);
    if (!loaded)
      return fail(llvm::toString(loaded.takeError()));
    prior = std::move(*loaded);
  }

  std::vector<HkgKernelOpInterface> ops;
  module->walk([&](HkgKernelOpInterface op) {
    if (!op.getScheduleAttrOrNull())
      ops.push_back(op);
  });
  llvm::errs() << llvm::formatv(
      "hkg-tune: tuning {0} op(s) on {1} for {2}, budget {3} trials each\n",
      ops.size(), measurer->getName(), target->chip, options.budget);

  PolicyOptions policyOptions;
  policyOptions.seed = static_cast<unsigned>(options.seed);
  std::vector<TunedOp> tuned;
  for (size_t index = 0; index < ops.size(); ++index) {
    HkgKernelOpInterface op = ops[index];
    std::string signature = getOpSignature(op);
    OpCandidateSpace space(op, *target);
    OpContext context = OpContext::get(op, *target);
    TunedOp t;
    t.description = llvm::formatv("{0} {1} on {2}", op->getName(),
                                  op->getOperand(0).getType(), target->chip)
                        .str();
    std::unique_ptr<RecordingMeasurer> recording;
    Measurer *m = measurer.get();
    if (db) {
      recording = std::make_unique<RecordingMeasurer>(*measurer, *db);
      m = recording.get();
    }
    SearchOptions searchOptions;
    searchOptions.budget = options.budget;
    searchOptions.seed = options.seed;
    if (db) {
      auto records = db->getRecords(signature, target->chip);
      if (!records)
        return fail(llvm::toString(records.takeError()));
      for (const TuningRecord &r : *records)
        searchOptions.history.push_back(
            {resolveKnobs(space.getSpace(), r.schedule), r.measurement,
             "database"});
    }
    size_t numTrials =
        std::min<size_t>(searchOptions.history.size(), options.budget);
    double bestUs = INFINITY;
    for (const Trial &h : searchOptions.history)
      if (h.measurement.isOk())
        bestUs = std::min(bestUs, h.measurement.medianUs);
    if (numTrials)
      llvm::errs() << llvm::formatv("  [{0}/{1}] {2}: {3} trial(s) from the "
                                    "database\n",
                                    index + 1, ops.size(), t.description,
                                    numTrials);
    auto start = std::chrono::steady_clock::now();
    size_t measuredHere = 0;
    MeasureFn measure = [&](const KnobMap &knobs) {
      MeasureRequest request{op, signature, target, &knobs};
      Measurement result = m->measure(request);
      ++numTrials;
      ++measuredHere;
      bool firstCopy = std::isfinite(result.copyUs) && t.copyUs.empty();
      if (std::isfinite(result.copyUs))
        t.copyUs.push_back(result.copyUs);
      if (result.isOk())
        bestUs = std::min(bestUs, result.medianUs);
      double elapsed = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      double eta = elapsed / measuredHere *
                   static_cast<double>(options.budget > numTrials
                                           ? options.budget - numTrials
                                           : 0);
      llvm::errs() << llvm::formatv(
          "  [{0}/{1}] trial {2}/{3}: {4,-13} {5,12}  best so far {6}  "
          "ETA {7:f0} s  {8}\n",
          index + 1, ops.size(), numTrials, options.budget,
          stringifyMeasureStatus(result.status),
          result.isOk() ? formatUs(result.medianUs) : std::string("-"),
          std::isfinite(bestUs) ? formatUs(bestUs) : std::string("none"), eta,
          formatKnobs(knobs));
      if (firstCopy)
        llvm::errs() << llvm::formatv(
            "  [{0}/{1}] a copy moving the op's bytes, timed the same way: "
            "{2}\n",
            index + 1, ops.size(), formatUs(result.copyUs));
      return result;
    };
    if (options.stopAtCopy > 0)
      searchOptions.stopWhen = [&](const SearchResult &r) {
        std::optional<double> copy = t.getCopyUs();
        return r.best && copy &&
               *copy / r.trials[*r.best].measurement.medianUs >=
                   options.stopAtCopy;
      };
    PolicyScorer scorer(prior.get(), context, policyOptions);
    SearchResult result = runSearch(space, measure, &scorer, searchOptions);
    t.stopped = result.stopped;
    if (result.stopped && result.best)
      llvm::errs() << llvm::formatv(
          "  [{0}/{1}] search ended after {2} trial(s): the best runs at {3} "
          "of the copy's speed (--stop-at-copy={4})\n",
          index + 1, ops.size(), result.trials.size(),
          formatShareOfCopy(*t.getCopyUs(),
                            result.trials[*result.best].measurement.medianUs),
          llvm::formatv("{0}", llvm::format("%g", options.stopAtCopy)).str());
    t.signature = signature;
    t.trials = result.trials;
    t.best = result.best;
    t.winner = result.best;
    for (const Trial &trial : result.trials)
      if (trial.schedule == space.getDefault() && trial.measurement.isOk())
        t.defaultUs = trial.measurement.medianUs;
    if (recording && !recording->getError().empty())
      llvm::errs() << "hkg-tune: warning: measurements were not all stored: "
                   << recording->getError() << "\n";
    auto confirmStart = std::chrono::steady_clock::now();
    t.searchSeconds =
        std::chrono::duration<double>(confirmStart - start).count();
    if (result.best && options.confirmRounds > 0 &&
        options.confirmFinalists > 0) {
      // Re-measured candidates are already in the database: these
      // measurements go to the report only.
      MeasureFn remeasure = [&](const KnobMap &knobs) {
        MeasureRequest request{op, signature, target, &knobs};
        Measurement result = measurer->measure(request);
        if (std::isfinite(result.copyUs))
          t.copyUs.push_back(result.copyUs);
        return result;
      };
      ConfirmOptions confirmOptions;
      confirmOptions.finalists = options.confirmFinalists;
      confirmOptions.rounds = options.confirmRounds;
      t.confirm = confirmFinalists(
          result, space.getDefault(), remeasure, confirmOptions,
          [&](unsigned round, size_t f, const Measurement &m) {
            llvm::errs() << llvm::formatv(
                "  [{0}/{1}] confirm round {2}/{3}, finalist {4}: {5,-13} "
                "{6,12}\n",
                index + 1, ops.size(), round + 1, options.confirmRounds,
                f + 1, stringifyMeasureStatus(m.status),
                m.isOk() ? formatUs(m.medianUs) : std::string("-"));
          });
      t.winner = t.confirm.winner
                     ? std::optional<size_t>(
                           t.confirm.finalists[*t.confirm.winner].trial)
                     : std::nullopt;
      for (auto [k, f] : llvm::enumerate(t.confirm.finalists))
        llvm::errs() << llvm::formatv(
            "  [{0}/{1}] finalist {2}: search {3}, re-measured {4}{5}: {6}\n",
            index + 1, ops.size(), k + 1,
            formatUs(result.trials[f.trial].measurement.medianUs),
            f.isOk() ? formatUs(f.confirmedUs) : std::string("(not ok)"),
            f.isDefault ? " (default)" : "", formatKnobs(result.trials[f.trial]
                                                             .schedule));
    }
    t.confirmSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - confirmStart)
                           .count();
    if (t.winner) {
      const Trial &best = result.trials[*t.winner];
      op.setScheduleAttrTo(knobsToAttr(&ctx, best.schedule));
      std::string versus;
      if (std::optional<double> speedup = t.confirm.getSpeedup())
        versus = llvm::formatv(", confirmed {0} against the default's {1}: "
                               "{2:f3}x",
                               formatUs(t.confirm.finalists[*t.confirm.winner]
                                            .confirmedUs),
                               formatUs(t.confirm.finalists
                                            [*t.confirm.defaultFinalist]
                                                .confirmedUs),
                               *speedup)
                     .str();
      else if (t.confirm.winner)
        versus =
            llvm::formatv(", confirmed {0} (no default to compare: it was "
                          "not ok)",
                          formatUs(
                              t.confirm.finalists[*t.confirm.winner].confirmedUs))
                .str();
      else if (t.defaultUs)
        versus = llvm::formatv(", {0:f2}x the default schedule",
                               *t.defaultUs / best.measurement.medianUs)
                     .str();
      llvm::errs() << llvm::formatv(
          "  [{0}/{1}] best {2} by the {3} agent{4}: {5}\n", index + 1,
          ops.size(), formatUs(best.measurement.medianUs), best.agent, versus,
          formatKnobs(best.schedule));
    } else if (result.best) {
      llvm::errs() << llvm::formatv("  [{0}/{1}] no finalist passed every "
                                    "re-measurement; the op keeps no "
                                    "schedule\n",
                                    index + 1, ops.size());
    } else {
      llvm::errs() << llvm::formatv("  [{0}/{1}] no correct candidate in {2} "
                                    "trials; the op keeps no schedule\n",
                                    index + 1, ops.size(),
                                    result.trials.size());
    }
    if (std::optional<double> copy = t.getCopyUs()) {
      std::string shares;
      if (std::optional<double> d = t.getDefaultUs())
        shares += ", the default at " + formatShareOfCopy(*copy, *d);
      if (std::optional<double> w = t.getWinnerUs())
        shares += ", the winner at " + formatShareOfCopy(*copy, *w);
      llvm::errs() << llvm::formatv(
          "  [{0}/{1}] copy of the op's bytes {2} (median of {3}){4} of its "
          "speed\n",
          index + 1, ops.size(), formatUs(*copy), t.copyUs.size(), shares);
    }
    tuned.push_back(std::move(t));
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  if (llvm::Error e = writeFile(options.output, text))
    return fail(llvm::toString(std::move(e)));

  std::string prefix = options.report;
  if (prefix.empty())
    prefix =
        options.output == "-"
            ? std::string("hkg-tune")
            : (llvm::sys::path::parent_path(options.output).empty()
                   ? std::string()
                   : llvm::sys::path::parent_path(options.output).str() + "/") +
                  llvm::sys::path::stem(options.output).str() + ".report";
  std::string md;
  llvm::raw_string_ostream mdos(md);
  mdos << "# hkg-tune report\n\n"
       << llvm::formatv("Device: {0}, chip {1}, budget {2} trials per op, "
                        "seed {3}; then the default and the {4} fastest "
                        "candidates re-measured {5} time(s) each, the lowest "
                        "median of those winning.\n\n",
                        measurer->getName(), target->chip, options.budget,
                        options.seed, options.confirmFinalists,
                        options.confirmRounds);
  llvm::json::Array jsonOps;
  auto finite = [](double v) -> llvm::json::Value {
    if (std::isfinite(v))
      return v;
    return nullptr;
  };
  for (auto [i, t] : llvm::enumerate(tuned)) {
    std::string svgPath = llvm::formatv("{0}-{1}.svg", prefix, i).str();
    if (llvm::Error e = writeFile(svgPath, bestVsTrialsSvg(t)))
      return fail(llvm::toString(std::move(e)));
    mdos << "## " << t.description << "\n\n";
    if (t.best) {
      const Trial &best = t.trials[*t.best];
      mdos << "Search: fastest " << formatUs(best.measurement.medianUs)
           << " (`" << formatKnobs(best.schedule) << "`, " << best.agent
           << " agent)";
      if (t.defaultUs)
        mdos << llvm::formatv("; default schedule {0}, {1:f2}x",
                              formatUs(*t.defaultUs),
                              *t.defaultUs / best.measurement.medianUs);
      mdos << llvm::formatv("; {0} trial(s) in {1:f0} s{2}.\n\n",
                            t.trials.size(), t.searchSeconds,
                            t.stopped ? ", ended by --stop-at-copy" : "");
      if (std::optional<double> copy = t.getCopyUs()) {
        mdos << llvm::formatv("Floor: a device-to-device copy moving the "
                              "op's bytes, timed like the candidates, takes "
                              "{0} (median of {1})",
                              formatUs(*copy), t.copyUs.size());
        if (std::optional<double> d = t.getDefaultUs())
          mdos << "; the default runs at " << formatShareOfCopy(*copy, *d);
        if (std::optional<double> w = t.getWinnerUs())
          mdos << ", the winner at " << formatShareOfCopy(*copy, *w);
        mdos << " of its speed.\n\n";
      }
    } else {
      mdos << "No correct candidate.\n\n";
    }
    if (!t.confirm.finalists.empty() && t.confirm.numMeasurements) {
      mdos << llvm::formatv("Confirmation ({0} measurements in {1:f0} s):\n\n",
                            t.confirm.numMeasurements, t.confirmSeconds)
           << "| finalist | search | re-measured | median | schedule |\n"
           << "|---|---|---|---|---|\n";
      for (auto [k, f] : llvm::enumerate(t.confirm.finalists)) {
        std::string times = llvm::join(
            llvm::map_range(f.remeasured,
                            [](const Measurement &m) {
                              return m.isOk()
                                         ? llvm::formatv("{0:f2}", m.medianUs)
                                               .str()
                                         : stringifyMeasureStatus(m.status)
                                               .str();
                            }),
            ", ");
        bool won = t.confirm.winner && *t.confirm.winner == k;
        mdos << llvm::formatv(
            "| {0}{1}{2} | {3} | {4} | {5} | `{6}` |\n", k + 1,
            f.isDefault ? " (default)" : "", won ? " **winner**" : "",
            formatUs(t.trials[f.trial].measurement.medianUs), times,
            f.isOk() ? formatUs(f.confirmedUs) : std::string("not ok"),
            formatKnobs(t.trials[f.trial].schedule));
      }
      if (std::optional<double> speedup = t.confirm.getSpeedup())
        mdos << llvm::formatv("\nConfirmed speed-up over the default: "
                              "{0:f3}x.\n",
                              *speedup);
      mdos << "\n";
    }
    mdos << "![best time vs trials](" << llvm::sys::path::filename(svgPath)
         << ")\n\n| trial | agent | status | median | schedule |\n"
         << "|---|---|---|---|---|\n";
    for (auto [n, trial] : llvm::enumerate(t.trials))
      mdos << llvm::formatv(
          "| {0} | {1} | {2} | {3} | `{4}` |\n", n + 1, trial.agent,
          stringifyMeasureStatus(trial.measurement.status),
          trial.measurement.isOk() ? formatUs(trial.measurement.medianUs)
                                   : std::string("-"),
          formatKnobs(trial.schedule));
    mdos << "\n";

    llvm::json::Array finalists;
    for (const Finalist &f : t.confirm.finalists) {
      llvm::json::Array times;
      for (const Measurement &m : f.remeasured)
        times.push_back(m.isOk() ? llvm::json::Value(m.medianUs)
                                 : llvm::json::Value(
                                       stringifyMeasureStatus(m.status)));
      finalists.push_back(llvm::json::Object{
          {"schedule", formatKnobs(t.trials[f.trial].schedule)},
          {"default", f.isDefault},
          {"search_us", finite(t.trials[f.trial].measurement.medianUs)},
          {"remeasured_us", std::move(times)},
          {"median_us", finite(f.confirmedUs)}});
    }
    llvm::json::Object entry{
        {"op", t.description},
        {"signature", t.signature},
        {"trials", static_cast<int64_t>(t.trials.size())},
        {"confirm_measurements",
         static_cast<int64_t>(t.confirm.numMeasurements)},
        {"search_seconds", t.searchSeconds},
        {"confirm_seconds", t.confirmSeconds},
        {"default_search_us", t.defaultUs ? llvm::json::Value(*t.defaultUs)
                                          : llvm::json::Value(nullptr)},
        {"finalists", std::move(finalists)}};
    if (t.best)
      entry["search_best"] = llvm::json::Object{
          {"schedule", formatKnobs(t.trials[*t.best].schedule)},
          {"us", t.trials[*t.best].measurement.medianUs}};
    if (t.winner)
      entry["winner"] = formatKnobs(t.trials[*t.winner].schedule);
    if (std::optional<double> speedup = t.confirm.getSpeedup())
      entry["confirmed_speedup"] = *speedup;
    if (std::optional<double> copy = t.getCopyUs()) {
      entry["copy_us"] = *copy;
      if (std::optional<double> d = t.getDefaultUs())
        entry["default_fraction_of_copy"] = *copy / *d;
      if (std::optional<double> w = t.getWinnerUs())
        entry["winner_fraction_of_copy"] = *copy / *w;
    }
    entry["stopped_at_copy"] = t.stopped;
    jsonOps.push_back(std::move(entry));
  }
  {
    std::string json;
    llvm::raw_string_ostream jos(json);
    jos << llvm::formatv("{0:2}",
                         llvm::json::Value(llvm::json::Object{
                             {"chip", target->chip},
                             {"budget", static_cast<int64_t>(options.budget)},
                             {"seed", static_cast<int64_t>(options.seed)},
                             {"ops", std::move(jsonOps)}}))
        << "\n";
    if (llvm::Error e = writeFile(prefix + ".json", json))
      return fail(llvm::toString(std::move(e)));
  }
  if (llvm::Error e = writeFile(prefix + ".md", md))
    return fail(llvm::toString(std::move(e)));
  llvm::errs() << "hkg-tune: wrote " << options.output << " and the report "
               << prefix << ".md\n";
  return 0;
}
