//===- KernelStatsTest.cpp - occupancy rules and ptxas log parsing --------===//

#include "hkg/Target/KernelStats.h"

#include "gtest/gtest.h"

using namespace mlir::hkg;

static Occupancy occupancy(llvm::StringRef chip, unsigned vgpr, unsigned sgpr,
                           unsigned lds, unsigned workgroupSize = 256) {
  const TargetInfo *target = lookupTarget(chip);
  EXPECT_NE(target, nullptr) << chip.str();
  AMDGPUKernelStats stats;
  stats.vgprCount = vgpr;
  stats.sgprCount = sgpr;
  stats.groupSegmentBytes = lds;
  stats.wavefrontSize = target->waveSize;
  llvm::Expected<Occupancy> occ =
      computeAMDGPUOccupancy(*target, stats, workgroupSize);
  EXPECT_TRUE(static_cast<bool>(occ)) << llvm::toString(occ.takeError());
  return occ ? *occ : Occupancy();
}

// Every expectation below is the `; Occupancy:` llc-22 prints for a kernel
// with that many registers (forced with inline-asm clobbers) or that much
// LDS, and amdgpu-flat-work-group-size = 256.
TEST(AMDGPUOccupancy, VGPRLimitMatchesLLC) {
  EXPECT_EQ(occupancy("gfx90a", 100, 16, 0).wavesPerSIMD, 4u);
  EXPECT_EQ(occupancy("gfx90a", 151, 16, 0).wavesPerSIMD, 3u);
  EXPECT_EQ(occupancy("gfx942", 200, 16, 0).wavesPerSIMD, 2u);
  EXPECT_EQ(occupancy("gfx950", 200, 16, 0).wavesPerSIMD, 2u);
  EXPECT_EQ(occupancy("gfx1100", 200, 16, 0).wavesPerSIMD, 7u);
  EXPECT_EQ(occupancy("gfx1151", 100, 16, 0).wavesPerSIMD, 12u);
  EXPECT_EQ(occupancy("gfx1151", 151, 16, 0).wavesPerSIMD, 9u);
  EXPECT_EQ(occupancy("gfx1201", 200, 16, 0).wavesPerSIMD, 7u);
  EXPECT_EQ(occupancy("gfx1250", 100, 16, 0).wavesPerSIMD, 9u);
  EXPECT_EQ(occupancy("gfx1250", 151, 16, 0).wavesPerSIMD, 6u);
  EXPECT_EQ(occupancy("gfx1250", 200, 16, 0).wavesPerSIMD, 4u);
  EXPECT_EQ(occupancy("gfx942", 200, 16, 0).limiter, "vgpr");
}

TEST(AMDGPUOccupancy, WaveSlots) {
  EXPECT_EQ(occupancy("gfx90a", 40, 16, 0).wavesPerSIMD, 8u);
  EXPECT_EQ(occupancy("gfx1151", 40, 16, 0).wavesPerSIMD, 16u);
  EXPECT_EQ(occupancy("gfx1250", 40, 16, 0).wavesPerSIMD, 16u);
  EXPECT_EQ(occupancy("gfx1250", 40, 16, 0).limiter, "waves");
}

TEST(AMDGPUOccupancy, SGPRLimitOnlyOnGFX9) {
  EXPECT_EQ(occupancy("gfx942", 8, 106, 0).wavesPerSIMD, 7u);
  EXPECT_EQ(occupancy("gfx942", 8, 106, 0).limiter, "sgpr");
  EXPECT_EQ(occupancy("gfx942", 8, 96, 0).wavesPerSIMD, 8u);
  EXPECT_EQ(occupancy("gfx1100", 8, 106, 0).wavesPerSIMD, 16u);
}

TEST(AMDGPUOccupancy, LDSLimitMatchesLLC) {
  for (auto [lds, gfx942, gfx950, gfx1100, gfx1250] :
       {std::tuple{40960u, 1u, 4u, 6u, 16u},
        std::tuple{16384u, 4u, 8u, 16u, 16u},
        std::tuple{8192u, 8u, 8u, 16u, 16u}}) {
    EXPECT_EQ(occupancy("gfx942", 10, 16, lds).wavesPerSIMD, gfx942) << lds;
    EXPECT_EQ(occupancy("gfx950", 10, 16, lds).wavesPerSIMD, gfx950) << lds;
    EXPECT_EQ(occupancy("gfx1100", 10, 16, lds).wavesPerSIMD, gfx1100) << lds;
    EXPECT_EQ(occupancy("gfx1201", 10, 16, lds).wavesPerSIMD, gfx1100) << lds;
    EXPECT_EQ(occupancy("gfx1250", 10, 16, lds).wavesPerSIMD, gfx1250) << lds;
  }
  EXPECT_EQ(occupancy("gfx942", 10, 16, 40960).limiter, "lds");
}

TEST(AMDGPUOccupancy, NoRulesForNVIDIA) {
  AMDGPUKernelStats stats;
  llvm::Expected<Occupancy> occ =
      computeAMDGPUOccupancy(*lookupTarget("sm_90"), stats, 256);
  EXPECT_FALSE(static_cast<bool>(occ));
  llvm::consumeError(occ.takeError());
}

TEST(AMDGPUKernelStats, RejectsNonAMDGPUObjects) {
  llvm::Expected<llvm::SmallVector<AMDGPUKernelStats>> stats =
      readAMDGPUKernelStats("not an ELF file");
  EXPECT_FALSE(static_cast<bool>(stats));
  llvm::consumeError(stats.takeError());
}

TEST(PtxasLog, ParsesEveryEntry) {
  llvm::StringRef log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'hkg_softmax_0' for 'sm_90'\n"
      "ptxas info    : Function properties for hkg_softmax_0\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 1 barriers, 128 bytes smem\n"
      "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
      "ptxas info    : Function properties for k2\n"
      "    24 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 0 barriers, 368 bytes cmem[0]\n"
      "ptxas info    : Compile time = 66.683 ms\n";
  llvm::SmallVector<NVPTXKernelStats> stats = parsePtxasLog(log);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].name, "hkg_softmax_0");
  EXPECT_EQ(stats[0].registers, 32u);
  EXPECT_EQ(stats[0].sharedBytes, 128u);
  EXPECT_EQ(stats[0].spillStoreBytes, 0u);
  EXPECT_EQ(stats[1].name, "k2");
  EXPECT_EQ(stats[1].registers, 255u);
  EXPECT_EQ(stats[1].sharedBytes, 0u);
  EXPECT_EQ(stats[1].stackFrameBytes, 24u);
  EXPECT_EQ(stats[1].spillStoreBytes, 16u);
  EXPECT_EQ(stats[1].spillLoadBytes, 8u);
}
