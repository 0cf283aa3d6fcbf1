//===- KernelRunner.cpp - run, check and time one bundle kernel -----------===//

#include "hkg/Runtime/KernelRunner.h"
#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/HostWorkCache.h"
#include "hkg/Runtime/KernelModel.h"
#include "hkg/Runtime/RandomInputs.h"
#include "hkg/Runtime/Reference.h"

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Timer.h"

#include <algorithm>

using namespace hkg::rt;
namespace json = llvm::json;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

/// Checks that the manifest's args agree with the source op's operands (or
/// the tensors they are slice views of) and results: the inputs in operand
/// order, then the outputs in result order.
static llvm::Error validateArgs(const KernelSpec &spec, mlir::Operation *op) {
  unsigned numInputs = 0;
  for (const ArgSpec &a : spec.args)
    numInputs += !a.isOutput;
  if (numInputs != op->getNumOperands() ||
      spec.args.size() != numInputs + op->getNumResults())
    return makeError(llvm::formatv(
        "manifest args ({0} input(s), {1} output(s)) do not match '{2}' "
        "({3} operand(s), {4} result(s))",
        numInputs, spec.args.size() - numInputs, op->getName(),
        op->getNumOperands(), op->getNumResults()));
  for (auto [i, a] : llvm::enumerate(spec.args)) {
    auto type = i < numInputs ? getKernelInputType(op, i)
                              : llvm::cast<mlir::ShapedType>(
                                    op->getResult(i - numInputs).getType());
    std::optional<DType> dt = getDTypeFor(type.getElementType());
    if (a.isOutput != (i >= numInputs) || !dt || *dt != a.dtype ||
        llvm::ArrayRef<int64_t>(a.shape) != type.getShape())
      return makeError(llvm::formatv(
          "manifest arg #{0} ({1} {2}[{3}]) does not match the source op's "
          "{4}",
          i, a.isOutput ? "output" : "input", getDTypeName(a.dtype),
          llvm::join(llvm::map_range(
                         a.shape, [](int64_t d) { return std::to_string(d); }),
                     "x"),
          type));
  }
  return llvm::Error::success();
}

/// A kernel with size parameters runs only once given their values.
static llvm::Error requireConcrete(const KernelSpec &spec) {
  if (!spec.hasSizeParameters())
    return llvm::Error::success();
  return makeError("kernel '" + spec.name +
                   "' has dynamic sizes: give them values first "
                   "(KernelSpec::specialize; hkg-run --sizes)");
}

/// The record of a kernel whose tensors are empty: nothing to compute,
/// check or launch, a pass.
static json::Object makeEmptyLaunchRecord() {
  return json::Object{
      {"status", "pass"},
      {"message", "empty tensors: nothing to compute, no launch"},
      {"check", makeCheckRecord(CheckResult())}};
}

/// Opens the lock file `path` into `fd`.
static llvm::Error openDeviceLock(llvm::StringRef path, int &fd) {
  if (std::error_code ec = llvm::sys::fs::openFileForReadWrite(
          path, fd, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None))
    return makeError("cannot open the device lock '" + path +
                     "': " + ec.message());
  return llvm::Error::success();
}

namespace {
/// An exclusive advisory lock on a file (RunOptions::deviceLockPath) for as
/// long as it lives; none when the path is empty.
class DeviceLock {
public:
  static llvm::Expected<DeviceLock> acquire(llvm::StringRef path) {
    DeviceLock lock;
    if (path.empty())
      return lock;
    if (llvm::Error e = openDeviceLock(path, lock.fd))
      return std::move(e);
    if (std::error_code ec = llvm::sys::fs::lockFile(lock.fd))
      return makeError("cannot lock the device lock '" + path +
                       "': " + ec.message());
    return lock;
  }
  DeviceLock(DeviceLock &&other) : fd(other.fd) { other.fd = -1; }
  DeviceLock &operator=(DeviceLock &&) = delete;
  ~DeviceLock() {
    if (fd < 0)
      return;
    (void)llvm::sys::fs::unlockFile(fd);
    (void)llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }

private:
  DeviceLock() = default;
  int fd = -1;
};
} // namespace

