//===- TargetInfoTest.cpp - the target table ------------------------------===//

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "gtest/gtest.h"

using namespace mlir::hkg;

TEST(TargetInfo, KnowsEveryListedChip) {
  for (const char *chip : {"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1151",
                           "gfx1201", "gfx1250", "sm_80", "sm_90"})
    EXPECT_NE(lookupTarget(chip), nullptr) << chip;
  EXPECT_EQ(lookupTarget("gfx9999"), nullptr);
  EXPECT_EQ(lookupTarget(""), nullptr);
}

TEST(TargetInfo, WaveSizesByFamily) {
  EXPECT_EQ(lookupTarget("gfx942")->waveSize, 64u);
  EXPECT_EQ(lookupTarget("gfx90a")->waveSize, 64u);
  EXPECT_EQ(lookupTarget("gfx950")->waveSize, 64u);
  EXPECT_EQ(lookupTarget("gfx1100")->waveSize, 32u);
  EXPECT_EQ(lookupTarget("gfx1201")->waveSize, 32u);
  EXPECT_EQ(lookupTarget("sm_90")->waveSize, 32u);
}

TEST(TargetInfo, MatrixCoresMatchVendor) {
  for (const TargetInfo &t : getAllTargets()) {
    EXPECT_FALSE(t.mmaIntrinsics.empty()) << t.chip.str();
    EXPECT_FALSE(t.source.empty()) << t.chip.str();
    EXPECT_GT(t.ldsBytesPerWorkgroup, 0u) << t.chip.str();
    for (llvm::StringRef m : t.mmaIntrinsics) {
      if (t.matrixCore == MatrixCoreKind::MFMA)
        EXPECT_TRUE(m.starts_with("mfma_")) << t.chip.str() << " " << m.str();
      if (t.matrixCore == MatrixCoreKind::WMMA)
        EXPECT_TRUE(m.starts_with("wmma_")) << t.chip.str() << " " << m.str();
      // NVIDIA: warp-level mma.sync; Hopper adds warpgroup MMA.
      if (t.matrixCore == MatrixCoreKind::MmaSync)
        EXPECT_TRUE(m.starts_with("mma_") ||
                    (t.family == "hopper" && m.starts_with("wgmma_")))
            << t.chip.str() << " " << m.str();
    }
  }
  EXPECT_TRUE(llvm::is_contained(lookupTarget("sm_90")->mmaIntrinsics,
                                 "wgmma_64x128x16"));
  EXPECT_FALSE(llvm::any_of(lookupTarget("sm_80")->mmaIntrinsics,
                            [](llvm::StringRef m) {
                              return m.starts_with("wgmma_");
                            }));
  // The default (first) NVIDIA instruction stays mma.sync.
  EXPECT_EQ(lookupTarget("sm_90")->mmaIntrinsics.front(), "mma_16x8x16");
  // f32 on tf32 tensor cores (3xTF32) from sm_80; not on AMD.
  for (const TargetInfo &t : getAllTargets())
    EXPECT_EQ(llvm::is_contained(t.mmaIntrinsics, "mma_16x8x8_tf32x3"),
              t.isNVIDIA())
        << t.chip.str();
  EXPECT_EQ(lookupTarget("gfx950")->ldsBytesPerWorkgroup, 160u * 1024u);
  EXPECT_EQ(lookupTarget("gfx942")->ldsBytesPerWorkgroup, 64u * 1024u);
}

TEST(TargetInfo, KnownChipsStringListsAll) {
  std::string s = getKnownChipsString();
  EXPECT_NE(s.find("gfx942"), std::string::npos);
  EXPECT_NE(s.find("sm_90"), std::string::npos);
}

TEST(TargetInfo, Gfx1250WmmaStepsKBy32) {
  // LLVM 22 has only the 16x16x32 f16/bf16 WMMA forms for gfx1250.
  const TargetInfo *t = lookupTarget("gfx1250");
  ASSERT_EQ(t->mmaIntrinsics.size(), 1u);
  EXPECT_EQ(t->mmaIntrinsics.front(), "wmma_16x16x32");
  EXPECT_EQ(t->ldsBytesPerWorkgroup, 327680u);
  EXPECT_EQ(t->computeUnits, 0u); // not published
}

TEST(TargetInfo, Sm90MatchesAnH200) {
  // Read back from cudaGetDeviceProperties on an H200.
  const TargetInfo *t = lookupTarget("sm_90");
  EXPECT_EQ(t->computeUnits, 132u);
  EXPECT_EQ(t->ldsBytesPerWorkgroup, 232448u);
  EXPECT_EQ(t->maxWavesPerCU, 64u); // 2048 threads per SM
}
