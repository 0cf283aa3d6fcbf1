//===- DeviceMeasurer.cpp - compile, run, check and time on a device ------===//

#include "hkg/Tuner/DeviceMeasurer.h"

#include "hkg/Dialect/Hkg/IR/DynamicDims.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Runtime/Bundle.h"
#include "hkg/Runtime/Device.h"
#include "hkg/Runtime/Worker.h"
#include "hkg/Target/Bundle.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Timer.h"

#include "llvm/Support/raw_ostream.h"
#include <future>
#include <map>
#include <mutex>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;
namespace rt = ::hkg::rt;

namespace {
/// Removes a directory tree when it goes out of scope.
struct TempDir {
  llvm::SmallString<128> path;
  ~TempDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

/// A context that can parse an op signature and compile it.
static std::unique_ptr<MLIRContext> makeCompileContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<HkgDialect>();
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->disableMultithreading();
  ctx->loadAllAvailableDialects();
  return ctx;
}

/// A candidate compiled into a temporary directory (its bundle in
/// `<dir>/bundle`), or why it was not.
struct Compiled {
  std::shared_ptr<TempDir> dir = std::make_shared<TempDir>();
  std::optional<std::string> error;
  std::optional<int64_t> sizeHint;
  double seconds = 0;
};

class DeviceMeasurer final : public Measurer {
public:
  DeviceMeasurer(const TargetInfo &target, DeviceMeasurerOptions options,
                 std::string name)
      : target(target), options(std::move(options)), name(std::move(name)) {
    ctx = makeCompileContext();
    // Without a directory the candidates compute their host work each.
    if (!this->options.shareHostWork)
      return;
    if (!this->options.hostCacheDir.empty())
      hostCacheDir = this->options.hostCacheDir;
    else if (!llvm::sys::fs::createUniqueDirectory("hkg-host-work",
                                                   ownHostCache.path))
      hostCacheDir = std::string(ownHostCache.path);
  }

  Measurement measure(const MeasureRequest &request) override;
  void prefetch(llvm::ArrayRef<MeasureRequest> requests) override;
  llvm::StringRef getName() const override { return name; }

private:
  /// Compiles the candidate into `dir` in `context`; an error message on
  /// failure. For an op with dynamic dims, `sizeHint` is set to the size it
  /// is measured at.
  std::optional<std::string> compile(llvm::StringRef signature,
                                     const KnobMap &schedule,
                                     MLIRContext &context, llvm::StringRef dir,
                                     std::optional<int64_t> &sizeHint);
  /// compile() into a fresh temporary directory, timed.
  Compiled compileToTemp(llvm::StringRef signature, const KnobMap &schedule,
                         MLIRContext &context);
  /// The key of a prefetched candidate.
  static std::string getKey(const MeasureRequest &request);

  const TargetInfo &target;
  DeviceMeasurerOptions options;
  std::string name;
  std::unique_ptr<MLIRContext> ctx;
  /// Where the candidates' workers share the op's inputs and reference
  /// (empty: nowhere), and the temporary directory the measurer made for
  /// it, if any.
  std::string hostCacheDir;
  TempDir ownHostCache;
  /// The serving worker (options.serve), started on the first candidate.
  std::unique_ptr<rt::ServingWorker> server;
  /// Prefetched candidates, compiled or being compiled by `pool` in
  /// contexts of `idleContexts` (one taken per compile), by getKey().
  std::map<std::string, std::shared_future<Compiled>> prepared;
  std::mutex contextsMutex;
  std::vector<std::unique_ptr<MLIRContext>> idleContexts;
  /// Declared last: destroyed (its compiles finished) first.
  std::unique_ptr<llvm::DefaultThreadPool> pool;
};
} // namespace

/// The first line of `text`, trimmed.
static std::string firstLine(llvm::StringRef text) {
  return text.trim().split('\n').first.trim().str();
}

