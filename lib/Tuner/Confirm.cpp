//===- Confirm.cpp - re-measure a search's finalists ----------------------===//

#include "hkg/Tuner/Confirm.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::hkg::tuner;

bool Finalist::isOk() const { return !std::isnan(confirmedUs); }

std::optional<double> ConfirmResult::getSpeedup() const {
  if (!winner || !defaultFinalist || !finalists[*defaultFinalist].isOk())
    return std::nullopt;
  return finalists[*defaultFinalist].confirmedUs /
         finalists[*winner].confirmedUs;
}

ConfirmResult mlir::hkg::tuner::confirmFinalists(
    const SearchResult &result, const KnobMap &defaultKnobs,
    const MeasureFn &measure, const ConfirmOptions &options,
    const ConfirmProgressFn &progress) {
  ConfirmResult confirm;
  const std::vector<Trial> &trials = result.trials;
  std::vector<size_t> ok;
  for (size_t i = 0; i < trials.size(); ++i)
    if (trials[i].measurement.isOk())
      ok.push_back(i);
  llvm::sort(ok, [&](size_t a, size_t b) {
    double ta = trials[a].measurement.medianUs,
           tb = trials[b].measurement.medianUs;
    return ta < tb || (ta == tb && a < b);
  });
  for (size_t i : ok)
    if (trials[i].schedule == defaultKnobs) {
      confirm.defaultFinalist = 0;
      confirm.finalists.push_back({i, /*isDefault=*/true, {}, NAN});
      break;
    }
  unsigned others = 0;
  for (size_t i : ok) {
    if (others == options.finalists)
      break;
    if (trials[i].schedule == defaultKnobs)
      continue;
    confirm.finalists.push_back({i, /*isDefault=*/false, {}, NAN});
    ++others;
  }
  if (confirm.finalists.empty() || options.rounds == 0)
    return confirm;

  size_t n = confirm.finalists.size();
  for (unsigned round = 0; round < options.rounds; ++round)
    for (size_t k = 0; k < n; ++k) {
      size_t f = (k + round) % n;
      Finalist &finalist = confirm.finalists[f];
      Measurement m = measure(trials[finalist.trial].schedule);
      ++confirm.numMeasurements;
      finalist.remeasured.push_back(m);
      if (progress)
        progress(round, f, m);
    }
  for (auto [index, finalist] : llvm::enumerate(confirm.finalists)) {
    std::vector<double> times;
    for (const Measurement &m : finalist.remeasured) {
      if (!m.isOk()) {
        times.clear();
        break;
      }
      times.push_back(m.medianUs);
    }
    if (times.empty())
      continue;
    finalist.confirmedUs = median(std::move(times));
    if (!confirm.winner ||
        finalist.confirmedUs < confirm.finalists[*confirm.winner].confirmedUs)
      confirm.winner = index;
  }
  return confirm;
}
