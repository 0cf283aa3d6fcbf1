//===- KernelRunner.h - run, check and time one bundle kernel ---*- C++ -*-===//
//
// The measurement step shared by hkg-run and the tuner: for one kernel of a
// bundle, make seeded random inputs, poison the outputs, launch, check them
// against the host reference of the manifest's `source` (through the op's
// KernelModel), then time with device events on a cold L2. Run it inside a
// worker process (Worker.h, `hkg-run --worker`) when the kernel may fault or
// hang.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_KERNELRUNNER_H
#define HKG_RUNTIME_KERNELRUNNER_H

#include "hkg/Runtime/Bundle.h"
#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/Device.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace hkg::rt {

struct KernelModel;
struct HostWorkMemo;

struct RunOptions {
  /// Seed of the random inputs.
  uint64_t seed = 1;
  /// Untimed and timed launches; reps == 0 checks without timing.
  unsigned warmup = 10;
  unsigned reps = 100;
  /// Seconds the timed launches of one kernel may take, warm-up included
  /// (0: no limit). One launch first estimates the kernel's time; a kernel
  /// too slow for `warmup + reps` launches in the budget gets one warm-up
  /// and as many timed launches as fit, at least kMinBudgetReps. A tuner's
  /// hopeless candidate (a 60 ms softmax beside a 93 us default) then costs
  /// its budget, not seconds.
  double timeBudgetS = 0;
  static constexpr unsigned kMinBudgetReps = 5;
  /// Bytes overwritten before each timed launch (0: no L2 flush).
  size_t flushBytes = size_t(256) << 20;
  /// See ReferenceOptions::maxMultiplyAdds.
  double maxReferenceMultiplyAdds = 8e9;
  /// Measured ceilings; 0 takes the target table's peaks.
  double ceilingBandwidthGBs = 0;
  double ceilingTflops = 0;
  /// A file to hold an exclusive advisory lock on (flock) while this run
  /// uses the GPU: the check's upload, launch and download, and the timed
  /// launches. Workers that share one GPU through the same file never
  /// overlap on it, while the host work (random inputs, the float64
  /// reference, the comparison) runs in parallel. Empty: no lock.
  std::string deviceLockPath;
  /// Also time device-to-device copies that move the kernel's bytes (half
  /// of them read, half written), right after the kernel and the same way:
  /// a floor measured on the device at hand, at the op's size, under the
  /// kernel's own timing (flush included), where `floor_us` is the peak's.
  bool timeCopy = false;
  /// A directory where the host work of a run (random inputs, float64
  /// reference) is kept for the next run of the same op and seed, whatever
  /// its schedule (HostWorkCache.h); empty: computed every time.
  std::string hostCacheDir;
  /// The last op's host work, kept in memory across runs of one process
  /// (hkg-run --serve); checked before `hostCacheDir`. Null: none.
  HostWorkMemo *memo = nullptr;
};

/// Opens (creating it if needed) the lock file of RunOptions::deviceLockPath
/// without locking it, so that a tool can refuse an unusable path at once
/// rather than fail every kernel's run.
llvm::Error checkDeviceLockPath(llvm::StringRef path);

/// Reads the binary of `kernel` from `bundle` and loads it on `device`; the
/// caller unloads the module. A binary that cannot be read is an error
/// naming its path ("cannot read <path>: <reason>").
llvm::Expected<ModuleHandle> loadKernelModule(const Bundle &bundle,
                                              const KernelSpec &kernel,
                                              Device &device);

/// Runs `kernel` of `bundle` on `device`. The result is a record:
///   {"status": "pass"|"fail", "message": "...",
///    "check": {"checked", "unwritten", "nans", "mismatched",
///              "norm_rel_error", "max_abs_error"},
///    "timing": {"median_us", "min_us", "reps", "bytes", "flops", "gbps",
///               "tflops", "floor_us", "fraction_of_floor",
///               "copy_us", "fraction_of_copy"}}
/// ("copy_*" with RunOptions::timeCopy; "timing" only when the check passed
/// and reps > 0; for an op with several results "check" also holds
/// "outputs", one record per output, see makeCheckRecord). Every output is
/// poisoned, uploaded and copied back. A kernel with size parameters must
/// be specialized first (KernelSpec::specialize; it passes its size values
/// after the pointers); one whose sizes make the tensors empty is neither
/// loaded, checked nor launched: it passes, its "message" saying so. Anything
/// that stops the run (bad source, an op without a runtime model, manifest/op
/// mismatch, a kernel still having size parameters, a failing driver call) is
/// an error.
llvm::Expected<llvm::json::Object> runKernel(const Bundle &bundle,
                                             const KernelSpec &kernel,
                                             Device &device,
                                             const RunOptions &options);

/// runKernel once the source is parsed: `op` is the kernel's source op and
/// `model` its runtime model (a test may pass one of its own).
llvm::Expected<llvm::json::Object>
runKernelOp(const Bundle &bundle, const KernelSpec &kernel, mlir::Operation *op,
            const KernelModel &model, Device &device,
            const RunOptions &options);

/// The "check" record of `check`: {"checked", "unwritten", "nans",
/// "mismatched", "norm_rel_error", "max_abs_error"}, and with several
/// outputs also "outputs": one such record per output, each with its own
/// "status" and "message".
llvm::json::Object makeCheckRecord(const CheckResult &check);

} // namespace hkg::rt

#endif // HKG_RUNTIME_KERNELRUNNER_H