llvm::Error hkg::rt::checkDeviceLockPath(llvm::StringRef path) {
  int fd = -1;
  if (llvm::Error e = openDeviceLock(path, fd))
    return e;
  (void)llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  return llvm::Error::success();
}

/// The op's floor on `target`: the time its bytes take at peak bandwidth or
/// its flops at peak compute (the matrix-core peak where the op's model
/// says so), whichever is longer.
static std::optional<double>
floorSeconds(const Bundle &bundle, const Device &device, mlir::Operation *op,
             const KernelModel &model, double bytes, double flops,
             const RunOptions &options) {
  const mlir::hkg::TargetInfo *target = mlir::hkg::lookupTarget(bundle.target);
  if (!target && !device.getArch().empty())
    target = mlir::hkg::lookupTarget(device.getArch());
  double bw = options.ceilingBandwidthGBs > 0
                  ? options.ceilingBandwidthGBs
                  : (target ? target->peakBandwidthGBs : 0);
  bool matrix = model.usesMatrixCorePeak && op->getNumOperands() > 0 &&
                !llvm::cast<mlir::ShapedType>(op->getOperand(0).getType())
                     .getElementType()
                     .isF32();
  double tflops =
      options.ceilingTflops > 0
          ? options.ceilingTflops
          : (target ? (matrix ? target->peakBf16Tflops : target->peakFp32Tflops)
                    : 0);
  if (bw <= 0 && tflops <= 0)
    return std::nullopt;
  double t = 0;
  if (bw > 0)
    t = std::max(t, bytes / (bw * 1e9));
  if (tflops > 0)
    t = std::max(t, flops / (tflops * 1e12));
  return t;
}

/// The median time of device-to-device copies of half of `bytes` (so that
/// `bytes` are moved, as many read as written), timed as the kernel is.
static llvm::Expected<double> timeCopyOfBytes(Device &device, double bytes,
                                              const RunOptions &options) {
  size_t half = (static_cast<size_t>(bytes / 2) + 15) & ~size_t(15);
  half = std::max<size_t>(half, 16);
  auto src = device.allocate(half);
  if (!src)
    return src.takeError();
  auto dst = device.allocate(half);
  if (!dst)
    return llvm::joinErrors(dst.takeError(), device.deallocate(*src));
  auto times =
      device.timeCopies(*dst, *src, half, options.warmup,
                        std::max(options.reps, 1u), options.flushBytes);
  llvm::Error freed =
      llvm::joinErrors(device.deallocate(*src), device.deallocate(*dst));
  if (!times)
    return llvm::joinErrors(times.takeError(), std::move(freed));
  if (freed)
    return std::move(freed);
  std::vector<float> sorted = *times;
  std::sort(sorted.begin(), sorted.end());
  return sorted[sorted.size() / 2] * 1e-3;
}

json::Object hkg::rt::makeCheckRecord(const CheckResult &check) {
  json::Object record{{"checked", check.checked},
                      {"unwritten", check.unwritten},
                      {"nans", check.nans},
                      {"mismatched", check.mismatched},
                      {"norm_rel_error", check.normRelError},
                      {"max_abs_error", check.maxAbsError}};
  if (check.outputs.size() > 1) {
    json::Array outputs;
    for (const CheckResult &out : check.outputs) {
      json::Object o = makeCheckRecord(out);
      o["status"] = out.passed ? "pass" : "fail";
      o["message"] = out.message;
      outputs.push_back(std::move(o));
    }
    record["outputs"] = std::move(outputs);
  }
  return record;
}

