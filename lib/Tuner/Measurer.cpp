//===- Measurer.cpp - measurement status, replay and the device hook ------===//

#include "hkg/Tuner/Measurer.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <mutex>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

Measurer::~Measurer() = default;

StringRef mlir::hkg::tuner::stringifyMeasureStatus(MeasureStatus status) {
  switch (status) {
  case MeasureStatus::Ok:
    return "ok";
  case MeasureStatus::Wrong:
    return "wrong";
  case MeasureStatus::CompileError:
    return "compile_error";
  case MeasureStatus::Fault:
    return "fault";
  case MeasureStatus::Timeout:
    return "timeout";
  }
  llvm_unreachable("unknown status");
}

std::optional<MeasureStatus>
mlir::hkg::tuner::parseMeasureStatus(StringRef text) {
  return llvm::StringSwitch<std::optional<MeasureStatus>>(text)
      .Case("ok", MeasureStatus::Ok)
      .Case("wrong", MeasureStatus::Wrong)
      .Case("compile_error", MeasureStatus::CompileError)
      .Case("fault", MeasureStatus::Fault)
      .Case("timeout", MeasureStatus::Timeout)
      .Default(std::nullopt);
}

double mlir::hkg::tuner::median(std::vector<double> values) {
  if (values.empty())
    return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

StatMap mlir::hkg::tuner::getMedianSeconds(
    llvm::ArrayRef<const Measurement *> measurements) {
  std::map<std::string, std::vector<double>> byPhase;
  for (const Measurement *m : measurements)
    for (const auto &[phase, seconds] : m->seconds)
      byPhase[phase].push_back(seconds);
  StatMap medians;
  for (auto &[phase, values] : byPhase)
    medians[phase] = median(std::move(values));
  return medians;
}

std::string ReplayMeasurer::key(StringRef signature, StringRef target,
                                const KnobMap &schedule) {
  return (signature + "\n" + target + "\n" + formatKnobs(schedule)).str();
}

void ReplayMeasurer::add(StringRef signature, StringRef target,
                         const KnobMap &schedule, const Measurement &m) {
  records[key(signature, target, schedule)] = m;
}

bool ReplayMeasurer::contains(StringRef signature, StringRef target,
                              const KnobMap &schedule) const {
  return records.count(key(signature, target, schedule));
}

Measurement ReplayMeasurer::measure(const MeasureRequest &request) {
  ++numCalls;
  auto it = records.find(
      key(request.signature, request.target->chip, *request.schedule));
  if (it != records.end())
    return it->second;
  Measurement m;
  m.status = MeasureStatus::CompileError;
  m.message = "no recorded measurement for this schedule";
  return m;
}

static std::mutex factoryMutex;
static MeasurerFactory &getFactory() {
  static MeasurerFactory factory;
  return factory;
}

void mlir::hkg::tuner::setMeasurerFactory(MeasurerFactory factory) {
  std::lock_guard<std::mutex> lock(factoryMutex);
  getFactory() = std::move(factory);
}

std::unique_ptr<Measurer>
mlir::hkg::tuner::createDeviceMeasurer(const TargetInfo &target,
                                       std::string &whyNot) {
  std::lock_guard<std::mutex> lock(factoryMutex);
  if (!getFactory()) {
    whyNot = "no device runtime is linked into this tool";
    return nullptr;
  }
  std::unique_ptr<Measurer> m = getFactory()(target, whyNot);
  if (!m && whyNot.empty())
    whyNot = "no device found for " + target.chip.str();
  return m;
}
