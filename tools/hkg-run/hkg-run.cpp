//===- hkg-run.cpp - run, check and time the kernels of a bundle ----------===//
//
// hkg-run reads a kernel bundle (manifest.json + binaries), and for each
// kernel: fills fresh seeded random inputs, poisons the outputs, launches on
// the GPU (CUDA or HIP, found at run time), compares against the host
// reference computed from the manifest's `source`, then times the kernel
// with device events (warm-up, median of N runs) and prints the achieved
// bandwidth and FLOP rate next to the op's floor on that target.
//
// A kernel with dynamic sizes runs once per --sizes value, every size
// parameter taking that value (KernelSpec::specialize); static kernels run
// once.
//
// Each kernel runs in a worker process (hkg-run itself, in --worker mode)
// with a deadline, so a kernel that faults or hangs is reported as failed and
// the others still run. See docs/Runtime.md.
//
// Exit codes: 0 every kernel passed; 1 some kernel failed; 2 no usable GPU;
// 3 bad usage or an unreadable bundle.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Bundle.h"
#include "hkg/Runtime/Device.h"
#include "hkg/Runtime/HostWorkCache.h"
#include "hkg/Runtime/KernelRunner.h"
#include "hkg/Runtime/PlanRunner.h"
#include "hkg/Runtime/Worker.h"
#include "hkg/Support/InputLimits.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <iostream>
#include <thread>

using namespace hkg::rt;
namespace cl = llvm::cl;
namespace json = llvm::json;

namespace {
enum ExitCode { ExitPass = 0, ExitFail = 1, ExitNoDevice = 2, ExitUsage = 3 };
} // namespace

static cl::OptionCategory category("hkg-run options");
static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<bundle directory, "
                                               "manifest.json, or .mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    deviceOpt("device", cl::desc("GPU runtime: auto, cuda or hip"),
              cl::init("auto"), cl::cat(category));
static cl::opt<std::string>
    chipOpt("chip",
            cl::desc("Chip to compile an .mlir input for (default: the "
                     "device's, e.g. sm_90)"),
            cl::cat(category));
static cl::opt<int> ordinalOpt("device-index", cl::desc("GPU ordinal"),
                               cl::init(0), cl::cat(category));
static cl::list<std::string>
    kernelNames("kernel", cl::desc("Run only this kernel (repeatable)"),
                cl::cat(category));
static cl::opt<uint64_t> seedOpt("seed", cl::desc("Seed of the random inputs"),
                                 cl::init(1), cl::cat(category));
static cl::opt<unsigned> warmupOpt("warmup", cl::desc("Untimed launches"),
                                   cl::init(10), cl::cat(category));
static cl::opt<unsigned> repsOpt("reps",
                                 cl::desc("Timed launches (median reported); "
                                          "0 checks without timing"),
                                 cl::init(100), cl::cat(category));
static cl::opt<double> timeBudgetMs(
    "time-budget-ms",
    cl::desc("Milliseconds one kernel's launches may take: a slower kernel "
             "gets one warm-up and as many timed launches as fit (at least "
             "5); 0: no limit"),
    cl::init(0), cl::cat(category));
static cl::opt<double>
    timeoutOpt("timeout",
               cl::desc("Seconds a kernel's worker may run (check, reference "
                        "and timing) before it is killed"),
               cl::init(120), cl::cat(category));
static cl::opt<double> maxRefWork(
    "max-ref-madds",
    cl::desc("Bound on the multiply-adds of a matmul/attention reference; "
             "beyond it a spread of output rows is checked"),
    cl::init(8e9), cl::cat(category));
static cl::opt<std::string> jsonOut("json",
                                    cl::desc("Also write the results as JSON"),
                                    cl::value_desc("file"), cl::cat(category));
static cl::opt<double>
    ceilingBw("ceiling-bw",
              cl::desc("Measured bandwidth ceiling in GB/s (default: the "
                       "target table's peak)"),
              cl::init(0), cl::cat(category));
static cl::opt<double>
    ceilingTflops("ceiling-tflops",
                  cl::desc("Measured compute ceiling in TFLOP/s (default: the "
                           "target table's peak)"),
                  cl::init(0), cl::cat(category));
static cl::opt<unsigned> copyCeilingMiB(
    "measure-copy-mib",
    cl::desc("Measure the bandwidth ceiling first with device-to-device "
             "copies of this many MiB (PERF.md's method; 0: use the target "
             "table or --ceiling-bw)"),
    cl::init(1024), cl::cat(category));