namespace {
/// Device buffers, freed when it goes out of scope.
class DeviceBuffers {
public:
  explicit DeviceBuffers(Device &device) : device(device) {}
  DeviceBuffers(const DeviceBuffers &) = delete;
  DeviceBuffers &operator=(const DeviceBuffers &) = delete;
  ~DeviceBuffers() {
    for (DevicePtr p : ptrs)
      llvm::consumeError(device.deallocate(p));
  }

  /// Allocates a buffer for `tensor` and uploads it.
  llvm::Error upload(const HostTensor &tensor) {
    auto p = device.allocate(std::max<size_t>(tensor.getNumBytes(), 1));
    if (!p)
      return p.takeError();
    ptrs.push_back(*p);
    return device.copyToDevice(*p, tensor.data(), tensor.getNumBytes());
  }

  llvm::ArrayRef<DevicePtr> get() const { return ptrs; }

private:
  Device &device;
  llvm::SmallVector<DevicePtr> ptrs;
};
} // namespace

/// Uploads the inputs and the (poisoned) outputs, launches once and copies
/// every output back, holding the device lock throughout.
static llvm::Error launchForCheck(Device &device, KernelHandle kernel,
                                  const KernelSpec &spec,
                                  llvm::ArrayRef<HostTensor> inputs,
                                  llvm::MutableArrayRef<HostTensor> outputs,
                                  DeviceBuffers &buffers,
                                  const RunOptions &options) {
  auto lock = DeviceLock::acquire(options.deviceLockPath);
  if (!lock)
    return lock.takeError();
  for (const HostTensor &t : inputs)
    if (llvm::Error e = buffers.upload(t))
      return e;
  for (const HostTensor &t : outputs)
    if (llvm::Error e = buffers.upload(t))
      return e;
  if (llvm::Error e =
          device.launch(kernel, spec.grid, spec.block, spec.dynamicLdsBytes,
                        buffers.get(), spec.sizeValues))
    return e;
  if (llvm::Error e = device.synchronize())
    return e;
  for (auto [i, t] : llvm::enumerate(outputs))
    if (llvm::Error e = device.copyToHost(
            t.data(), buffers.get()[inputs.size() + i], t.getNumBytes()))
      return e;
  return llvm::Error::success();
}

/// The "timing" record of `kernel`: timed launches (and copies with
/// RunOptions::timeCopy) under the device lock, then the rates and floors.
static llvm::Expected<json::Object>
timeKernel(const Bundle &bundle, Device &device, KernelHandle kernel,
           const KernelSpec &spec, mlir::Operation *op,
           const KernelModel &model, llvm::ArrayRef<DevicePtr> args,
           double bytes, const RunOptions &options) {
  std::vector<float> sorted;
  std::optional<double> copyS;
  {
    auto lock = DeviceLock::acquire(options.deviceLockPath);
    if (!lock)
      return lock.takeError();
    unsigned warmup = options.warmup, reps = options.reps;
    if (options.timeBudgetS > 0) {
      auto probe = device.timeLaunches(
          kernel, spec.grid, spec.block, spec.dynamicLdsBytes, args,
          /*warmup=*/0, /*reps=*/1, options.flushBytes, spec.sizeValues);
      if (!probe)
        return probe.takeError();
      double launchS = std::max(double(probe->front()) * 1e-3, 1e-9);
      double fit = options.timeBudgetS / launchS;
      if (fit < warmup + reps) {
        warmup = std::min(warmup, 1u);
        reps = std::clamp<unsigned>(static_cast<unsigned>(fit),
                                    RunOptions::kMinBudgetReps, reps);
      }
    }
    auto times = device.timeLaunches(kernel, spec.grid, spec.block,
                                     spec.dynamicLdsBytes, args, warmup, reps,
                                     options.flushBytes, spec.sizeValues);
    if (!times)
      return times.takeError();
    sorted = std::move(*times);
    if (options.timeCopy) {
      auto copy = timeCopyOfBytes(device, bytes, options);
      if (!copy)
        return copy.takeError();
      copyS = *copy;
    }
  }
  std::sort(sorted.begin(), sorted.end());
  double medianS = sorted[sorted.size() / 2] * 1e-3;
  double minS = sorted.front() * 1e-3;
  double flops = 0;
  if (auto kernelOp = llvm::dyn_cast<mlir::hkg::HkgKernelOpInterface>(op))
    flops = kernelOp.getCostFeatures().flops;
  json::Object timing{{"median_us", medianS * 1e6},
                      {"min_us", minS * 1e6},
                      {"reps", static_cast<int64_t>(sorted.size())},
                      {"bytes", bytes},
                      {"flops", flops},
                      {"gbps", bytes / medianS / 1e9},
                      {"tflops", flops / medianS / 1e12}};
  if (std::optional<double> floor =
          floorSeconds(bundle, device, op, model, bytes, flops, options)) {
    timing["floor_us"] = *floor * 1e6;
    timing["fraction_of_floor"] = *floor / medianS;
  }
  if (copyS) {
    timing["copy_us"] = *copyS * 1e6;
    timing["fraction_of_copy"] = *copyS / medianS;
  }
  return timing;
}