std::optional<std::string>
DeviceMeasurer::compile(llvm::StringRef signature, const KnobMap &schedule,
                        MLIRContext &context, llvm::StringRef dir,
                        std::optional<int64_t> &sizeHint) {
  FailureOr<OwningOpRef<ModuleOp>> module =
      parseOpSignature(signature, &context);
  if (failed(module))
    return std::string("the op signature does not parse");
  HkgKernelOpInterface op;
  (*module)->walk([&](HkgKernelOpInterface found) { op = found; });
  if (!op)
    return std::string("the op signature holds no hkg op");
  // An op with dynamic dims is tuned for its size hint, which its signature
  // carries (the size bucket, getOpSignature): every size takes it.
  if (hasDynamicDims(op))
    sizeHint = getSizeHint(op);
  op.setScheduleAttrTo(knobsToAttr(&context, schedule));

  if (!options.compilerProgram.empty()) {
    std::string input = (dir + "/candidate.mlir").str();
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(input, ec);
      if (ec)
        return "cannot write " + input + ": " + ec.message();
      (*module)->print(os);
    }
    std::string out = (dir + "/bundle").str();
    rt::WorkerResult w =
        rt::runWorker(options.compilerProgram,
                      {options.compilerProgram, input,
                       "--chip=" + target.chip.str(), "-o", out},
                      options.timeoutSeconds * 1000);
    if (!w.succeeded())
      return options.compilerProgram + " " + w.message + ": " +
             firstLine(w.errors);
    return std::nullopt;
  }

  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && diagnostics.empty())
      diagnostics = d.str();
    return success();
  });
  BundleOptions bundleOptions;
  bundleOptions.chip = target.chip.str();
  FailureOr<Bundle> bundle = compileBundle(**module, bundleOptions);
  if (failed(bundle))
    return diagnostics.empty() ? std::string("compilation failed")
                               : diagnostics;
  if (llvm::Error e = writeBundle(*bundle, (dir + "/bundle").str(), false))
    return llvm::toString(std::move(e));
  return std::nullopt;
}

Compiled DeviceMeasurer::compileToTemp(llvm::StringRef signature,
                                       const KnobMap &schedule,
                                       MLIRContext &context) {
  Compiled c;
  double start = llvm::TimeRecord::getCurrentTime(true).getWallTime();
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("hkg-measure", c.dir->path))
    c.error = "cannot create a temporary directory: " + ec.message();
  else
    c.error = compile(signature, schedule, context, c.dir->path, c.sizeHint);
  c.seconds = llvm::TimeRecord::getCurrentTime(true).getWallTime() - start;
  return c;
}

std::string DeviceMeasurer::getKey(const MeasureRequest &request) {
  return (request.signature + "\n" + request.target->chip + "\n" +
          formatKnobs(*request.schedule))
      .str();
}

void DeviceMeasurer::prefetch(llvm::ArrayRef<MeasureRequest> requests) {
  if (!pool) {
    // In-process compiles run in parallel, each in a context of its own; an
    // external compiler (the tests' stand-in counts its calls) one at a
    // time, in the order asked.
    unsigned jobs =
        options.compilerProgram.empty()
            ? std::min(8u, llvm::hardware_concurrency().compute_thread_count())
            : 1u;
    pool = std::make_unique<llvm::DefaultThreadPool>(
        llvm::hardware_concurrency(jobs));
  }
  for (const MeasureRequest &request : requests) {
    std::string key = getKey(request);
    if (prepared.count(key))
      continue;
    prepared[key] = pool->async([this, signature = request.signature.str(),
                                 schedule = *request.schedule] {
      std::unique_ptr<MLIRContext> context;
      {
        std::lock_guard<std::mutex> lock(contextsMutex);
        if (!idleContexts.empty()) {
          context = std::move(idleContexts.back());
          idleContexts.pop_back();
        }
      }
      if (!context)
        context = makeCompileContext();
      Compiled c = compileToTemp(signature, schedule, *context);
      std::lock_guard<std::mutex> lock(contextsMutex);
      idleContexts.push_back(std::move(context));
      return c;
    });
  }
}