static cl::opt<unsigned> flushMiB(
    "flush-l2-mib",
    cl::desc("MiB overwritten before each timed launch so it starts with a "
             "cold L2 (0: no flush)"),
    cl::init(256), cl::cat(category));
static cl::opt<std::string> deviceLock(
    "device-lock",
    cl::desc("Hold an exclusive lock on this file while a kernel uses the "
             "GPU (check and timed launches), so that processes sharing one "
             "GPU through the same file never overlap on it"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> timeCopyOpt(
    "time-copy",
    cl::desc("Also time device-to-device copies that move each kernel's "
             "bytes, the same way and right after it: the floor measured at "
             "the op's size (copy_us, %copy)"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> hostCache(
    "host-cache",
    cl::desc("Keep each kernel's random inputs and float64 reference in this "
             "directory and reuse them in later runs of the same op and seed "
             "(any schedule): hkg-tune's candidates share them"),
    cl::value_desc("dir"), cl::cat(category));
static cl::list<int64_t> sizesOpt(
    "sizes",
    cl::desc("Sizes to run the kernels with dynamic sizes at: each such "
             "kernel is checked (and timed) once per value, every size "
             "parameter of the kernel taking that value"),
    cl::value_desc("V[,V...]"), cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> planOpt(
    "plan",
    cl::desc("Run the bundle's launch plans (manifest `plans`) instead of "
             "its kernels one by one: the steps in order on one stream, the "
             "outputs checked against the composed float64 reference, the "
             "plan timed next to the sum of its kernels' standalone times "
             "(in this process; with --sizes, every plan size takes each "
             "value in turn)"),
    cl::init(false), cl::cat(category));
static cl::opt<bool>
    noIsolation("no-isolation",
                cl::desc("Run kernels in this process (no fault isolation)"),
                cl::init(false), cl::cat(category));

// Internal: the worker mode, and a fault injector for testing isolation.
static cl::opt<bool> workerMode("worker", cl::Hidden,
                                cl::desc("Run one kernel (internal)"));
static cl::opt<bool> serveMode(
    "serve", cl::Hidden,
    cl::desc("Serve runs (internal, the tuner's measurer): one JSON request "
             "a line on stdin, {\"bundle\": DIR, \"kernel\": NAME[, "
             "\"size\": N]}, one record a line on stdout, on one device "
             "opened once, the last op's host work kept in memory; exits at "
             "the end of its input or after a run that did not reach a "
             "verdict (the device may be unusable)"));
static cl::list<std::string> testFaults(
    "test-fault", cl::Hidden,
    cl::desc("Testing only: <kernel>=crash|hang makes that kernel's worker "
             "segfault or hang before touching the GPU; the parent then "
             "skips its device probe"));

//===----------------------------------------------------------------------===//
// The worker: one kernel, result as one JSON object on stdout
//===----------------------------------------------------------------------===//

static RunOptions getRunOptions() {
  RunOptions options;
  options.seed = seedOpt;
  options.warmup = warmupOpt;
  options.reps = repsOpt;
  options.timeBudgetS = timeBudgetMs * 1e-3;
  options.flushBytes = size_t(flushMiB) << 20;
  options.maxReferenceMultiplyAdds = maxRefWork;
  options.ceilingBandwidthGBs = ceilingBw;
  options.ceilingTflops = ceilingTflops;
  options.deviceLockPath = deviceLock;
  options.timeCopy = timeCopyOpt;
  options.hostCacheDir = hostCache;
  return options;
}

/// The record of a kernel that could not be run to a verdict.
static json::Object errorRecord(const KernelSpec &spec, llvm::StringRef status,
                                llvm::Error error) {
  return json::Object{{"name", spec.name},
                      {"op", spec.op},
                      {"status", status},
                      {"message", llvm::toString(std::move(error))}};
}

/// Why a kernel with dynamic sizes cannot run without --sizes.
static std::string getNoSizesMessage(const KernelSpec &spec) {
  return "kernel '" + spec.name +
         "' has dynamic sizes: pass --sizes=V[,V...] to run it at those sizes";
}

/// The kernel `spec` with every size parameter taking `size` (a --sizes
/// value); a static kernel as it is.
static llvm::Expected<KernelSpec> specializeTo(const KernelSpec &spec,
                                               std::optional<int64_t> size) {
  if (!spec.hasSizeParameters())
    return spec;
  if (!size)
    return llvm::createStringError(getNoSizesMessage(spec));
  return spec.specialize(llvm::SmallVector<int64_t>(spec.sizes.size(), *size));
}

/// Runs one (concrete) kernel in this process and returns its record.
static json::Object runHere(const Bundle &bundle, const KernelSpec &spec,
                            DeviceKind kind) {
  double start = llvm::TimeRecord::getCurrentTime(true).getWallTime();
  auto device = Device::open(kind, ordinalOpt);
  if (!device)
    return errorRecord(spec, "no-device", device.takeError());
  double openSeconds =
      llvm::TimeRecord::getCurrentTime(true).getWallTime() - start;
  auto record = runKernel(bundle, spec, **device, getRunOptions());
  if (!record)
    return errorRecord(spec, "error", record.takeError());
  if (json::Object *seconds = record->getObject("seconds"))
    (*seconds)["open"] = openSeconds;
  record->try_emplace("name", spec.name);
  record->try_emplace("op", spec.op);
  return std::move(*record);
}

static void applyTestFault(llvm::StringRef kernel) {
  for (llvm::StringRef fault : testFaults) {
    auto [name, kind] = fault.split('=');
    if (name != kernel)
      continue;
    if (kind == "crash")
      std::raise(SIGSEGV);
    if (kind == "hang")
      while (true)
        std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

/// Runs one kernel (at the one --sizes value, for a kernel with dynamic
/// sizes) and prints its record as JSON; returns the exit code.
static int workerMain(const Bundle &bundle, const KernelSpec &spec,
                      DeviceKind kind) {
  applyTestFault(spec.name);
  if (spec.hasSizeParameters() && sizesOpt.size() != 1) {
    llvm::errs() << "hkg-run: error: --worker needs exactly one --sizes value "
                    "for kernel '"
                 << spec.name << "', which has dynamic sizes\n";
    return ExitUsage;
  }
  std::optional<int64_t> size;
  if (!sizesOpt.empty())
    size = sizesOpt.front();
  llvm::Expected<KernelSpec> concrete = specializeTo(spec, size);
  json::Object record = concrete
                            ? runHere(bundle, *concrete, kind)
                            : errorRecord(spec, "error", concrete.takeError());
  int code = record.getString("status") == "no-device" ? ExitNoDevice : 0;
  llvm::outs() << json::Value(std::move(record)) << "\n";
  llvm::outs().flush();
  return code;
}

/// One request of --serve: the record of the run it asks for.
static json::Object serveOne(const json::Object &request,
                             std::unique_ptr<Device> &device, DeviceKind kind,
                             const RunOptions &options) {
  std::optional<llvm::StringRef> path = request.getString("bundle");
  std::optional<llvm::StringRef> name = request.getString("kernel");
  if (!path || !name)
    return json::Object{{"status", "error"},
                        {"message",
                         "expected a request {\"bundle\": DIR, \"kernel\": NAME"
                         "[, \"size\": N]}"}};
  llvm::Expected<Bundle> bundle = loadBundle(*path);
  if (!bundle)
    return json::Object{{"name", *name},
                        {"status", "error"},
                        {"message", llvm::toString(bundle.takeError())}};
  const KernelSpec *spec = bundle->lookup(*name);
  if (!spec)
    return json::Object{
        {"name", *name},
        {"status", "error"},
        {"message", "no kernel '" + name->str() + "' in the bundle"}};
  applyTestFault(spec->name);
  std::optional<int64_t> size = request.getInteger("size");
  llvm::Expected<KernelSpec> concrete = specializeTo(*spec, size);
  if (!concrete)
    return errorRecord(*spec, "error", concrete.takeError());
  std::optional<double> openSeconds;
  if (!device) {
    double start = llvm::TimeRecord::getCurrentTime(true).getWallTime();
    auto opened = Device::open(kind, ordinalOpt);
    if (!opened)
      return errorRecord(*spec, "no-device", opened.takeError());
    device = std::move(*opened);
    openSeconds = llvm::TimeRecord::getCurrentTime(true).getWallTime() - start;
  }
  auto record = runKernel(*bundle, *concrete, *device, options);
  if (!record)
    return errorRecord(*spec, "error", record.takeError());
  record->try_emplace("name", spec->name);
  record->try_emplace("op", spec->op);
  if (json::Object *seconds = record->getObject("seconds"))
    (*seconds)["open"] = openSeconds.value_or(0.0);
  return std::move(*record);
}

/// --serve: runs requests until stdin ends or a run does not reach a
/// verdict (pass or fail): after a fault the device may be unusable (a CUDA
/// context's illegal address is sticky), so the caller starts a fresh
/// worker for the next one.
static int serveMain(DeviceKind kind) {
  std::unique_ptr<Device> device;
  HostWorkMemo memo;
  RunOptions options = getRunOptions();
  options.memo = &memo;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (llvm::StringRef(line).trim().empty())
      continue;
    json::Object record;
    llvm::Expected<json::Value> request = json::parse(line);
    if (!request || !request->getAsObject()) {
      if (!request)
        llvm::consumeError(request.takeError());
      record = json::Object{{"status", "error"},
                            {"message", "the request is not a JSON object"}};
    } else {
      record = serveOne(*request->getAsObject(), device, kind, options);
    }
    llvm::StringRef status = record.getString("status").value_or("");
    bool verdict = status == "pass" || status == "fail";
    llvm::outs() << json::Value(std::move(record)) << "\n";
    llvm::outs().flush();
    if (!verdict)
      return 0;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// The parent: one worker per kernel, then the table
//===----------------------------------------------------------------------===//

/// Runs `spec` (at `size`, for a kernel with dynamic sizes) in a worker
/// process and returns its result object.
static json::Object runIsolated(const char *argv0, llvm::StringRef bundlePath,
                                const KernelSpec &spec,
                                std::optional<int64_t> size) {
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&runIsolated));
  std::vector<std::string> args = {
      self,
      bundlePath.str(),
      "--worker",
      "--kernel=" + spec.name,
      "--device=" + deviceOpt,
      "--device-index=" + std::to_string(ordinalOpt),
      "--seed=" + std::to_string(seedOpt),
      "--warmup=" + std::to_string(warmupOpt),
      "--reps=" + std::to_string(repsOpt),
      llvm::formatv("--time-budget-ms={0}", timeBudgetMs.getValue()).str(),
      "--flush-l2-mib=" + std::to_string(flushMiB),
      llvm::formatv("--max-ref-madds={0:e9}", maxRefWork.getValue()).str(),
      llvm::formatv("--ceiling-bw={0:e9}", ceilingBw.getValue()).str(),
      llvm::formatv("--ceiling-tflops={0:e9}", ceilingTflops.getValue()).str()};
  if (!deviceLock.empty())
    args.push_back("--device-lock=" + deviceLock);
  if (timeCopyOpt)
    args.push_back("--time-copy");
  if (!hostCache.empty())
    args.push_back("--host-cache=" + hostCache);
  if (size)
    args.push_back("--sizes=" + std::to_string(*size));
  for (const std::string &f : testFaults)
    args.push_back("--test-fault=" + f);
  WorkerResult w = runWorker(self, args, timeoutOpt * 1000);

  // The worker's last stdout line is its result.
  llvm::StringRef out = llvm::StringRef(w.output).rtrim();
  llvm::StringRef last =
      out.rsplit('\n').second.empty() ? out : out.rsplit('\n').second;
  // A worker that printed its result and then died in teardown still
  // produced a result; say how it ended.
  if (!last.empty()) {
    llvm::Expected<json::Value> parsed = ::hkg::parseJSON(last);
    if (parsed && parsed->getAsObject()) {
      json::Object result = std::move(*parsed->getAsObject());
      if (w.status != WorkerStatus::Exited) {
        std::string message = result.getString("message").value_or("").str();
        result["message"] = message + (message.empty() ? "" : "; ") +
                            "worker " + w.message + " after reporting";
      }
      return result;
    }
    llvm::consumeError(parsed.takeError());
  }
  json::Object result{{"name", spec.name}, {"op", spec.op}};
  result["status"] = w.status == WorkerStatus::TimedOut  ? "timeout"
                     : w.status == WorkerStatus::Crashed ? "crash"
                                                         : "error";
  std::string message = "worker " + w.message;
  // A crashed worker's stderr is a stack dump; otherwise its first line says
  // what went wrong.
  llvm::StringRef err = llvm::StringRef(w.errors).trim();
  if (w.status == WorkerStatus::Exited && !err.empty())
    message += ": " + err.split('\n').first.str();
  result["message"] = message;
  return result;
}

/// Compiles `input` (an .mlir file of hkg ops) for `chip` into a fresh
/// bundle directory with hkg-compile ($HKG_COMPILE, else next to hkg-run,
/// else on PATH), in a worker like any other step that may fail.
static llvm::Expected<std::string> compileToBundle(const char *argv0,
                                                   llvm::StringRef input,
                                                   llvm::StringRef chip) {
  std::string compiler;
  if (const char *env = std::getenv("HKG_COMPILE"); env && *env) {
    compiler = env;
  } else {
    std::string self = llvm::sys::fs::getMainExecutable(
        argv0, reinterpret_cast<void *>(&compileToBundle));
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(
        "hkg-compile", {llvm::sys::path::parent_path(self)});
    if (!found)
      found = llvm::sys::findProgramByName("hkg-compile");
    if (!found)
      return llvm::createStringError(
          "running an .mlir input needs hkg-compile next to hkg-run or on "
          "PATH (or HKG_COMPILE)");
    compiler = *found;
  }
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("hkg-run-bundle", dir))
    return llvm::createStringError("cannot create a bundle directory: " +
                                   ec.message());
  WorkerResult w = runWorker(
      compiler,
      {compiler, input.str(), "--chip=" + chip.str(), "-o", dir.str().str()},
      /*timeoutMs=*/600 * 1000);
  if (!w.succeeded()) {
    llvm::sys::fs::remove_directories(dir);
    llvm::StringRef err = llvm::StringRef(w.errors).trim();
    return llvm::createStringError(
        llvm::formatv("{0} {1}{2}{3}", compiler, w.message,
                      err.empty() ? "" : ": ", err.split('\n').first));
  }
  return dir.str().str();
}

static std::string formatNumber(const json::Object &obj, llvm::StringRef key,
                                const char *fmt) {
  std::optional<double> v = obj.getNumber(key);
  if (!v)
    return "-";
  return llvm::formatv(fmt, *v).str();
}

/// The kernel's name, and for a run of a kernel with dynamic sizes the
/// sizes: `hkg_softmax_0 [4096]`.
static std::string getRunName(const json::Object &record) {
  std::string name = record.getString("name").value_or("?").str();
  const json::Array *sizes = record.getArray("sizes");
  if (!sizes)
    return name;
  name += " [";
  for (auto [i, v] : llvm::enumerate(*sizes))
    name += (i ? ", " : "") + std::to_string(v.getAsInteger().value_or(-1));
  return name + "]";
}

static void printTable(llvm::raw_ostream &os,
                       llvm::ArrayRef<json::Object> results) {
  os << llvm::formatv("{0,-24} {1,-18} {2,-8} {3,10} {4,11} {5,9} {6,9} "
                      "{7,10} {8,7}\n",
                      "kernel", "op", "status", "rel_err", "median_us", "GB/s",
                      "TFLOP/s", "floor_us", "%floor");
  for (const json::Object &r : results) {
    llvm::StringRef status = r.getString("status").value_or("?");
    const json::Object *check = r.getObject("check");
    const json::Object *timing = r.getObject("timing");
    json::Object empty;
    const json::Object &c = check ? *check : empty;
    const json::Object &t = timing ? *timing : empty;
    std::string pct = "-";
    if (std::optional<double> f = t.getNumber("fraction_of_floor"))
      pct = llvm::formatv("{0:f0}%", *f * 100).str();
    os << llvm::formatv(
        "{0,-24} {1,-18} {2,-8} {3,10} {4,11} {5,9} {6,9} "
        "{7,10} {8,7}\n",
        getRunName(r), r.getString("op").value_or("?"), status.upper(),
        formatNumber(c, "norm_rel_error", "{0:e1}"),
        formatNumber(t, "median_us", "{0:f1}"),
        formatNumber(t, "gbps", "{0:f0}"), formatNumber(t, "tflops", "{0:f2}"),
        formatNumber(t, "floor_us", "{0:f1}"), pct);
    std::optional<double> copyUs = t.getNumber("copy_us");
    std::optional<double> bytes = t.getNumber("bytes");
    std::optional<double> fraction = t.getNumber("fraction_of_copy");
    if (copyUs && bytes && fraction)
      os << llvm::formatv(
          "    a copy moving the same {0}: {1:f1} us; the "
          "kernel at {2:f1}% of its speed\n",
          *bytes >= (1 << 20)
              ? llvm::formatv("{0:f1} MiB", *bytes / (1 << 20)).str()
              : llvm::formatv("{0:f0} bytes", *bytes).str(),
          *copyUs, *fraction * 100);
    llvm::StringRef message = r.getString("message").value_or("");
    if (!message.empty())
      os << "    " << message << "\n";
  }
}

/// Writes `doc` to the --json file, two-space indented, with a final
/// newline. A file that cannot be opened is reported; returns false then.
static bool writeJSONOut(json::Object doc) {
  std::error_code ec;
  llvm::raw_fd_ostream os(jsonOut, ec);
  if (ec) {
    llvm::errs() << "hkg-run: error: cannot write " << jsonOut << ": "
                 << ec.message() << "\n";
    return false;
  }
  os << llvm::formatv("{0:2}", json::Value(std::move(doc))) << "\n";
  return true;
}

/// hkg-run --plan: runs every launch plan of `bundle` in this process and
/// prints one block per run; returns the exit code.
static int runPlans(const Bundle &bundle, DeviceKind kind) {
  if (bundle.plans.empty()) {
    llvm::errs() << "hkg-run: error: --plan: the bundle has no launch plan\n";
    return ExitUsage;
  }
  auto device = Device::open(kind, ordinalOpt);
  if (!device) {
    llvm::errs() << "hkg-run: error: " << llvm::toString(device.takeError())
                 << "\n";
    return ExitNoDevice;
  }
  json::Array records;
  unsigned runs = 0, passed = 0;
  for (const PlanSpec &plan : bundle.plans) {
    if (!plan.noPlan.empty()) {
      llvm::outs() << "plan " << plan.function << ": none (" << plan.noPlan
                   << ")\n";
      continue;
    }
    llvm::SmallVector<std::optional<int64_t>> sizes = {std::nullopt};
    if (!plan.sizes.empty())
      sizes.assign(sizesOpt.begin(), sizesOpt.end());
    if (sizes.empty()) {
      llvm::outs() << "plan " << plan.function
                   << ": ERROR\n    it has dynamic sizes: pass --sizes\n";
      ++runs;
      continue;
    }
    for (std::optional<int64_t> size : sizes) {
      ++runs;
      llvm::SmallVector<int64_t> values(plan.sizes.size(), size.value_or(0));
      std::string name = plan.function;
      if (size)
        name += " [" + std::to_string(*size) + "]";
      auto record = runPlan(bundle, plan, **device, getRunOptions(), values);
      if (!record) {
        std::string message = llvm::toString(record.takeError());
        llvm::outs() << "plan " << name << ": ERROR\n    " << message << "\n";
        records.push_back(json::Object{{"function", plan.function},
                                       {"status", "error"},
                                       {"message", message}});
        continue;
      }
      bool ok = record->getString("status") == "pass";
      passed += ok;
      llvm::outs() << "plan " << name << ": " << (ok ? "PASS" : "FAIL") << " ("
                   << plan.steps.size() << " step(s))\n";
      if (const json::Array *outs = record->getArray("outputs"))
        for (const json::Value &o : *outs) {
          const json::Object &out = *o.getAsObject();
          llvm::outs() << llvm::formatv(
              "    output {0,-8} {1,-5} rel_err {2}\n",
              out.getString("value").value_or("?"),
              out.getString("status").value_or("?").upper(),
              formatNumber(out, "norm_rel_error", "{0:e1}"));
          llvm::StringRef message = out.getString("message").value_or("");
          if (!message.empty())
            llvm::outs() << "        " << message << "\n";
        }
      if (const json::Object *t = record->getObject("timing"))
        llvm::outs() << llvm::formatv(
            "    plan {0} us (median of {1}); its kernels standalone: {2} "
            "us summed; plan / sum = {3}\n",
            formatNumber(*t, "plan_median_us", "{0:f1}"),
            t->getInteger("reps").value_or(0),
            formatNumber(*t, "kernels_sum_us", "{0:f1}"),
            formatNumber(*t, "ratio", "{0:f3}"));
      records.push_back(std::move(*record));
    }
  }
  llvm::outs() << llvm::formatv("{0} of {1} plan run(s) passed\n", passed,
                                runs);
  if (!jsonOut.empty() &&
      !writeJSONOut(json::Object{{"bundle", bundle.directory},
                                 {"target", bundle.target},
                                 {"seed", static_cast<int64_t>(seedOpt)},
                                 {"plans", std::move(records)}}))
    return ExitUsage;
  return passed == runs ? ExitPass : ExitFail;
}

static int runMain(int argc, char **argv);

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Deeply nested input recurses deeply: the work runs on a large stack.
  return hkg::runOnLargeStack([&] { return runMain(argc, argv); });
}

static int runMain(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "hkg-run: check and time the kernels of an hkg bundle on the GPU\n\n"
      "  exit codes: 0 all kernels passed, 1 some kernel failed, 2 no usable "
      "GPU, 3 bad usage or bundle\n");

  std::optional<DeviceKind> kind = parseDeviceKind(deviceOpt);
  if (!kind) {
    llvm::errs() << "hkg-run: error: --device must be auto, cuda or hip, got '"
                 << deviceOpt << "'\n";
    return ExitUsage;
  }
  for (int64_t size : sizesOpt) {
    if (size < 0) {
      llvm::errs() << "hkg-run: error: --sizes: expected non-negative "
                      "integers, got "
                   << size << "\n";
      return ExitUsage;
    }
  }
  if (!deviceLock.empty()) {
    if (llvm::Error e = checkDeviceLockPath(deviceLock)) {
      llvm::errs() << "hkg-run: error: " << llvm::toString(std::move(e))
                   << "\n";
      return ExitUsage;
    }
  }
  // Loads the bundle at `path` and picks the kernels to run; prints the
  // error and returns nullopt on failure.
  std::optional<Bundle> bundle;
  std::vector<const KernelSpec *> selected;
  auto loadSelected = [&](llvm::StringRef path) -> bool {
    llvm::Expected<Bundle> loaded = loadBundle(path);
    if (!loaded) {
      llvm::errs() << "hkg-run: error: " << llvm::toString(loaded.takeError())
                   << "\n";
      return false;
    }
    bundle = std::move(*loaded);
    for (const std::string &name : kernelNames) {
      const KernelSpec *k = bundle->lookup(name);
      if (!k) {
        llvm::errs() << "hkg-run: error: no kernel '" << name
                     << "' in the bundle\n";
        return false;
      }
      selected.push_back(k);
    }
    if (kernelNames.empty())
      for (const KernelSpec &k : bundle->kernels)
        selected.push_back(&k);
    for (const KernelSpec *k : selected) {
      if (!planOpt && k->hasSizeParameters() && sizesOpt.empty()) {
        llvm::errs() << "hkg-run: error: " << getNoSizesMessage(*k) << "\n";
        return false;
      }
    }
    return true;
  };

  if (workerMode || serveMode) {
    // A worker that crashes should die at once with the signal, not spend
    // its deadline printing a symbolized stack trace.
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
      std::signal(sig, SIG_DFL);
  }
  if (serveMode)
    return serveMain(*kind);
  if (workerMode) {
    if (!loadSelected(inputPath))
      return ExitUsage;
    if (selected.size() != 1) {
      llvm::errs() << "hkg-run: error: --worker needs exactly one --kernel\n";
      return ExitUsage;
    }
    return workerMain(*bundle, *selected.front(), *kind);
  }

  bool isMlir = llvm::StringRef(inputPath).ends_with(".mlir");
  if (!isMlir && !loadSelected(inputPath))
    return ExitUsage;

  // Probe the GPU once, so that a machine without one gets one clear line.
  // The probe's device is closed before any worker starts.
  json::Object deviceInfo;
  std::string deviceArch;
  if (testFaults.empty()) {
    auto device = Device::open(*kind, ordinalOpt);
    if (!device) {
      llvm::errs() << "hkg-run: error: " << llvm::toString(device.takeError())
                   << "\n";
      return ExitNoDevice;
    }
    deviceArch = (*device)->getArch();
    deviceInfo =
        json::Object{{"name", (*device)->getName()},
                     {"runtime", getDeviceKindName((*device)->getKind())},
                     {"arch", (*device)->getArch()},
                     {"compute_units", (*device)->getNumComputeUnits()}};
    llvm::outs() << llvm::formatv(
        "device: {0} ({1}, {2}, {3} CUs)\n", (*device)->getName(),
        getDeviceKindName((*device)->getKind()), (*device)->getArch(),
        (*device)->getNumComputeUnits());
    if (ceilingBw == 0 && copyCeilingMiB > 0) {
      auto gbps =
          (*device)->measureCopyBandwidth(size_t(copyCeilingMiB) << 20, 10);
      if (!gbps) {
        llvm::errs() << "hkg-run: error: measuring the copy ceiling: "
                     << llvm::toString(gbps.takeError()) << "\n";
        return ExitFail;
      }
      ceilingBw = *gbps;
      deviceInfo["copy_gbps"] = *gbps;
      llvm::outs() << llvm::formatv(
          "copy ceiling: {0:f0} GB/s ({1} MiB device-to-device, read + "
          "write; the floors below use it)\n",
          *gbps, copyCeilingMiB.getValue());
    }
  }

  // An .mlir input is compiled to a temporary bundle first.
  std::string bundlePath = inputPath;
  std::optional<std::string> tempBundle;
  llvm::scope_exit cleanupTemp([&] {
    if (tempBundle)
      llvm::sys::fs::remove_directories(*tempBundle);
  });
  if (isMlir) {
    std::string chip = chipOpt.empty() ? deviceArch : chipOpt.getValue();
    if (chip.empty()) {
      llvm::errs() << "hkg-run: error: pass --chip to compile " << inputPath
                   << " (the device does not report its chip)\n";
      return ExitUsage;
    }
    auto dir = compileToBundle(argv[0], inputPath, chip);
    if (!dir) {
      llvm::errs() << "hkg-run: error: compiling " << inputPath << ": "
                   << llvm::toString(dir.takeError()) << "\n";
      return ExitUsage;
    }
    tempBundle = *dir;
    bundlePath = *dir;
    llvm::outs() << "compiled " << inputPath << " for " << chip << "\n";
    if (!loadSelected(bundlePath))
      return ExitUsage;
  }
  llvm::outs() << llvm::formatv(
      "bundle: {0} (target {1}, {2}, {3} kernel(s))\n", bundle->directory,
      bundle->target, bundle->format, bundle->kernels.size());
  if (planOpt)
    return runPlans(*bundle, *kind);

  // One run per static kernel, and per --sizes value of each kernel with
  // dynamic sizes.
  std::vector<json::Object> results;
  for (const KernelSpec *k : selected) {
    llvm::SmallVector<std::optional<int64_t>> sizes = {std::nullopt};
    if (k->hasSizeParameters())
      sizes.assign(sizesOpt.begin(), sizesOpt.end());
    for (std::optional<int64_t> size : sizes) {
      llvm::Expected<KernelSpec> concrete = specializeTo(*k, size);
      if (!concrete)
        results.push_back(errorRecord(*k, "error", concrete.takeError()));
      else if (noIsolation)
        // Debugging aid: run in-process (a faulting kernel ends hkg-run).
        results.push_back(runHere(*bundle, *concrete, *kind));
      else
        results.push_back(runIsolated(argv[0], bundlePath, *k, size));
      json::Object &r = results.back();
      // Carry the manifest's schedule and binary stats into the record, and
      // for a kernel with dynamic sizes the sizes and the concrete shapes.
      if (k->schedule.kind() != json::Value::Null)
        r["schedule"] = k->schedule;
      if (k->stats.kind() != json::Value::Null)
        r["stats"] = k->stats;
      if (!size)
        continue;
      r["sizes"] =
          json::Array(llvm::SmallVector<int64_t>(k->sizes.size(), *size));
      if (!concrete)
        continue;
      json::Array shapes;
      for (const ArgSpec &a : concrete->args)
        shapes.push_back(json::Array(a.shape));
      r["shapes"] = std::move(shapes);
    }
  }
  printTable(llvm::outs(), results);

  bool allPassed = llvm::all_of(results, [](const json::Object &r) {
    return r.getString("status") == "pass";
  });
  unsigned passed = llvm::count_if(results, [](const json::Object &r) {
    return r.getString("status") == "pass";
  });
  llvm::outs() << llvm::formatv("{0} of {1} kernel(s) passed\n", passed,
                                results.size());

  if (!jsonOut.empty()) {
    json::Array kernels;
    for (json::Object &r : results)
      kernels.push_back(std::move(r));
    if (!writeJSONOut(json::Object{{"device", std::move(deviceInfo)},
                                   {"bundle", bundle->directory},
                                   {"target", bundle->target},
                                   {"format", bundle->format},
                                   {"seed", static_cast<int64_t>(seedOpt)},
                                   {"kernels", std::move(kernels)}}))
      return ExitUsage;
  }
  return allPassed ? ExitPass : ExitFail;
}
