//===- Worker.cpp - running a kernel in an isolated worker process --------===//

#include "hkg/Runtime/Worker.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <csignal>
#include <thread>

using namespace hkg::rt;

llvm::StringRef hkg::rt::getWorkerStatusName(WorkerStatus status) {
  switch (status) {
  case WorkerStatus::Exited:
    return "exited";
  case WorkerStatus::Crashed:
    return "crashed";
  case WorkerStatus::TimedOut:
    return "timed out";
  case WorkerStatus::FailedToStart:
    return "failed to start";
  }
  return "unknown";
}

namespace {
/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  bool ok = false;
  explicit TempFile(llvm::StringRef suffix) {
    ok = !llvm::sys::fs::createTemporaryFile("hkg-worker", suffix, path);
  }
  ~TempFile() {
    if (ok)
      llvm::sys::fs::remove(path);
  }
  std::string read() const {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
        llvm::MemoryBuffer::getFile(path);
    return buf ? (*buf)->getBuffer().str() : std::string();
  }
};
} // namespace

WorkerResult hkg::rt::runWorker(llvm::StringRef program,
                                llvm::ArrayRef<std::string> args,
                                unsigned timeoutMs) {
  WorkerResult result;
  TempFile out("out"), err("err");
  if (!out.ok || !err.ok) {
    result.message = "cannot create temporary files for the worker's output";
    return result;
  }
  llvm::SmallVector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(out.path),
                                                llvm::StringRef(err.path)};
  std::string errMsg;
  bool executionFailed = false;
  auto start = std::chrono::steady_clock::now();
  llvm::sys::ProcessInfo pi =
      llvm::sys::ExecuteNoWait(program, argv, std::nullopt, redirects,
                               /*MemoryLimit=*/0, &errMsg, &executionFailed);
  if (executionFailed || pi.Pid == 0) {
    result.message = "cannot start " + program.str() + ": " + errMsg;
    return result;
  }

  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  llvm::sys::ProcessInfo done;
  bool timedOut = false;
  while (true) {
    errMsg.clear();
    done = llvm::sys::Wait(pi, /*SecondsToWait=*/0, &errMsg);
    if (done.Pid != 0)
      break;
    if (timeoutMs && elapsed() * 1000.0 >= timeoutMs) {
      ::kill(pi.Pid, SIGKILL);
      errMsg.clear();
      done = llvm::sys::Wait(pi, /*SecondsToWait=*/std::nullopt, &errMsg);
      timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.seconds = elapsed();
  result.output = out.read();
  result.errors = err.read();
  result.exitCode = done.ReturnCode;
  if (timedOut) {
    result.status = WorkerStatus::TimedOut;
    result.message =
        llvm::formatv("timed out after {0:f1} s (killed)", timeoutMs / 1000.0);
  } else if (done.ReturnCode == -2) {
    result.status = WorkerStatus::Crashed;
    result.message = "crashed: " + (errMsg.empty() ? "signal" : errMsg);
  } else if (done.ReturnCode < 0) {
    result.status = WorkerStatus::FailedToStart;
    result.message = "failed: " + errMsg;
  } else {
    result.status = WorkerStatus::Exited;
    result.message = llvm::formatv("exited with code {0}", done.ReturnCode);
  }
  return result;
}
