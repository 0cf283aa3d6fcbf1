//===- KernelRunner.cpp - run, check and time one bundle kernel -----------===//

#include "hkg/Runtime/KernelRunner.h"
#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/RandomInputs.h"
#include "hkg/Runtime/Reference.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <algorithm>

using namespace hkg::rt;
namespace json = llvm::json;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

/// Checks that the manifest's args agree with the source op's operands and
/// result.
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
    mlir::Value v =
        i < numInputs ? op->getOperand(i) : op->getResult(i - numInputs);
    auto type = llvm::cast<mlir::ShapedType>(v.getType());
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

namespace {
/// An exclusive advisory lock on a file (RunOptions::deviceLockPath) for as
/// long as it lives; none when the path is empty.
/// Opens the lock file `path` into `fd`.
static llvm::Error openDeviceLock(llvm::StringRef path, int &fd) {
  if (std::error_code ec = llvm::sys::fs::openFileForReadWrite(
          path, fd, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None))
    return makeError("cannot open the device lock '" + path +
                     "': " + ec.message());
  return llvm::Error::success();
}

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
/// its flops at peak compute, whichever is longer.
static std::optional<double>
floorSeconds(const Bundle &bundle, const Device &device, mlir::Operation *op,
             double bytes, double flops, const RunOptions &options) {
  const mlir::hkg::TargetInfo *target = mlir::hkg::lookupTarget(bundle.target);
  if (!target && !device.getArch().empty())
    target = mlir::hkg::lookupTarget(device.getArch());
  double bw = options.ceilingBandwidthGBs > 0
                  ? options.ceilingBandwidthGBs
                  : (target ? target->peakBandwidthGBs : 0);
  bool matrix = llvm::isa<mlir::hkg::MatmulOp, mlir::hkg::AttentionOp>(op) &&
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

llvm::Expected<json::Object> hkg::rt::runKernel(const Bundle &bundle,
                                                const KernelSpec &spec,
                                                Device &device,
                                                const RunOptions &options) {
  json::Object outcome;
  mlir::DialectRegistry registry;
  registerReferenceDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = parseSourceModule(spec.source, context);
  if (!module)
    return module.takeError();
  llvm::Expected<mlir::Operation *> op = findKernelOp(module->get());
  if (!op)
    return op.takeError();
  if (llvm::Error e = validateArgs(spec, *op))
    return std::move(e);

  auto inputs = makeRandomInputs(*op, options.seed);
  if (!inputs)
    return inputs.takeError();
  const ArgSpec &outSpec = spec.args.back();
  HostTensor output(outSpec.dtype, outSpec.shape);
  poison(output);
  // The reference first: host work, done before taking the device lock.
  bool isTopP = llvm::isa<mlir::hkg::TopPSampleOp>(*op);
  std::optional<ReferenceResult> reference;
  if (!isTopP) {
    ReferenceOptions refOptions;
    refOptions.maxMultiplyAdds = options.maxReferenceMultiplyAdds;
    auto ref = evaluateReference(*op, *inputs, refOptions);
    if (!ref)
      return ref.takeError();
    reference = std::move(*ref);
  }

  auto file = llvm::MemoryBuffer::getFile(bundle.getBinaryPath(spec),
                                          /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError("cannot read " + bundle.getBinaryPath(spec) + ": " +
                     file.getError().message());
  llvm::StringRef image = (*file)->getBuffer();
  auto mod =
      device.loadModule(llvm::ArrayRef<char>(image.data(), image.size()));
  if (!mod)
    return mod.takeError();
  auto kernel = device.getKernel(*mod, spec.entry);
  if (!kernel)
    return kernel.takeError();

  // Device buffers: inputs, then the (poisoned) output.
  std::optional<DeviceLock> lock;
  {
    auto acquired = DeviceLock::acquire(options.deviceLockPath);
    if (!acquired)
      return acquired.takeError();
    lock.emplace(std::move(*acquired));
  }
  llvm::SmallVector<DevicePtr> ptrs;
  auto freeAll = [&] {
    for (DevicePtr p : ptrs)
      llvm::consumeError(device.deallocate(p));
  };
  double bytes = 0;
  for (const HostTensor &t : *inputs) {
    auto p = device.allocate(std::max<size_t>(t.getNumBytes(), 1));
    if (!p)
      return freeAll(), p.takeError();
    ptrs.push_back(*p);
    bytes += t.getNumBytes();
    if (llvm::Error e = device.copyToDevice(*p, t.data(), t.getNumBytes()))
      return freeAll(), std::move(e);
  }
  auto outPtr = device.allocate(std::max<size_t>(output.getNumBytes(), 1));
  if (!outPtr)
    return freeAll(), outPtr.takeError();
  ptrs.push_back(*outPtr);
  bytes += output.getNumBytes();
  if (llvm::Error e =
          device.copyToDevice(*outPtr, output.data(), output.getNumBytes()))
    return freeAll(), std::move(e);

  if (llvm::Error e = device.launch(*kernel, spec.grid, spec.block,
                                    spec.dynamicLdsBytes, ptrs))
    return freeAll(), std::move(e);
  if (llvm::Error e = device.synchronize())
    return freeAll(), std::move(e);
  if (llvm::Error e =
          device.copyToHost(output.data(), *outPtr, output.getNumBytes()))
    return freeAll(), std::move(e);
  lock.reset();

  CheckResult check =
      isTopP ? checkTopPSample(*op, *inputs, output)
             : compareTensors(output, *reference,
                              getOpTolerance(*op, outSpec.dtype));
  outcome["status"] = check.passed ? "pass" : "fail";
  outcome["message"] = check.message;
  outcome["check"] = json::Object{{"checked", check.checked},
                                  {"unwritten", check.unwritten},
                                  {"nans", check.nans},
                                  {"mismatched", check.mismatched},
                                  {"norm_rel_error", check.normRelError},
                                  {"max_abs_error", check.maxAbsError}};

  if (check.passed && options.reps > 0) {
    auto acquired = DeviceLock::acquire(options.deviceLockPath);
    if (!acquired)
      return freeAll(), acquired.takeError();
    lock.emplace(std::move(*acquired));
    auto times =
        device.timeLaunches(*kernel, spec.grid, spec.block,
                            spec.dynamicLdsBytes, ptrs,
                            options.warmup, options.reps, options.flushBytes);
    if (!times)
      return freeAll(), times.takeError();
    std::optional<double> copyS;
    if (options.timeCopy) {
      auto copy = timeCopyOfBytes(device, bytes, options);
      if (!copy)
        return freeAll(), copy.takeError();
      copyS = *copy;
    }
    lock.reset();
    std::vector<float> sorted = *times;
    std::sort(sorted.begin(), sorted.end());
    double medianS = sorted[sorted.size() / 2] * 1e-3;
    double minS = sorted.front() * 1e-3;
    double flops = llvm::cast<mlir::hkg::HkgKernelOpInterface>(*op)
                       .getCostFeatures()
                       .flops;
    json::Object timing{{"median_us", medianS * 1e6},
                        {"min_us", minS * 1e6},
                        {"reps", static_cast<int64_t>(sorted.size())},
                        {"bytes", bytes},
                        {"flops", flops},
                        {"gbps", bytes / medianS / 1e9},
                        {"tflops", flops / medianS / 1e12}};
    if (std::optional<double> floor =
            floorSeconds(bundle, device, *op, bytes, flops, options)) {
      timing["floor_us"] = *floor * 1e6;
      timing["fraction_of_floor"] = *floor / medianS;
    }
    if (copyS) {
      timing["copy_us"] = *copyS * 1e6;
      timing["fraction_of_copy"] = *copyS / medianS;
    }
    outcome["timing"] = std::move(timing);
  }
  freeAll();
  llvm::consumeError(device.unloadModule(*mod));
  return outcome;
}
