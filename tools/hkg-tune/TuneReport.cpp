//===- TuneReport.cpp - `hkg-tune tune`'s report --------------------------===//

#include "TuneReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

std::string mlir::hkg::tuner::formatShareOfCopy(double copyUs, double us) {
  return llvm::formatv("{0:f1}%", 100.0 * copyUs / us).str();
}

std::string mlir::hkg::tuner::formatUs(double us) {
  return llvm::formatv("{0:f2} us", us).str();
}

llvm::Error mlir::hkg::tuner::writeTextFile(llvm::StringRef path,
                                            llvm::StringRef text) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError("cannot write '" + path.str() +
                                   "': " + ec.message());
  out.os() << text;
  out.keep();
  return llvm::Error::success();
}

/// An SVG line plot of the best time so far (and each ok trial as a dot)
/// against the trial number.
static std::string bestVsTrialsSvg(const TunedOp &op) {
  const double w = 640, h = 400, left = 70, right = 20, top = 40, bottom = 50;
  const std::vector<Trial> &trials = op.result.trials;
  std::vector<double> best;
  double bestSoFar = INFINITY, lo = INFINITY, hi = 0;
  for (const Trial &trial : trials) {
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
                      w / 2, op.description);
  size_t n = trials.size();
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
    if (trials[i].measurement.isOk())
      os << llvm::formatv("<circle cx=\"{0:f1}\" cy=\"{1:f1}\" r=\"2.5\" "
                          "fill=\"#999\"/>\n",
                          x(i), y(trials[i].measurement.medianUs));
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

/// The search's summary and the floor.
static void printSearchSummary(llvm::raw_ostream &os, const TunedOp &op) {
  const TuningResult &t = op.result;
  if (!t.best) {
    os << "No correct candidate.\n\n";
    return;
  }
  const Trial &best = t.trials[*t.best];
  os << "Search: fastest " << formatUs(best.measurement.medianUs) << " (`"
     << formatKnobs(best.schedule) << "`, " << best.agent << " agent)";
  if (t.defaultUs)
    os << llvm::formatv("; default schedule {0}, {1:f2}x",
                        formatUs(*t.defaultUs),
                        *t.defaultUs / best.measurement.medianUs);
  os << llvm::formatv("; {0} trial(s) in {1:f0} s{2}.\n\n", t.trials.size(),
                      t.searchSeconds,
                      t.stopped ? ", ended by --stop-at-copy" : "");
  if (std::optional<double> copy = t.getCopyUs()) {
    os << llvm::formatv("Floor: a device-to-device copy moving the op's "
                        "bytes, timed like the candidates, takes {0} (median "
                        "of {1})",
                        formatUs(*copy), t.copyUs.size());
    if (std::optional<double> d = t.getDefaultUs())
      os << "; the default runs at " << formatShareOfCopy(*copy, *d);
    if (std::optional<double> w = t.getWinnerUs())
      os << ", the winner at " << formatShareOfCopy(*copy, *w);
    os << " of its speed.\n\n";
  }
}

/// The confirmation's table, when it measured anything.
static void printConfirmation(llvm::raw_ostream &os, const TunedOp &op) {
  const TuningResult &t = op.result;
  if (t.confirm.finalists.empty() || !t.confirm.numMeasurements)
    return;
  os << llvm::formatv("Confirmation ({0} measurements in {1:f0} s):\n\n",
                      t.confirm.numMeasurements, t.confirmSeconds)
     << "| finalist | search | re-measured | median | schedule |\n"
     << "|---|---|---|---|---|\n";
  for (auto [k, f] : llvm::enumerate(t.confirm.finalists)) {
    std::string times = llvm::join(
        llvm::map_range(f.remeasured,
                        [](const Measurement &m) {
                          return m.isOk()
                                     ? llvm::formatv("{0:f2}", m.medianUs).str()
                                     : stringifyMeasureStatus(m.status).str();
                        }),
        ", ");
    bool won = t.confirm.winner && *t.confirm.winner == k;
    os << llvm::formatv("| {0}{1}{2} | {3} | {4} | {5} | `{6}` |\n", k + 1,
                        f.isDefault ? " (default)" : "",
                        won ? " **winner**" : "",
                        formatUs(t.trials[f.trial].measurement.medianUs), times,
                        f.isOk() ? formatUs(f.confirmedUs)
                                 : std::string("not ok"),
                        formatKnobs(t.trials[f.trial].schedule));
  }
  if (std::optional<double> speedup = t.confirm.getSpeedup())
    os << llvm::formatv("\nConfirmed speed-up over the default: {0:f3}x.\n",
                        *speedup);
  os << "\n";
}

/// One op's section of PREFIX.md.
static void printMarkdownOp(llvm::raw_ostream &os, const TunedOp &op,
                            llvm::StringRef svgName) {
  os << "## " << op.description << "\n\n";
  printSearchSummary(os, op);
  printConfirmation(os, op);
  os << "![best time vs trials](" << svgName
     << ")\n\n| trial | agent | status | median | schedule |\n"
     << "|---|---|---|---|---|\n";
  for (auto [n, trial] : llvm::enumerate(op.result.trials))
    os << llvm::formatv("| {0} | {1} | {2} | {3} | `{4}` |\n", n + 1,
                        trial.agent,
                        stringifyMeasureStatus(trial.measurement.status),
                        trial.measurement.isOk()
                            ? formatUs(trial.measurement.medianUs)
                            : std::string("-"),
                        formatKnobs(trial.schedule));
  os << "\n";
}

static llvm::json::Value finiteOrNull(double v) {
  if (std::isfinite(v))
    return v;
  return nullptr;
}

/// One op's entry of PREFIX.json.
static llvm::json::Object getJsonOp(const TunedOp &op) {
  const TuningResult &t = op.result;
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
        {"search_us", finiteOrNull(t.trials[f.trial].measurement.medianUs)},
        {"remeasured_us", std::move(times)},
        {"median_us", finiteOrNull(f.confirmedUs)}});
  }
  llvm::json::Object entry{
      {"op", op.description},
      {"signature", op.signature},
      {"trials", static_cast<int64_t>(t.trials.size())},
      {"confirm_measurements", static_cast<int64_t>(t.confirm.numMeasurements)},
      {"search_seconds", t.searchSeconds},
      {"confirm_seconds", t.confirmSeconds},
      {"default_search_us", t.defaultUs ? llvm::json::Value(*t.defaultUs)
                                        : llvm::json::Value(nullptr)},
      {"finalists", std::move(finalists)}};
  if (t.best)
    entry["search_best"] =
        llvm::json::Object{{"schedule", formatKnobs(t.trials[*t.best].schedule)},
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
  return entry;
}

