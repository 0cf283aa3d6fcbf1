//===- Tune.cpp - hkg's C API: hkg-autotune in process --------------------===//
//
// hkgTune runs hkg-autotune with hooks: the tuning driver's progress goes to
// the caller as JSON events (the Python package draws its progress bar from
// them), and a caller's measure callback can stand in for the device (the
// Python tests tune against a fake device).
//
//===----------------------------------------------------------------------===//

#include "hkg-c/Hkg.h"

#include "CAPISupport.h"

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Support/InputLimits.h"
#include "hkg/Tuner/DeviceMeasurer.h"
#include "hkg/Tuner/Passes.h"
#include "hkg/Tuner/TuningDriver.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace mlir;
using namespace mlir::hkg::tuner;
using ::hkg::capi::toCString;

namespace {

llvm::json::Value number(double v) {
  if (std::isfinite(v))
    return v;
  return nullptr;
}

void send(HkgTuneEventCallback onEvent, void *user, llvm::json::Object event) {
  if (!onEvent)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(event));
  onEvent(user, text.c_str());
}

/// Forwards the tuning driver's progress as events.
class EventObserver final : public TuningObserver {
public:
  EventObserver(HkgTuneEventCallback onEvent, void *user)
      : onEvent(onEvent), user(user) {}
  void onResume(size_t numTrials) override {
    send(onEvent, user,
         llvm::json::Object{{"event", "resume"},
                            {"trials", int64_t(numTrials)}});
  }
  void onTrial(const TrialProgress &p) override {
    send(onEvent, user,
         llvm::json::Object{
             {"event", "trial"},
             {"number", int64_t(p.number)},
             {"budget", int64_t(p.budget)},
             {"status", stringifyMeasureStatus(p.measurement.status)},
             {"us", number(p.measurement.medianUs)},
             {"best_us", number(p.bestUs)},
             {"eta_s", number(p.etaSeconds)},
             {"schedule", knobsToJson(p.schedule)}});
  }
  void onSearchDone(const TuningResult &r) override {
    double best = r.best ? r.trials[*r.best].measurement.medianUs
                         : std::numeric_limits<double>::quiet_NaN();
    send(onEvent, user,
         llvm::json::Object{{"event", "search_done"},
                            {"trials", int64_t(r.trials.size())},
                            {"best_us", number(best)},
                            {"stopped", r.stopped}});
  }
  void onConfirm(unsigned round, unsigned rounds, size_t finalist,
                 const Measurement &m) override {
    send(onEvent, user,
         llvm::json::Object{{"event", "confirm"},
                            {"round", int64_t(round)},
                            {"rounds", int64_t(rounds)},
                            {"finalist", int64_t(finalist)},
                            {"status", stringifyMeasureStatus(m.status)},
                            {"us", number(m.medianUs)}});
  }

private:
  HkgTuneEventCallback onEvent;
  void *user;
};

/// Measures through the caller's callback.
class CallbackMeasurer final : public Measurer {
public:
  CallbackMeasurer(HkgMeasureCallback measure, void *user)
      : callback(measure), user(user) {}
  Measurement measure(const MeasureRequest &request) override {
    Measurement m;
    llvm::json::Object req{
        {"op", request.op ? request.op->getName().getStringRef().str()
                          : std::string()},
        {"signature", request.signature.str()},
        {"target", request.target ? request.target->chip : std::string()},
        {"schedule", request.schedule ? knobsToJson(*request.schedule)
                                      : llvm::json::Object()}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::json::Value(std::move(req));
    char *answer = callback(user, text.c_str());
    if (!answer) {
      m.status = MeasureStatus::Fault;
      m.message = "the measure callback returned nothing";
      return m;
    }
    std::string reply(answer);
    std::free(answer);
    llvm::Expected<llvm::json::Value> value = ::hkg::parseJSON(reply);
    const llvm::json::Object *obj = value ? value->getAsObject() : nullptr;
    if (!obj) {
      if (!value)
        llvm::consumeError(value.takeError());
      m.status = MeasureStatus::Fault;
      m.message = "the measure callback's answer is not a JSON object";
      return m;
    }
    std::optional<MeasureStatus> status =
        parseMeasureStatus(obj->getString("status").value_or(""));
    if (!status) {
      m.status = MeasureStatus::Fault;
      m.message = "the measure callback's status is not one of ok, wrong, "
                  "compile_error, fault, timeout";
      return m;
    }
    m.status = *status;
    auto get = [&](llvm::StringRef key) {
      return obj->getNumber(key).value_or(
          std::numeric_limits<double>::quiet_NaN());
    };
    m.medianUs = get("median_us");
    m.spread = get("spread");
    m.maxRelErr = get("max_rel_err");
    m.message = obj->getString("message").value_or("").str();
    if (m.isOk() && !(m.medianUs > 0)) {
      m.status = MeasureStatus::Fault;
      m.message = "the measure callback said ok without a positive median_us";
    }
    return m;
  }
  llvm::StringRef getName() const override { return "callback"; }

private:
  HkgMeasureCallback callback;
  void *user;
};

llvm::Error readTuneOptions(const char *json,
                            mlir::hkg::HkgAutotunePassOptions &options,
                            std::string &worker) {
  llvm::Expected<llvm::json::Object> object = ::hkg::capi::parseOptions(json);
  if (!object)
    return object.takeError();
  for (const auto &member : *object) {
    llvm::StringRef key = member.first;
    const llvm::json::Value &v = member.second;
    std::optional<llvm::StringRef> s = v.getAsString();
    std::optional<int64_t> i = v.getAsInteger();
    auto bad = [&](llvm::StringRef what) {
      return llvm::createStringError("options: '" + key.str() + "' must be " +
                                     what.str());
    };
    if (key == "chip" || key == "db" || key == "model" || key == "device" ||
        key == "worker") {
      if (!s)
        return bad("a string");
      if (key == "chip")
        options.chip = s->str();
      else if (key == "db")
        options.db = s->str();
      else if (key == "model")
        options.model = s->str();
      else if (key == "device")
        options.device = s->str();
      else
        worker = s->str();
    } else if (key == "budget" || key == "seed" || key == "confirm_finalists" ||
               key == "confirm_rounds") {
      if (!i || *i < 0 || *i > 1000000)
        return bad("an integer in [0, 1000000]");
      if (key == "budget")
        options.budget = *i;
      else if (key == "seed")
        options.seed = *i;
      else if (key == "confirm_finalists")
        options.confirmFinalists = *i;
      else
        options.confirmRounds = *i;
    } else {
      return llvm::createStringError(
          "options: unknown key '" + key.str() +
          "'; expected chip, budget, db, seed, model, device, "
          "confirm_finalists, confirm_rounds, worker");
    }
  }
  return llvm::Error::success();
}

} // namespace

