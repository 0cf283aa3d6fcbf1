//===- Measurer.h - what the tuner asks of a device -------------*- C++ -*-===//
//
// A Measurer turns (op, schedule, target) into a Measurement: compile the
// candidate, run it in an isolated worker, compare it with the reference on
// fresh random inputs, and time it (median of device-event timings).
// Failures and wrong results come back as such and never win a search.
//
// The device-backed measurer lives with the runtime; the tuner reaches it
// through the factory hook below. ReplayMeasurer answers from recorded data,
// for offline evaluation and tests.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_MEASURER_H
#define HKG_TUNER_MEASURER_H

#include "hkg/Tuner/Signature.h"

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace mlir::hkg::tuner {

enum class MeasureStatus { Ok, Wrong, CompileError, Fault, Timeout };

/// "ok", "wrong", "compile_error", "fault", "timeout".
llvm::StringRef stringifyMeasureStatus(MeasureStatus status);
std::optional<MeasureStatus> parseMeasureStatus(llvm::StringRef text);

/// Static statistics of a compiled candidate (vgpr, sgpr, lds_bytes,
/// vgpr_spill, occupancy_waves_per_simd, registers...), as in the kernel
/// bundle manifest's "stats".
using StatMap = std::map<std::string, double>;

struct Measurement {
  MeasureStatus status = MeasureStatus::CompileError;
  /// Median kernel time in microseconds (NaN unless ok).
  double medianUs = std::numeric_limits<double>::quiet_NaN();
  /// Relative spread of the timings, e.g. (p90 - p10) / median.
  double spread = std::numeric_limits<double>::quiet_NaN();
  /// Largest relative error against the reference.
  double maxRelErr = std::numeric_limits<double>::quiet_NaN();
  StatMap stats;
  /// Median time of device-to-device copies moving the op's bytes, timed
  /// like the kernel right after it (NaN when not measured; not stored in
  /// the database).
  double copyUs = std::numeric_limits<double>::quiet_NaN();
  /// Why a candidate failed, for reports (not stored in the database).
  std::string message;
  /// Wall seconds the measurement took, by phase: "compile", "worker" (the
  /// whole worker process) and the worker's own "open" (the device),
  /// "host" (inputs and reference, or the host cache), "load" (the code
  /// object), "check" and "time"; empty where not measured (not stored in
  /// the database).
  StatMap seconds;

  bool isOk() const { return status == MeasureStatus::Ok; }
};

/// The median of `values`; NaN when there are none.
double median(std::vector<double> values);

/// Per phase of Measurement::seconds, the median over the measurements that
/// timed it.
StatMap getMedianSeconds(llvm::ArrayRef<const Measurement *> measurements);

/// One candidate to measure. `op` is the live op when there is one (the
/// pass); replay only needs the signature.
struct MeasureRequest {
  HkgKernelOpInterface op;
  llvm::StringRef signature;
  const TargetInfo *target = nullptr;
  const KnobMap *schedule = nullptr;
};

class Measurer {
public:
  virtual ~Measurer();
  virtual Measurement measure(const MeasureRequest &request) = 0;
  /// A hint that `requests` will be measured next, in this order: a
  /// measurer may start preparing them (the device measurer compiles them
  /// while it runs the ones before), copying what it keeps of them. Nothing
  /// by default.
  virtual void prefetch(llvm::ArrayRef<MeasureRequest> requests) {}
  /// "replay", "cuda", "hip"... for remarks.
  virtual llvm::StringRef getName() const = 0;
};

/// Answers from recorded measurements (signature, target, schedule).
class ReplayMeasurer final : public Measurer {
public:
  void add(llvm::StringRef signature, llvm::StringRef target,
           const KnobMap &schedule, const Measurement &m);
  bool contains(llvm::StringRef signature, llvm::StringRef target,
                const KnobMap &schedule) const;
  /// A schedule with no record comes back as a compile error saying so.
  Measurement measure(const MeasureRequest &request) override;
  llvm::StringRef getName() const override { return "replay"; }
  /// Number of measure() calls answered so far.
  unsigned getNumCalls() const { return numCalls; }

private:
  static std::string key(llvm::StringRef signature, llvm::StringRef target,
                         const KnobMap &schedule);
  std::map<std::string, Measurement> records;
  unsigned numCalls = 0;
};

/// Creates the measurer of the device at hand for `target`, or returns null
/// and says why in `whyNot` (no device, wrong vendor...).
using MeasurerFactory = std::function<std::unique_ptr<Measurer>(
    const TargetInfo &target, std::string &whyNot)>;

/// Installs the device measurer factory (the runtime does this). Passing an
/// empty function removes it.
void setMeasurerFactory(MeasurerFactory factory);

/// Calls the installed factory; null with a reason when none is installed.
std::unique_ptr<Measurer> createDeviceMeasurer(const TargetInfo &target,
                                               std::string &whyNot);

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_MEASURER_H
