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