Measurement DeviceMeasurer::measure(const MeasureRequest &request) {
  Measurement m;
  // A prefetched candidate's compile (waited for), else one here.
  Compiled compiled;
  auto it = prepared.find(getKey(request));
  if (it != prepared.end()) {
    double start = llvm::TimeRecord::getCurrentTime(true).getWallTime();
    compiled = it->second.get();
    prepared.erase(it);
    m.seconds["wait"] =
        llvm::TimeRecord::getCurrentTime(true).getWallTime() - start;
  } else {
    compiled = compileToTemp(request.signature, *request.schedule, *ctx);
  }
  m.seconds["compile"] = compiled.seconds;
  if (compiled.error) {
    m.status = MeasureStatus::CompileError;
    m.message = *compiled.error;
    return m;
  }
  std::optional<int64_t> sizeHint = compiled.sizeHint;
  std::string bundleDir = (compiled.dir->path + "/bundle").str();
  llvm::Expected<rt::Bundle> bundle = rt::loadBundle(bundleDir);
  if (!bundle) {
    m.status = MeasureStatus::CompileError;
    m.message = llvm::toString(bundle.takeError());
    return m;
  }
  if (bundle->kernels.size() != 1) {
    m.status = MeasureStatus::CompileError;
    m.message = llvm::formatv("expected one kernel, the bundle has {0}",
                              bundle->kernels.size());
    return m;
  }
  const rt::KernelSpec &kernel = bundle->kernels.front();
  // A kernel with dynamic sizes runs at the op's size hint; one compiled
  // from an op without dynamic dims has no size to run at.
  if (kernel.hasSizeParameters() && !sizeHint) {
    m.status = MeasureStatus::CompileError;
    m.message = "kernel '" + kernel.name +
                "' has dynamic sizes but the op signature has no dynamic dim "
                "to give them a size";
    return m;
  }
  if (const llvm::json::Object *stats = kernel.stats.getAsObject())
    for (const auto &[key, value] : *stats)
      if (std::optional<double> number = value.getAsNumber())
        m.stats[key.str()] = *number;

  // The options every worker takes; the serving one gets the bundle and
  // kernel in each request, a per-candidate one on its command line.
  std::vector<std::string> common = {
      "--device=" + options.device,
      "--device-index=" + std::to_string(options.ordinal),
      "--seed=" + std::to_string(options.seed),
      "--warmup=" + std::to_string(options.warmup),
      "--reps=" + std::to_string(options.reps),
      llvm::formatv("--time-budget-ms={0}", options.timeBudgetMs).str(),
      "--flush-l2-mib=" + std::to_string(options.flushMiB)};
  if (!options.deviceLock.empty())
    common.push_back("--device-lock=" + options.deviceLock);
  if (options.timeCopy)
    common.push_back("--time-copy");
  if (!hostCacheDir.empty())
    common.push_back("--host-cache=" + hostCacheDir);
  rt::WorkerResult w;
  if (options.serve) {
    if (!server) {
      std::vector<std::string> args = {options.workerProgram, "-", "--serve"};
      llvm::append_range(args, common);
      server = std::make_unique<rt::ServingWorker>(options.workerProgram,
                                                   std::move(args));
    }
    llvm::json::Object request{{"bundle", bundleDir}, {"kernel", kernel.name}};
    if (kernel.hasSizeParameters())
      request["size"] = *sizeHint;
    std::string line;
    llvm::raw_string_ostream(line) << llvm::json::Value(std::move(request));
    w = server->request(line, options.timeoutSeconds * 1000);
  } else {
    std::vector<std::string> args = {options.workerProgram, bundleDir,
                                     "--worker", "--kernel=" + kernel.name};
    llvm::append_range(args, common);
    if (kernel.hasSizeParameters())
      args.push_back("--sizes=" + std::to_string(*sizeHint));
    w = rt::runWorker(options.workerProgram, args,
                      options.timeoutSeconds * 1000);
  }
  m.seconds["worker"] = w.seconds;
  if (w.status == rt::WorkerStatus::TimedOut) {
    m.status = MeasureStatus::Timeout;
    m.message = "worker " + w.message;
    return m;
  }
  // The worker's last stdout line is its result.
  llvm::StringRef out = llvm::StringRef(w.output).rtrim();
  llvm::StringRef last = out.contains('\n') ? out.rsplit('\n').second : out;
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(last);
  const llvm::json::Object *result = parsed ? parsed->getAsObject() : nullptr;
  if (!result) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    m.status = MeasureStatus::Fault;
    m.message = "worker " + w.message;
    if (w.status == rt::WorkerStatus::Exited && !w.errors.empty())
      m.message += ": " + firstLine(w.errors);
    return m;
  }
  if (const llvm::json::Object *phases = result->getObject("seconds"))
    for (const auto &[phase, value] : *phases)
      if (std::optional<double> s = value.getAsNumber())
        m.seconds[phase.str()] = *s;
  llvm::StringRef status = result->getString("status").value_or("");
  m.message = result->getString("message").value_or("").str();
  if (const llvm::json::Object *check = result->getObject("check"))
    if (std::optional<double> e = check->getNumber("norm_rel_error"))
      m.maxRelErr = *e;
  if (status == "pass") {
    const llvm::json::Object *timing = result->getObject("timing");
    std::optional<double> median =
        timing ? timing->getNumber("median_us") : std::nullopt;
    if (!median) {
      m.status = MeasureStatus::Fault;
      m.message = "the worker passed the check but reported no timing";
      return m;
    }
    m.status = MeasureStatus::Ok;
    m.medianUs = *median;
    if (std::optional<double> min = timing->getNumber("min_us"))
      if (*median > 0)
        m.spread = (*median - *min) / *median;
    if (std::optional<double> copy = timing->getNumber("copy_us"))
      m.copyUs = *copy;
    return m;
  }
  // A serving worker exits after a run without a verdict (its device may
  // be unusable); the next candidate gets a fresh one.
  if (server && status != "fail")
    server->reset();
  m.status = status == "fail" ? MeasureStatus::Wrong : MeasureStatus::Fault;
  if (m.message.empty())
    m.message = "worker status '" + status.str() + "'";
  return m;
}

