//===- LaunchPlanTest.cpp - arena placement of a launch plan's buffers ----===//

#include "hkg/Target/LaunchPlan.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::hkg;

/// Checks what every placement must hold: offsets aligned, buffers live at
/// a common step never share a byte, every buffer inside the arena.
static void expectValid(llvm::ArrayRef<ArenaRequest> requests,
                        const ArenaAssignment &a, int64_t alignment) {
  ASSERT_EQ(a.offsets.size(), requests.size());
  EXPECT_EQ(a.totalBytes % alignment, 0);
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(a.offsets[i] % alignment, 0) << "request " << i;
    EXPECT_LE(a.offsets[i] + requests[i].bytes, a.totalBytes);
    for (size_t j = i + 1; j < requests.size(); ++j) {
      bool together = requests[i].firstStep <= requests[j].lastStep &&
                      requests[j].firstStep <= requests[i].lastStep;
      bool disjoint = a.offsets[i] + requests[i].bytes <= a.offsets[j] ||
                      a.offsets[j] + requests[j].bytes <= a.offsets[i];
      if (together)
        EXPECT_TRUE(disjoint) << "requests " << i << " and " << j;
    }
  }
}

TEST(LaunchPlanArena, DisjointLifetimesShareOffsetZero) {
  // A chain: each intermediate is written by one step and read by the next.
  std::vector<ArenaRequest> r = {{4096, 0, 1}, {8192, 2, 3}, {1024, 4, 5}};
  ArenaAssignment a = assignArenaOffsets(r);
  EXPECT_EQ(a.offsets, (llvm::SmallVector<int64_t>{0, 0, 0}));
  EXPECT_EQ(a.totalBytes, 8192);
}

TEST(LaunchPlanArena, AStepsOutputNeverOverlapsItsInput) {
  // Step 1 reads the first and writes the second: both live at step 1.
  std::vector<ArenaRequest> r = {{4096, 0, 1}, {4096, 1, 2}, {4096, 2, 3}};
  ArenaAssignment a = assignArenaOffsets(r);
  expectValid(r, a, 256);
  EXPECT_NE(a.offsets[0], a.offsets[1]);
  EXPECT_NE(a.offsets[1], a.offsets[2]);
  // The first and third are never live together: they share.
  EXPECT_EQ(a.offsets[0], a.offsets[2]);
  EXPECT_EQ(a.totalBytes, 8192);
}

TEST(LaunchPlanArena, LargestFirstThenFirstFitGap) {
  // 1000 bytes (steps 0-4) go first at 0; 300 (0-1) at 1024; 200 (3-4)
  // fits the gap after the 1000 too, at 1024, since it does not live with
  // the 300; sizes are aligned to 256.
  std::vector<ArenaRequest> r = {{300, 0, 1}, {1000, 0, 4}, {200, 3, 4}};
  ArenaAssignment a = assignArenaOffsets(r);
  expectValid(r, a, 256);
  EXPECT_EQ(a.offsets, (llvm::SmallVector<int64_t>{1024, 0, 1024}));
  EXPECT_EQ(a.totalBytes, 1536);
}

TEST(LaunchPlanArena, FillsAGapBelowALaterBuffer) {
  // Largest first: B (2048 bytes, steps 2-3) at 0; C (1024, 1-2) lives with
  // B, so above it; A (512, 0-1) lives with C only, so the gap below C (B's
  // bytes, free at steps 0-1) holds it; D (256, 3) lives with B only, so C's
  // bytes (free at step 3) hold it.
  std::vector<ArenaRequest> r = {
      {512, 0, 1}, {2048, 2, 3}, {1024, 1, 2}, {256, 3, 3}};
  ArenaAssignment a = assignArenaOffsets(r, /*alignment=*/256);
  expectValid(r, a, 256);
  EXPECT_EQ(a.offsets, (llvm::SmallVector<int64_t>{0, 0, 2048, 2048}));
  EXPECT_EQ(a.totalBytes, 3072);
}

TEST(LaunchPlanArena, RandomPlacementsAreValid) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<ArenaRequest> r;
    int n = 1 + rng() % 12;
    for (int i = 0; i < n; ++i) {
      int64_t first = rng() % 10;
      r.push_back(
          {1 + int64_t(rng() % 5000), first, first + int64_t(rng() % 4)});
    }
    int64_t alignment = trial % 2 ? 256 : 16;
    ArenaAssignment a = assignArenaOffsets(r, alignment);
    expectValid(r, a, alignment);
    // Never more than every buffer side by side.
    int64_t sum = 0;
    for (const ArenaRequest &q : r)
      sum += llvm::alignTo(q.bytes, alignment);
    EXPECT_LE(a.totalBytes, sum);
  }
}

TEST(LaunchPlanArena, Empty) {
  ArenaAssignment a = assignArenaOffsets({});
  EXPECT_TRUE(a.offsets.empty());
  EXPECT_EQ(a.totalBytes, 0);
}
