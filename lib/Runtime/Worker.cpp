//===- Worker.cpp - running a kernel in an isolated worker process --------===//

#include "hkg/Runtime/Worker.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <cstring>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

//===----------------------------------------------------------------------===//
// ServingWorker
//===----------------------------------------------------------------------===//

ServingWorker::ServingWorker(std::string program, std::vector<std::string> args)
    : program(std::move(program)), args(std::move(args)) {}

ServingWorker::~ServingWorker() {
  reset();
  if (!errorsPath.empty())
    llvm::sys::fs::remove(errorsPath);
}

void ServingWorker::reset() {
  if (pid <= 0)
    return;
  // Asked to end by its input closing; killed if it does not in time.
  ::close(toWorker);
  toWorker = -1;
  for (int i = 0; i < 200; ++i) {
    int status;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      pid = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop(/*kill=*/true);
}

bool ServingWorker::start(std::string &error) {
  if (errorsPath.empty()) {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("hkg-serve", "err", path)) {
      error = "cannot create a temporary file for the worker's stderr";
      return false;
    }
    errorsPath = std::string(path);
  }
  int in[2], out[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) {
    error = "socketpair: " + std::string(std::strerror(errno));
    return false;
  }
  if (::pipe2(out, O_CLOEXEC) != 0) {
    error = "pipe: " + std::string(std::strerror(errno));
    ::close(in[0]);
    ::close(in[1]);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[1], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, errorsPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t child;
  int rc = ::posix_spawn(&child, program.c_str(), &actions, nullptr,
                         argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[1]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[0]);
    ::close(out[0]);
    error = "cannot start " + program + ": " + std::strerror(rc);
    return false;
  }
  pid = child;
  toWorker = in[0];
  fromWorker = out[0];
  errorsRead = 0;
  pending.clear();
  ++numStarts;
  return true;
}

int ServingWorker::stop(bool kill) {
  if (toWorker >= 0)
    ::close(toWorker);
  if (fromWorker >= 0)
    ::close(fromWorker);
  toWorker = fromWorker = -1;
  int status = -1;
  if (pid > 0) {
    // A worker that closed its stdout gets a moment to exit on its own (its
    // status says how it ended), then is killed like a hanging one.
    bool reaped = false;
    for (int i = 0; !kill && i < 400 && !reaped; ++i) {
      reaped = ::waitpid(pid, &status, WNOHANG) == pid;
      if (!reaped)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!reaped) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    }
  }
  pid = -1;
  return status;
}

std::string ServingWorker::readErrors() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(errorsPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false,
                                  /*IsVolatile=*/true);
  if (!buf)
    return {};
  llvm::StringRef all = (*buf)->getBuffer();
  if (all.size() < errorsRead)
    errorsRead = 0;
  std::string text = all.drop_front(errorsRead).str();
  errorsRead = all.size();
  return text;
}

WorkerResult ServingWorker::request(llvm::StringRef line, unsigned timeoutMs) {
  WorkerResult result;
  auto begin = std::chrono::steady_clock::now();
  auto elapsedMs = [&] {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - begin)
        .count();
  };
  // A worker that ended since its last reply is replaced.
  if (pid > 0) {
    int status;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      pid = -1;
      stop(/*kill=*/false);
    }
  }
  if (pid <= 0 && !start(result.message)) {
    result.status = WorkerStatus::FailedToStart;
    return result;
  }
  std::string message = line.str() + "\n";
  for (size_t sent = 0; sent < message.size();) {
    ssize_t n = ::send(toWorker, message.data() + sent, message.size() - sent,
                       MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // The worker is gone: its end shows below.
    sent += n;
  }
  // Reads until a whole line, the worker's end, or the deadline.
  bool timedOut = false, ended = false;
  while (pending.find('\n') == std::string::npos) {
    int wait = -1;
    if (timeoutMs) {
      double left = timeoutMs - elapsedMs();
      if (left <= 0) {
        timedOut = true;
        break;
      }
      wait = static_cast<int>(left) + 1;
    }
    pollfd p{fromWorker, POLLIN, 0};
    int ready = ::poll(&p, 1, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // The deadline is checked above.
    char buffer[65536];
    ssize_t n = ::read(fromWorker, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ended = true;
      break;
    }
    pending.append(buffer, n);
  }
  result.seconds = elapsedMs() / 1000.0;
  if (timedOut) {
    stop(/*kill=*/true);
    result.status = WorkerStatus::TimedOut;
    result.errors = readErrors();
    result.message =
        llvm::formatv("timed out after {0:f1} s (killed)", timeoutMs / 1000.0);
    return result;
  }
  if (ended) {
    int status = stop(/*kill=*/false);
    result.errors = readErrors();
    result.output = pending;
    pending.clear();
    if (status != -1 && WIFSIGNALED(status)) {
      result.status = WorkerStatus::Crashed;
      result.message = std::string("crashed: ") + ::strsignal(WTERMSIG(status));
    } else {
      result.status = WorkerStatus::Exited;
      result.exitCode =
          status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      result.message = llvm::formatv("exited with code {0} before answering",
                                     result.exitCode);
      if (result.exitCode == 0)
        result.exitCode = -1; // Not a success: there was no reply.
    }
    return result;
  }
  size_t newline = pending.find('\n');
  result.output = pending.substr(0, newline);
  pending.erase(0, newline + 1);
  result.errors = readErrors();
  result.status = WorkerStatus::Exited;
  result.exitCode = 0;
  result.message = "answered";
  return result;
}
