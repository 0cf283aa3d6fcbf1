//===- AutotunePass.cpp - pick schedules by measuring, replaying, policy -===//
//
// hkg-autotune: for each hkg op without a schedule, tune it on the device
// when one is available, else replay the database, else ask the policy
// model, else take the default; a remark says which. The tuning itself is
// the driver's (TuningDriver.h), shared with `hkg-tune tune`.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Tuner/Passes.h"
#include "hkg/Tuner/TuningDriver.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "hkg-autotune"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGAUTOTUNEPASS
#include "hkg/Tuner/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

namespace mlir::hkg {
namespace {
struct HkgAutotunePass final : impl::HkgAutotunePassBase<HkgAutotunePass> {
  using Base::Base;
  HkgAutotunePass(const HkgAutotunePassOptions &options, AutotuneHooks hooks)
      : Base(options), hooks(std::move(hooks)) {}

  void runOnOperation() override;

  AutotuneHooks hooks;
};
} // namespace
} // namespace mlir::hkg

namespace {
/// Picks the schedules of one run of the pass.
class SchedulePicker {
public:
  SchedulePicker(TuningDriver &driver, StringRef modelPath,
                 TuningObserver *observer)
      : driver(driver), modelPath(modelPath), observer(observer) {}

  LogicalResult tuneOnDevice(HkgKernelOpInterface op, const TargetInfo &target,
                             Measurer &measurer);
  LogicalResult pickWithoutDevice(HkgKernelOpInterface op,
                                  const TargetInfo &target, StringRef why);

private:
  TuningDriver &driver;
  StringRef modelPath;
  TuningObserver *observer;
};
} // namespace

LogicalResult SchedulePicker::tuneOnDevice(HkgKernelOpInterface op,
                                           const TargetInfo &target,
                                           Measurer &measurer) {
  llvm::Expected<TuningResult> tuned =
      driver.tune(op, target, measurer, observer);
  if (!tuned) {
    op.emitError("hkg-autotune: ") << llvm::toString(tuned.takeError());
    return failure();
  }
  if (!tuned->recordError.empty())
    op.emitWarning("hkg-autotune: measurements were not all stored: ")
        << tuned->recordError;
  if (!tuned->best)
    return pickWithoutDevice(
        op, target,
        llvm::formatv("none of {0} measured candidates on {1} was correct",
                      tuned->trials.size(), measurer.getName())
            .str());
  InFlightDiagnostic remark =
      op.emitRemark() << "hkg-autotune: measured "
                      << tuned->trials.size() - tuned->numReused
                      << " candidates on " << measurer.getName()
                      << " and reused " << tuned->numReused
                      << " from the database; ";
  const Trial *winner = tuned->getWinner();
  if (!winner) {
    // Every finalist failed a re-measurement: the device or the kernels are
    // unreliable, so neither the search's fastest trial nor a database
    // record of it is trusted.
    op.setScheduleAttrTo(op.getDefaultSchedule(target));
    remark << "no finalist passed every re-measurement; using the default "
              "schedule";
    return success();
  }
  op.setScheduleAttrTo(knobsToAttr(op->getContext(), winner->schedule));
  remark << "best " << llvm::formatv("{0:f2}", winner->measurement.medianUs)
         << " us by the " << winner->agent << " agent"
         << tuned->describeAgainstDefault();
  return success();
}

LogicalResult SchedulePicker::pickWithoutDevice(HkgKernelOpInterface op,
                                                const TargetInfo &target,
                                                StringRef why) {
  std::string prefix = "hkg-autotune: " + why.str() + "; ";
  // 1. The fastest correct record of the database that is still legal.
  llvm::Expected<std::optional<TuningRecord>> record =
      driver.getFastestRecord(op, target);
  if (!record) {
    op.emitError("hkg-autotune: ") << llvm::toString(record.takeError());
    return failure();
  }
  if (*record) {
    const TuningRecord &r = **record;
    op.setScheduleAttrTo(knobsToAttr(op->getContext(), r.schedule));
    op.emitRemark() << prefix << "replayed the fastest database record ("
                    << llvm::formatv("{0:f2}", r.measurement.medianUs)
                    << " us, measured " << r.date << ")";
    return success();
  }
  // 2. The policy, zero-shot among legal candidates.
  llvm::Expected<std::optional<ZeroShotPick>> pick =
      driver.pickZeroShot(op, target);
  if (!pick) {
    op.emitError("hkg-autotune: ") << llvm::toString(pick.takeError());
    return failure();
  }
  if (*pick) {
    std::string origin = driver.hasModel()
                             ? "the policy model '" + modelPath.str() + "'"
                             : std::string("a policy trained from the "
                                           "database");
    op.setScheduleAttrTo(knobsToAttr(op->getContext(), (*pick)->schedule));
    op.emitRemark() << prefix << "picked zero-shot by " << origin << " among "
                    << (*pick)->numCandidates << " legal candidates";
    return success();
  }
  // 3. The default schedule.
  op.setScheduleAttrTo(op.getDefaultSchedule(target));
  op.emitRemark() << prefix
                  << "no database record or policy model for this op; "
                     "using the default schedule";
  return success();
}