llvm::Expected<json::Object> hkg::rt::runKernel(const Bundle &bundle,
                                                const KernelSpec &spec,
                                                Device &device,
                                                const RunOptions &options) {
  if (llvm::Error e = requireConcrete(spec))
    return std::move(e);
  if (spec.isEmptyLaunch())
    return makeEmptyLaunchRecord();
  mlir::DialectRegistry registry;
  registerReferenceDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = parseSourceModule(spec.source, context);
  if (!module)
    return module.takeError();
  llvm::Expected<mlir::Operation *> op = findKernelOp(module->get());
  if (!op)
    return op.takeError();
  llvm::Expected<const KernelModel &> model = getKernelModel(*op);
  if (!model)
    return model.takeError();
  return runKernelOp(bundle, spec, *op, *model, device, options);
}

llvm::Expected<ModuleHandle> hkg::rt::loadKernelModule(const Bundle &bundle,
                                                       const KernelSpec &kernel,
                                                       Device &device) {
  std::string path = bundle.getBinaryPath(kernel);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError("cannot read " + path + ": " + file.getError().message());
  llvm::StringRef image = (*file)->getBuffer();
  return device.loadModule(llvm::ArrayRef<char>(image.data(), image.size()));
}

llvm::Expected<json::Object>
hkg::rt::runKernelOp(const Bundle &bundle, const KernelSpec &spec,
                     mlir::Operation *op, const KernelModel &model,
                     Device &device, const RunOptions &options) {
  if (llvm::Error e = requireConcrete(spec))
    return std::move(e);
  if (spec.isEmptyLaunch())
    return makeEmptyLaunchRecord();
  if (llvm::Error e = validateArgs(spec, op))
    return std::move(e);
  // The kernel's inputs and the reference: host work, done before taking
  // the device lock, or loaded from the host cache where an earlier run of
  // the same op (any schedule) left them.
  bool wantReference = !model.check || model.checkUsesReference;
  // Wall seconds of each phase ("seconds" in the record): where a tuning
  // trial's time goes.
  json::Object seconds;
  double lapStart = llvm::TimeRecord::getCurrentTime(true).getWallTime();
  auto lap = [&](llvm::StringRef phase) {
    double now = llvm::TimeRecord::getCurrentTime(true).getWallTime();
    seconds[phase] = now - lapStart;
    lapStart = now;
  };
  // The host work comes from the memo (this process ran the op last), the
  // cache directory (another process did), or is computed here; `fresh`
  // says it was computed, so the reference is still to make and to store.
  std::string cacheKey;
  if (!options.hostCacheDir.empty() || options.memo)
    cacheKey = getHostWorkKey(op, options.seed,
                              options.maxReferenceMultiplyAdds, wantReference);
  // "memory", "hit", "stored" or (a cache that could not be written)
  // "unwritable".
  std::optional<std::string> cacheOutcome;
  HostWork local;
  HostWork *work = &local;
  bool fresh = false;
  if (options.memo && !options.memo->key.empty() &&
      options.memo->key == cacheKey) {
    work = &options.memo->work;
    cacheOutcome = "memory";
  } else {
    std::optional<HostWork> cached;
    if (!options.hostCacheDir.empty())
      cached = loadHostWork(options.hostCacheDir, cacheKey);
    if (cached) {
      local = std::move(*cached);
      cacheOutcome = "hit";
    } else {
      auto inputs = makeRandomInputs(model, op, options.seed);
      if (!inputs)
        return inputs.takeError();
      local.inputs = std::move(*inputs);
      fresh = true;
    }
    if (options.memo) {
      // Valid (keyed) only once the reference is made, below.
      options.memo->key.clear();
      options.memo->work = std::move(local);
      work = &options.memo->work;
    }
  }
  // The op's operands the inputs hold (the same, but for slice views).
  auto operands = evaluateOperands(op, work->inputs);
  if (!operands)
    return operands.takeError();
  llvm::SmallVector<HostTensor> outputs;
  for (const ArgSpec &a : spec.args) {
    if (!a.isOutput)
      continue;
    outputs.emplace_back(a.dtype, a.shape);
    poison(outputs.back());
  }
  if (fresh && wantReference) {
    ReferenceOptions refOptions;
    refOptions.maxMultiplyAdds = options.maxReferenceMultiplyAdds;
    auto ref = evaluateReference(model, op, *operands, refOptions);
    if (!ref)
      return ref.takeError();
    work->reference = std::move(*ref);
  }
  if (fresh && !options.hostCacheDir.empty()) {
    llvm::Error e = storeHostWork(options.hostCacheDir, cacheKey, *work);
    cacheOutcome = e ? "unwritable" : "stored";
    llvm::consumeError(std::move(e));
  }
  if (options.memo)
    options.memo->key = cacheKey;
  lap("host");

  auto mod = loadKernelModule(bundle, spec, device);
  if (!mod)
    return mod.takeError();
  llvm::scope_exit unload(
      [&] { llvm::consumeError(device.unloadModule(*mod)); });
  auto kernel = device.getKernel(*mod, spec.entry);
  if (!kernel)
    return kernel.takeError();
  lap("load");

  // Device buffers: inputs, then the (poisoned) outputs, in arg order.
  DeviceBuffers buffers(device);
  if (llvm::Error e = launchForCheck(device, *kernel, spec, work->inputs,
                                     outputs, buffers, options))
    return std::move(e);
  // What the kernel reads: its operands (a slice view's, not the whole
  // buffer).
  double bytes = 0;
  for (const HostTensor &t : *operands)
    bytes += t.getNumBytes();
  for (const HostTensor &t : outputs)
    bytes += t.getNumBytes();

  llvm::Expected<CheckResult> check =
      checkKernelOutputs(model, op, *operands, outputs,
                         work->reference ? &*work->reference : nullptr);
  if (!check)
    return check.takeError();
  json::Object outcome;
  outcome["status"] = check->passed ? "pass" : "fail";
  outcome["message"] = check->message;
  outcome["check"] = makeCheckRecord(*check);
  if (cacheOutcome)
    outcome["host_cache"] = *cacheOutcome;
  lap("check");
  if (check->passed && options.reps > 0) {
    auto timing = timeKernel(bundle, device, *kernel, spec, op, model,
                             buffers.get(), bytes, options);
    if (!timing)
      return timing.takeError();
    outcome["timing"] = std::move(*timing);
    lap("time");
  }
  outcome["seconds"] = std::move(seconds);
  return outcome;
}
