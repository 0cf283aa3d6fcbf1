//===- WorkerTest.cpp - crash and hang isolation --------------------------===//
//
// Stand-in workers (/bin/sh) that exit, crash or hang: the caller gets a
// result each time and carries on.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Worker.h"

#include "gtest/gtest.h"

using namespace hkg::rt;

static WorkerResult runShell(const std::string &script, unsigned timeoutMs) {
  return runWorker("/bin/sh", {"sh", "-c", script}, timeoutMs);
}

TEST(WorkerTest, ExitCodeAndOutputAreCollected) {
  WorkerResult r = runShell("echo result; echo oops >&2; exit 3", 10000);
  EXPECT_EQ(r.status, WorkerStatus::Exited);
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_EQ(r.output, "result\n");
  EXPECT_EQ(r.errors, "oops\n");
  EXPECT_EQ(r.message, "exited with code 3");
  EXPECT_FALSE(r.succeeded());
  EXPECT_TRUE(runShell("true", 10000).succeeded());
}

TEST(WorkerTest, CrashIsReportedNotPropagated) {
  WorkerResult r = runShell("echo partial; kill -SEGV $$", 10000);
  EXPECT_EQ(r.status, WorkerStatus::Crashed);
  EXPECT_EQ(r.output, "partial\n");
  EXPECT_NE(r.message.find("crashed: Segmentation fault"), std::string::npos)
      << r.message;
  WorkerResult abort = runShell("kill -ABRT $$", 10000);
  EXPECT_EQ(abort.status, WorkerStatus::Crashed);
  EXPECT_NE(abort.message.find("Abort"), std::string::npos) << abort.message;
}

TEST(WorkerTest, HangIsKilledAtTheDeadline) {
  WorkerResult r = runShell("exec sleep 30", 300);
  EXPECT_EQ(r.status, WorkerStatus::TimedOut);
  EXPECT_EQ(r.message, "timed out after 0.3 s (killed)");
  EXPECT_FALSE(r.succeeded());
  // The caller carries on: the next worker runs normally.
  EXPECT_TRUE(runShell("exit 0", 10000).succeeded());
}

TEST(WorkerTest, MissingProgramFailsToStart) {
  WorkerResult r = runWorker("/nonexistent/worker", {"worker"}, 1000);
  EXPECT_FALSE(r.succeeded());
  EXPECT_NE(r.status, WorkerStatus::Crashed);
}

//===----------------------------------------------------------------------===//
// ServingWorker: one process, many requests
//===----------------------------------------------------------------------===//

/// A stand-in server: reads lines and answers each by what it asks:
/// "crash" kills itself with SIGSEGV, "hang" sleeps, "quit" exits without
/// answering, "fault" answers and exits (as hkg-run --serve does after a run
/// without a verdict), anything else is noted on stderr and then echoed with
/// the server's pid.
static ServingWorker makeServer() {
  return ServingWorker(
      "/bin/sh",
      {"sh", "-c",
       "while read -r line; do case \"$line\" in "
       "crash) echo dying >&2; kill -SEGV $$ ;; "
       "hang) exec sleep 30 ;; "
       "quit) exit 4 ;; "
       "fault) echo \"fault $$\"; exit 0 ;; "
       "*) echo \"note $line\" >&2; echo \"$line $$\" ;; esac; done"});
}

/// The pid the stand-in appended to its reply.
static std::string pidOf(const WorkerResult &r) {
  return r.output.substr(r.output.rfind(' ') + 1);
}

TEST(ServingWorkerTest, OneProcessAnswersManyRequests) {
  ServingWorker server = makeServer();
  WorkerResult a = server.request("first", 10000);
  WorkerResult b = server.request("second", 10000);
  ASSERT_TRUE(a.succeeded()) << a.message;
  ASSERT_TRUE(b.succeeded()) << b.message;
  EXPECT_EQ(a.output.substr(0, 6), "first ");
  EXPECT_EQ(b.output.substr(0, 7), "second ");
  EXPECT_EQ(pidOf(a), pidOf(b));
  // Each request gets the stderr written while it ran, not earlier lines.
  EXPECT_EQ(a.errors, "note first\n");
  EXPECT_EQ(b.errors, "note second\n");
  EXPECT_EQ(server.getNumStarts(), 1u);
}

TEST(ServingWorkerTest, CrashIsAResultAndTheNextRequestGetsAFreshWorker) {
  ServingWorker server = makeServer();
  WorkerResult before = server.request("a", 10000);
  WorkerResult crash = server.request("crash", 10000);
  EXPECT_EQ(crash.status, WorkerStatus::Crashed);
  EXPECT_NE(crash.message.find("crashed: Segmentation fault"),
            std::string::npos)
      << crash.message;
  EXPECT_EQ(crash.errors, "dying\n");
  EXPECT_FALSE(crash.succeeded());
  WorkerResult after = server.request("b", 10000);
  ASSERT_TRUE(after.succeeded()) << after.message;
  EXPECT_NE(pidOf(before), pidOf(after));
  EXPECT_EQ(server.getNumStarts(), 2u);
}

TEST(ServingWorkerTest, HangIsKilledAtTheDeadline) {
  ServingWorker server = makeServer();
  WorkerResult hang = server.request("hang", 300);
  EXPECT_EQ(hang.status, WorkerStatus::TimedOut);
  EXPECT_EQ(hang.message, "timed out after 0.3 s (killed)");
  EXPECT_TRUE(server.request("next", 10000).succeeded());
  EXPECT_EQ(server.getNumStarts(), 2u);
}

TEST(ServingWorkerTest, ExitWithoutAnswerIsNotASuccess) {
  ServingWorker server = makeServer();
  WorkerResult quit = server.request("quit", 10000);
  EXPECT_EQ(quit.status, WorkerStatus::Exited);
  EXPECT_EQ(quit.exitCode, 4);
  EXPECT_EQ(quit.message, "exited with code 4 before answering");
  EXPECT_FALSE(quit.succeeded());
  EXPECT_TRUE(server.request("next", 10000).succeeded());
}

TEST(ServingWorkerTest, AnsweredThenExitedWorkerIsReplaced) {
  ServingWorker server = makeServer();
  WorkerResult fault = server.request("fault", 10000);
  ASSERT_TRUE(fault.succeeded()) << fault.message;
  // Whether or not it has exited yet, reset() ends it; the next request
  // starts another.
  server.reset();
  WorkerResult next = server.request("next", 10000);
  ASSERT_TRUE(next.succeeded()) << next.message;
  EXPECT_NE(pidOf(fault), pidOf(next));
  EXPECT_EQ(server.getNumStarts(), 2u);
}

TEST(ServingWorkerTest, MissingProgramFailsToStart) {
  ServingWorker server("/nonexistent/worker", {"worker"});
  WorkerResult r = server.request("x", 1000);
  EXPECT_EQ(r.status, WorkerStatus::FailedToStart);
  EXPECT_FALSE(r.succeeded());
}

TEST(ServingWorkerTest, WorkerThatClosesItsOutputAndHangsIsKilled) {
  // Its stdout closes (no reply can come) but the process lives on: the
  // request ends within the grace period, not at the deadline.
  ServingWorker server("/bin/sh",
                       {"sh", "-c", "read -r line; exec sleep 30 >&-"});
  WorkerResult r = server.request("x", 60000);
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.status, WorkerStatus::Crashed) << r.message;
  EXPECT_LT(r.seconds, 10.0);
}