void HkgAutotunePass::runOnOperation() {
  Operation *root = getOperation();
  if (device != "auto" && device != "none") {
    root->emitError("hkg-autotune: unknown device '")
        << device << "'; expected auto or none";
    return signalPassFailure();
  }
  std::unique_ptr<TuningDatabase> database;
  if (!db.empty()) {
    // Measuring creates the database; replaying needs an existing one.
    llvm::Expected<std::unique_ptr<TuningDatabase>> opened =
        TuningDatabase::open(db, /*create=*/device == "auto");
    if (!opened) {
      root->emitError("hkg-autotune: ") << llvm::toString(opened.takeError());
      return signalPassFailure();
    }
    database = std::move(*opened);
  }
  std::unique_ptr<Policy> loadedModel;
  if (!model.empty()) {
    llvm::Expected<std::unique_ptr<Policy>> loaded = Policy::load(model);
    if (!loaded) {
      root->emitError("hkg-autotune: ") << llvm::toString(loaded.takeError());
      return signalPassFailure();
    }
    loadedModel = std::move(*loaded);
  }
  TuningOptions options;
  options.budget = budget;
  options.batch = batch;
  options.seed = seed;
  options.confirmFinalists = confirmFinalists;
  options.confirmRounds = confirmRounds;
  TuningDriver driver(options, database.get(), loadedModel.get());
  SchedulePicker picker(driver, model, hooks.observer);

  SmallVector<HkgKernelOpInterface> ops;
  root->walk([&](HkgKernelOpInterface op) {
    if (!op.getScheduleAttrOrNull())
      ops.push_back(op);
  });
  // One device measurer per chip, created on first use.
  llvm::StringMap<std::unique_ptr<Measurer>> measurers;
  llvm::StringMap<std::string> noDeviceReasons;
  bool failed = false;
  for (unsigned index = 0; index < ops.size(); ++index) {
    HkgKernelOpInterface op = ops[index];
    if (hooks.onOp)
      hooks.onOp(op, index, ops.size());
    FailureOr<const TargetInfo *> target = getTargetFor(op, chip);
    if (::mlir::failed(target)) {
      failed = true;
      break;
    }
    const TargetInfo &t = **target;
    LogicalResult picked = failure();
    if (device == "none") {
      picked = picker.pickWithoutDevice(op, t, "device=none");
    } else {
      if (!hooks.measurer && !measurers.count(t.chip)) {
        std::string whyNot;
        measurers[t.chip] = createDeviceMeasurer(t, whyNot);
        noDeviceReasons[t.chip] = whyNot;
      }
      if (Measurer *m =
              hooks.measurer ? hooks.measurer : measurers[t.chip].get())
        picked = picker.tuneOnDevice(op, t, *m);
      else
        picked = picker.pickWithoutDevice(op, t,
                                          "no device to measure on (" +
                                              noDeviceReasons[t.chip] + ")");
    }
    if (::mlir::failed(picked) ||
        ::mlir::failed(verifySchedule(op, op.getScheduleAttrOrNull(), t,
                                      [&] { return op.emitOpError(); })))
      failed = true;
  }
  if (failed)
    signalPassFailure();
}

std::unique_ptr<Pass>
mlir::hkg::createHkgAutotunePass(const HkgAutotunePassOptions &options,
                                 AutotuneHooks hooks) {
  return std::make_unique<HkgAutotunePass>(options, std::move(hooks));
}
