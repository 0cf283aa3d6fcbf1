//===- Worker.h - running a kernel in an isolated worker process -*- C++
//-*-===//
//
// A faulting kernel can take its whole process down (an illegal address is
// sticky for a CUDA context) and a hanging one never returns. So each kernel
// runs in a worker process with a deadline: runWorker starts the program,
// collects its stdout and stderr, and reports a crash (signal) or a timeout
// (the worker is killed) as a result, never as the caller's own death.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_WORKER_H
#define HKG_RUNTIME_WORKER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace hkg::rt {

enum class WorkerStatus {
  /// The worker exited on its own; see exitCode.
  Exited,
  /// The worker died from a signal (segfault, abort...).
  Crashed,
  /// The worker ran past its deadline and was killed.
  TimedOut,
  /// The worker could not be started.
  FailedToStart,
};

llvm::StringRef getWorkerStatusName(WorkerStatus status);

struct WorkerResult {
  WorkerStatus status = WorkerStatus::FailedToStart;
  int exitCode = -1;
  /// What the worker wrote to stdout and stderr.
  std::string output;
  std::string errors;
  /// A one-line description: "exited with code 3", "crashed: Segmentation
  /// fault", "timed out after 2.0 s (killed)".
  std::string message;
  double seconds = 0;

  bool succeeded() const {
    return status == WorkerStatus::Exited && exitCode == 0;
  }
};

/// Runs `program` with `args` (args[0] is the program name) and waits at most
/// `timeoutMs` milliseconds (0: no deadline).
WorkerResult runWorker(llvm::StringRef program,
                       llvm::ArrayRef<std::string> args, unsigned timeoutMs);

} // namespace hkg::rt

#endif // HKG_RUNTIME_WORKER_H
