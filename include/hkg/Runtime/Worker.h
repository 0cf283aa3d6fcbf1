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
#include <vector>

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

/// A worker that serves many requests (`hkg-run --serve`): one line in on
/// its stdin, one line out on its stdout, each under a deadline, so that
/// one process (one device context, one copy of the op's host work) runs a
/// tuner's candidates one after another. A request whose worker dies before
/// answering (a crash, or an exit after a fault) or runs past its deadline
/// (killed) gets that as its result, and the next request starts a fresh
/// worker.
class ServingWorker {
public:
  /// `args[0]` is the program name; the worker starts on the first request.
  ServingWorker(std::string program, std::vector<std::string> args);
  /// Closes the worker's stdin and waits for it briefly, then kills it.
  ~ServingWorker();
  ServingWorker(const ServingWorker &) = delete;
  ServingWorker &operator=(const ServingWorker &) = delete;

  /// Sends `line` (no newline) and waits at most `timeoutMs` (0: no
  /// deadline) for the reply: `output` is the reply line, `errors` what the
  /// worker wrote to stderr since the previous reply, up to this one; `seconds`
  /// includes a start. Exited (code 0) with a reply is success; a worker that
  /// ended without one is Crashed (a signal) or Exited (its code), a deadline
  /// TimedOut.
  WorkerResult request(llvm::StringRef line, unsigned timeoutMs);
  /// Ends the current worker (it has its input closed and a moment to exit,
  /// then is killed), so that the next request starts a fresh one: after a
  /// reply without a verdict the worker may hold an unusable device.
  void reset();
  /// Workers started so far.
  unsigned getNumStarts() const { return numStarts; }

private:
  bool start(std::string &error);
  /// Ends the worker and reaps it: killed at once with `kill`, else given
  /// 2 s to exit first; returns its wait status, or -1.
  int stop(bool kill);
  std::string readErrors();

  std::string program;
  std::vector<std::string> args;
  int pid = -1;
  /// Our ends: the worker's stdin (a socket: writing to a dead worker is an
  /// error, not SIGPIPE) and stdout.
  int toWorker = -1, fromWorker = -1;
  /// The worker's stderr goes to this file; `errorsRead` bytes of it were
  /// reported already.
  std::string errorsPath;
  size_t errorsRead = 0;
  std::string pending;
  unsigned numStarts = 0;
};

} // namespace hkg::rt

#endif // HKG_RUNTIME_WORKER_H