llvm::Error mlir::hkg::tuner::writeTuneReport(llvm::StringRef prefix,
                                              const TuneReportHeader &header,
                                              llvm::ArrayRef<TunedOp> ops) {
  const TuningOptions &options = header.options;
  std::string md;
  llvm::raw_string_ostream mdos(md);
  mdos << "# hkg-tune report\n\n"
       << llvm::formatv("Device: {0}, chip {1}, budget {2} trials per op, "
                        "seed {3}; then the default and the {4} fastest "
                        "candidates re-measured {5} time(s) each, the lowest "
                        "median of those winning.\n\n",
                        header.deviceName, header.chip, options.budget,
                        options.seed, options.confirmFinalists,
                        options.confirmRounds);
  llvm::json::Array jsonOps;
  for (auto [i, op] : llvm::enumerate(ops)) {
    std::string svgPath = llvm::formatv("{0}-{1}.svg", prefix, i).str();
    if (llvm::Error e = writeTextFile(svgPath, bestVsTrialsSvg(op)))
      return e;
    printMarkdownOp(mdos, op, llvm::sys::path::filename(svgPath));
    jsonOps.push_back(getJsonOp(op));
  }
  std::string json;
  llvm::raw_string_ostream jos(json);
  jos << llvm::formatv("{0:2}",
                       llvm::json::Value(llvm::json::Object{
                           {"chip", header.chip},
                           {"budget", static_cast<int64_t>(options.budget)},
                           {"seed", static_cast<int64_t>(options.seed)},
                           {"ops", std::move(jsonOps)}}))
      << "\n";
  if (llvm::Error e = writeTextFile((prefix + ".json").str(), json))
    return e;
  return writeTextFile((prefix + ".md").str(), md);
}