char *hkgTune(const char *source, size_t length, const char *optionsJson,
              HkgMeasureCallback measure, HkgTuneEventCallback onEvent,
              void *userData, char **result) {
  *result = nullptr;
  mlir::hkg::HkgAutotunePassOptions options;
  std::string worker;
  if (llvm::Error e = readTuneOptions(optionsJson, options, worker))
    return toCString(llvm::toString(std::move(e)));
  std::string error, output;
  ::hkg::runOnLargeStack([&] {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<mlir::hkg::HkgDialect>();
    MLIRContext context(registry);
    context.disableMultithreading();
    llvm::json::Array remarks;
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error) {
        if (!errors.empty())
          errors += "\n";
        errors += "error: " + diag.str();
      } else if (diag.getSeverity() != DiagnosticSeverity::Note) {
        remarks.push_back(diag.str());
      }
      return success();
    });
    if (llvm::Error e = ::hkg::checkInputNesting(
            llvm::StringRef(source, length), ::hkg::InputSyntax::MLIR)) {
      error = llvm::toString(std::move(e));
      return 1;
    }
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(llvm::StringRef(source, length), &context);
    if (!module) {
      error = errors.empty() ? "could not parse the module" : errors;
      return 1;
    }
    EventObserver observer(onEvent, userData);
    std::unique_ptr<Measurer> callbackMeasurer, deviceMeasurer;
    mlir::hkg::AutotuneHooks hooks;
    hooks.observer = &observer;
    if (measure) {
      callbackMeasurer = std::make_unique<CallbackMeasurer>(measure, userData);
      hooks.measurer = callbackMeasurer.get();
    } else if (!worker.empty() && options.device == "auto") {
      // The device measurer with the caller's worker program (the Python
      // package's hkg-run); without a device the pass says why and falls
      // back as usual.
      const mlir::hkg::TargetInfo *target =
          mlir::hkg::lookupTarget(options.chip);
      if (target) {
        DeviceMeasurerOptions dm;
        dm.workerProgram = worker;
        std::string whyNot;
        deviceMeasurer = createDeviceMeasurer(*target, dm, whyNot);
        hooks.measurer = deviceMeasurer.get();
      }
    }
    hooks.onOp = [&](mlir::hkg::HkgKernelOpInterface op, unsigned index,
                     unsigned count) {
      send(onEvent, userData,
           llvm::json::Object{{"event", "op"},
                              {"index", int64_t(index)},
                              {"count", int64_t(count)},
                              {"op", op->getName().getStringRef().str()},
                              {"signature", getOpSignature(op)}});
    };
    PassManager pm(&context);
    pm.addPass(mlir::hkg::createHkgAutotunePass(options, std::move(hooks)));
    if (failed(pm.run(*module))) {
      error = errors.empty() ? "hkg-autotune failed" : errors;
      return 1;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    llvm::json::Object out{{"module", text}, {"remarks", std::move(remarks)}};
    llvm::raw_string_ostream(output) << llvm::json::Value(std::move(out));
    return 0;
  });
  if (!error.empty())
    return toCString(error);
  *result = toCString(output);
  return nullptr;
}
