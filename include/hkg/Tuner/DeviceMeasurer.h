//===- DeviceMeasurer.h - the tuner's measurer on a real device -*- C++ -*-===//
//
// Measures a candidate schedule on the GPU at hand: the op (from its
// signature) gets the candidate schedule and is compiled into a kernel bundle
// (compileBundle, in a context of the measurer's own), then a worker process
// runs it with a deadline (runKernel: seeded inputs, poisoned output, check
// against the float64 reference, cold-L2 device-event timing, median): one
// `hkg-run --serve` for all candidates by default, replaced after a fault,
// or one `hkg-run --worker` each. A crash or hang is a result, never the
// caller's death. An op with dynamic dims compiles to a kernel with
// dynamic sizes, measured with every size at the op's size hint (which its
// signature carries: hkg-run --sizes).
//
// Tools that run `hkg-autotune` call registerDeviceMeasurer() once; the pass
// then reaches the device through setMeasurerFactory.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_DEVICEMEASURER_H
#define HKG_TUNER_DEVICEMEASURER_H

#include "hkg/Tuner/Measurer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir::hkg::tuner {

struct DeviceMeasurerOptions {
  /// auto, cuda or hip.
  std::string device = "auto";
  int ordinal = 0;
  /// Seed of the random inputs; untimed and timed launches.
  uint64_t seed = 1;
  unsigned warmup = 10;
  unsigned reps = 50;
  /// Milliseconds a candidate's launches may take (rt::RunOptions::
  /// timeBudgetS): a candidate hundreds of times slower than the default
  /// is timed with a few launches, enough to lose. 0: no limit.
  double timeBudgetMs = 250;
  /// MiB overwritten before each timed launch (cold L2).
  unsigned flushMiB = 256;
  /// Seconds one candidate's worker may run (reference included).
  unsigned timeoutSeconds = 120;
  /// The worker program (hkg-run). Empty: $HKG_RUN, else `hkg-run` next to
  /// the running executable, else on PATH.
  std::string workerProgram;
  /// An external compiler with hkg-compile's command line, used instead of
  /// compileBundle in this process. Empty: $HKG_COMPILE when set (tests use
  /// a stand-in), else compile in process.
  std::string compilerProgram;
  /// Passed to the worker as --device-lock: several tuners sharing one GPU
  /// through the same file measure in parallel on the host and one at a
  /// time on the GPU. Empty: no lock.
  std::string deviceLock;
  /// Also time a copy of the op's bytes with each candidate (hkg-run
  /// --time-copy): Measurement::copyUs.
  bool timeCopy = true;
  /// Keep the random inputs and float64 reference of an op for its next
  /// candidates (hkg-run --host-cache, HostWorkCache.h): in `hostCacheDir`
  /// when given (kept), else in a temporary directory of the measurer's
  /// own, removed with it.
  bool shareHostWork = true;
  std::string hostCacheDir;
  /// Run every candidate in one serving worker (`hkg-run --serve`,
  /// rt::ServingWorker): the device is opened once and the op's host work
  /// stays in its memory; a worker that crashes, hangs or faults is
  /// replaced for the next candidate. False: a fresh `hkg-run --worker`
  /// process per candidate.
  bool serve = true;
};

/// Creates the measurer of the device at hand for `target`, or returns null
/// and says why in `whyNot` (no GPU runtime, a device of another chip, no
/// worker program). The device is probed and closed again: kernels only run
/// in workers.
std::unique_ptr<Measurer>
createDeviceMeasurer(const TargetInfo &target,
                     const DeviceMeasurerOptions &options, std::string &whyNot);

/// Installs createDeviceMeasurer with `options` as the measurer factory
/// (setMeasurerFactory).
void registerDeviceMeasurer(DeviceMeasurerOptions options = {});

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_DEVICEMEASURER_H