/// The worker: options.workerProgram, $HKG_RUN, hkg-run next to this
/// executable, or on PATH; empty when none is found.
static std::string findWorker(const DeviceMeasurerOptions &options) {
  if (!options.workerProgram.empty())
    return options.workerProgram;
  if (const char *env = std::getenv("HKG_RUN"); env && *env)
    return env;
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(
      "hkg-run", {llvm::sys::path::parent_path(self)});
  if (!found)
    found = llvm::sys::findProgramByName("hkg-run");
  return found ? *found : std::string();
}

std::unique_ptr<Measurer>
mlir::hkg::tuner::createDeviceMeasurer(const TargetInfo &target,
                                       const DeviceMeasurerOptions &options,
                                       std::string &whyNot) {
  std::optional<rt::DeviceKind> kind = rt::parseDeviceKind(options.device);
  if (!kind) {
    whyNot = "unknown device kind '" + options.device + "'";
    return nullptr;
  }
  std::string name;
  {
    auto device = rt::Device::open(*kind, options.ordinal);
    if (!device) {
      whyNot = llvm::toString(device.takeError());
      return nullptr;
    }
    const std::string &arch = (*device)->getArch();
    if (!arch.empty() && arch != target.chip) {
      whyNot = "the device is " + arch + " (" + (*device)->getName() +
               "), not " + target.chip.str();
      return nullptr;
    }
    bool isCuda = (*device)->getKind() == rt::DeviceKind::Cuda;
    if (isCuda == target.isAMD()) {
      whyNot = "the device (" + (*device)->getName() + ") cannot run " +
               target.chip.str() + " code";
      return nullptr;
    }
    name = isCuda ? "cuda" : "hip";
  }
  DeviceMeasurerOptions resolved = options;
  resolved.workerProgram = findWorker(options);
  if (resolved.workerProgram.empty()) {
    whyNot = "no worker: hkg-run is neither next to this tool nor on PATH "
             "(or HKG_RUN)";
    return nullptr;
  }
  if (resolved.compilerProgram.empty())
    if (const char *env = std::getenv("HKG_COMPILE"); env && *env)
      resolved.compilerProgram = env;
  return std::make_unique<DeviceMeasurer>(target, std::move(resolved),
                                          std::move(name));
}

void mlir::hkg::tuner::registerDeviceMeasurer(DeviceMeasurerOptions options) {
  setMeasurerFactory(
      [options](const TargetInfo &target,
                std::string &whyNot) -> std::unique_ptr<Measurer> {
        return createDeviceMeasurer(target, options, whyNot);
      });
}
