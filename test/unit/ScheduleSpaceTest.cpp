//===- ScheduleSpaceTest.cpp - spaces, resolution and verification --------===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"
#include "hkg/Tuner/Signature.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::hkg;

namespace {
class ScheduleSpaceTest : public ::testing::Test {
protected:
  ScheduleSpaceTest() {
    ctx.loadDialect<HkgDialect, arith::ArithDialect, math::MathDialect,
                    func::FuncDialect>();
  }

  template <typename OpT>
  OpT parseOp(StringRef src) {
    module = parseSourceString<ModuleOp>(src, &ctx);
    EXPECT_TRUE(module);
    OpT found;
    module->walk([&](OpT op) { found = op; });
    return found;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};
} // namespace

TEST(KnobSpec, LegalValues) {
  ScheduleSpace space;
  space.addInt("vector_width", {1, 2, 4, 8}, 8, "");
  space.addKeyword("row_cache", {"none", "registers"}, "none", "");
  const KnobSpec *vw = space.lookup("vector_width");
  ASSERT_NE(vw, nullptr);
  EXPECT_TRUE(vw->isLegal(int64_t(4)));
  EXPECT_FALSE(vw->isLegal(int64_t(3)));
  EXPECT_FALSE(vw->isLegal(std::string("4")));
  EXPECT_EQ(vw->legalValuesString(), "1, 2, 4, 8");
  EXPECT_EQ(space.lookup("row_cache")->legalValuesString(), "none, registers");
  EXPECT_EQ(space.lookup("nope"), nullptr);
  EXPECT_EQ(space.size(), 8.0);
  EXPECT_EQ(space.knobNamesString(), "vector_width, row_cache");
}

TEST_F(ScheduleSpaceTest, SoftmaxDefaultsAreLegalOnEveryTarget) {
  auto op = parseOp<SoftmaxOp>(R"mlir(
    func.func @f(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
      %0 = hkg.softmax %x axis(1) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
      return %0 : tensor<64x8192xbf16>
    })mlir");
  ASSERT_TRUE(op);
  auto iface = cast<HkgKernelOpInterface>(op.getOperation());
  for (const TargetInfo &t : getAllTargets()) {
    ScheduleAttr def = iface.getDefaultSchedule(t);
    EXPECT_TRUE(succeeded(verifySchedule(iface, def, t, [&] {
      return op.emitOpError();
    }))) << t.chip.str();
    ResolvedSchedule r(iface.getScheduleSpace(t), def);
    EXPECT_EQ(r.getInt("vector_width"), 8) << t.chip.str(); // 16 bytes of bf16
    EXPECT_EQ(r.getInt("threads") % t.waveSize, 0) << t.chip.str();
  }
}

TEST_F(ScheduleSpaceTest, ResolvedScheduleFillsDefaults) {
  auto op = parseOp<RMSNormOp>(R"mlir(
    func.func @f(%x: tensor<16x4096xf32>, %w: tensor<4096xf32>) -> tensor<16x4096xf32> {
      %0 = hkg.rmsnorm %x weight(%w : tensor<4096xf32>) eps(1.0e-06)
          {schedule = #hkg.schedule<threads = 128>}
          : tensor<16x4096xf32> -> tensor<16x4096xf32>
      return %0 : tensor<16x4096xf32>
    })mlir");
  ASSERT_TRUE(op);
  auto iface = cast<HkgKernelOpInterface>(op.getOperation());
  const TargetInfo &t = *lookupTarget("gfx942");
  ResolvedSchedule r = resolveSchedule(iface, t);
  EXPECT_EQ(r.getInt("threads"), 128);
  EXPECT_EQ(r.getInt("vector_width"), 4); // 16 bytes of f32
  EXPECT_TRUE(r.has("row_cache"));
  ScheduleAttr full = r.toAttr(&ctx);
  EXPECT_EQ(full.getInt("threads"), 128);
  EXPECT_EQ(full.getKnobs().size(), iface.getScheduleSpace(t).knobs.size());
}

TEST_F(ScheduleSpaceTest, CostFeaturesOfMatmul) {
  auto op = parseOp<MatmulOp>(R"mlir(
    func.func @f(%a: tensor<128x256xbf16>, %b: tensor<256x64xbf16>) -> tensor<128x64xbf16> {
      %0 = hkg.matmul %a, %b : tensor<128x256xbf16>, tensor<256x64xbf16> -> tensor<128x64xbf16>
      return %0 : tensor<128x64xbf16>
    })mlir");
  ASSERT_TRUE(op);
  CostFeatures c = cast<HkgKernelOpInterface>(op.getOperation()).getCostFeatures();
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 128 * 64 * 256);
  EXPECT_DOUBLE_EQ(c.bytes, 2.0 * (128 * 256 + 256 * 64 + 128 * 64));
  ASSERT_EQ(c.shape.size(), 4u);
  EXPECT_EQ(c.shape[1], 128);
  EXPECT_EQ(c.shape[2], 64);
  EXPECT_EQ(c.shape[3], 256);
  EXPECT_TRUE(c.elementType.isBF16());
}

TEST(MmaInstruction, ParsesTheOperandSuffix) {
  MmaInstruction tf32 = MmaInstruction::parse("mma_16x8x8_tf32x3");
  EXPECT_EQ(tf32.family, MmaFamily::MmaSync);
  EXPECT_EQ(tf32.m, 16);
  EXPECT_EQ(tf32.n, 8);
  EXPECT_EQ(tf32.k, 8);
  EXPECT_TRUE(tf32.isTf32x3());
  EXPECT_EQ(tf32.name, "mma_16x8x8_tf32x3");
  MmaInstruction half = MmaInstruction::parse("mma_16x8x16");
  EXPECT_EQ(half.k, 16);
  EXPECT_FALSE(half.isTf32x3());
  // An unknown suffix is no instruction (the verifier refuses it).
  EXPECT_TRUE(MmaInstruction::parse("mma_16x8x8_tf32x2").isNone());
  EXPECT_TRUE(MmaInstruction::parse("mma_16x8x8_").isNone());
}

// f32 matmuls of at least 128 x 128 x 16 default to 3xTF32: on sm_90a on
// warpgroup MMA with the truncating split (on an H100 1.53x / 1.84x cuBLAS
// FP32 at a third of its error: docs/perf), on sm_80 mma.sync's with the
// fast split (1.22x on the H100); a matrix-vector shape keeps the FMA
// kernel. 3xTF32 is in no sketch.
TEST_F(ScheduleSpaceTest, F32MatmulDefaultsTo3xTf32OnSm90) {
  auto op = parseOp<MatmulOp>(R"mlir(
    func.func @f(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>,
                 %d: tensor<8x4096xf32>) {
      %0 = hkg.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
      %1 = hkg.matmul %d, %b : tensor<8x4096xf32>, tensor<4096x4096xf32> -> tensor<8x4096xf32>
      return
    })mlir");
  ASSERT_TRUE(op);
  SmallVector<MatmulOp> ops;
  module->walk([&](MatmulOp m) { ops.push_back(m); });
  ASSERT_EQ(ops.size(), 2u);
  for (StringRef chip : {"sm_90", "sm_80"})
    for (MatmulOp m : ops) {
      const TargetInfo &t = *lookupTarget(chip);
      bool hopper = chip == "sm_90";
      ScheduleSpace space = m.getScheduleSpace(t);
      ResolvedSchedule s(space, m.getDefaultSchedule(t));
      bool square = m.getM() == 4096;
      StringRef tf32x3 = hopper ? "wgmma_64x128x8_tf32x3" : "mma_16x8x8_tf32x3";
      EXPECT_EQ(s.getKeyword("mma"), square ? tf32x3 : "none");
      EXPECT_EQ(s.getKeyword("tf32_split"),
                square ? (hopper ? "trunc" : "fast") : "rna");
      const KnobSpec *mma = space.lookup("mma");
      ASSERT_TRUE(mma);
      EXPECT_TRUE(mma->isLegal(std::string("mma_16x8x8_tf32x3")));
      for (const ScheduleSketch &sketch : space.sketches)
        for (const auto &[name, value] : sketch.knobs)
          if (name == "mma")
            EXPECT_FALSE(
                MmaInstruction::parse(std::get<std::string>(value)).isTf32x3());
      EXPECT_TRUE(succeeded(verifySchedule(
          cast<HkgKernelOpInterface>(m.getOperation()), m.getDefaultSchedule(t),
          t, [&] { return m.emitOpError(); })));
    }
}

TEST_F(ScheduleSpaceTest, IllegalKnobIsReportedWithLegalRange) {
  auto op = parseOp<SoftmaxOp>(R"mlir(
    func.func @f(%x: tensor<4x1024xf32>) -> tensor<4x1024xf32> {
      %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = 8>}
          : tensor<4x1024xf32> -> tensor<4x1024xf32>
      return %0 : tensor<4x1024xf32>
    })mlir");
  ASSERT_TRUE(op);
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  auto iface = cast<HkgKernelOpInterface>(op.getOperation());
  EXPECT_TRUE(failed(verifySchedule(iface, iface.getScheduleAttrOrNull(),
                                    *lookupTarget("gfx942"),
                                    [&] { return op.emitOpError(); })));
  EXPECT_NE(message.find("'vector_width' = 8"), std::string::npos) << message;
  EXPECT_NE(message.find("1, 2, 4"), std::string::npos) << message;
}

TEST(ResolvedSchedule, IgnoresValuesOfTheWrongKind) {
  // An unverified schedule with a keyword for an integer knob and an integer
  // for a keyword knob resolves to the defaults instead of handing getInt a
  // keyword.
  MLIRContext ctx;
  ctx.loadDialect<HkgDialect>();
  Builder b(&ctx);
  ScheduleSpace space;
  space.addInt("vector_width", {1, 2, 4, 8}, 8, "");
  space.addKeyword("row_cache", {"none", "registers"}, "none", "");
  auto attr = ScheduleAttr::get(
      &ctx, b.getDictionaryAttr(
                {b.getNamedAttr("vector_width", b.getStringAttr("foo")),
                 b.getNamedAttr("row_cache", b.getI64IntegerAttr(1))}));
  ResolvedSchedule r(space, attr);
  EXPECT_EQ(r.getInt("vector_width"), 8);
  EXPECT_EQ(r.getKeyword("row_cache"), "none");
}

TEST_F(ScheduleSpaceTest, LeftOutKnobFollowsTheKnobsGiven) {
  // sm_90's D128 prefill default pipelines its key loop (wgmma_pipeline =
  // 1, legal only with stages = 2, kv_split = 1 and no wgmma_overlap). A
  // schedule that gives one of those knobs and leaves the pipeline out
  // gets the pipeline's default for the knobs it gave, not a conflict.
  auto resolve = [&](StringRef knobs) {
    std::string src = (R"mlir(
      func.func @f(%q: tensor<1x4x512x128xbf16>) -> tensor<1x4x512x128xbf16> {
        %0 = hkg.attention %q, %q, %q causal {schedule = #hkg.schedule<)mlir" +
                       knobs + R"mlir(>}
            : tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>,
              tensor<1x4x512x128xbf16> -> tensor<1x4x512x128xbf16>
        return %0 : tensor<1x4x512x128xbf16>
      })mlir")
                          .str();
    auto op = parseOp<AttentionOp>(src);
    EXPECT_TRUE(op);
    return resolveSchedule(cast<HkgKernelOpInterface>(op.getOperation()),
                           *lookupTarget("sm_90"));
  };
  EXPECT_EQ(resolve("tile_q = 128").getInt("wgmma_pipeline"), 1);
  for (StringRef knobs : {"stages = 1", "wgmma_overlap = 1", "kv_split = 2",
                          "tile_q = 64, waves = 4", "mma = mma_16x8x16"}) {
    ResolvedSchedule r = resolve(knobs);
    EXPECT_EQ(r.getInt("wgmma_pipeline"), 0) << knobs.str();
  }
  // Given explicitly, it is kept (and verified elsewhere).
  EXPECT_EQ(resolve("stages = 1, wgmma_pipeline = 1").getInt("wgmma_pipeline"),
            1);
  // The tuner's resolution of partial knob maps (a sketch, a database
  // record) follows the same rule.
  auto op = parseOp<AttentionOp>(R"mlir(
    func.func @f(%q: tensor<1x4x512x128xbf16>) -> tensor<1x4x512x128xbf16> {
      %0 = hkg.attention %q, %q, %q causal : tensor<1x4x512x128xbf16>,
          tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>
          -> tensor<1x4x512x128xbf16>
      return %0 : tensor<1x4x512x128xbf16>
    })mlir");
  ASSERT_TRUE(op);
  ScheduleSpace space = cast<HkgKernelOpInterface>(op.getOperation())
                            .getScheduleSpace(*lookupTarget("sm_90"));
  tuner::KnobMap oneStage = {{"stages", int64_t(1)}};
  EXPECT_EQ(std::get<int64_t>(
                tuner::resolveKnobs(space, oneStage).at("wgmma_pipeline")),
            0);
  EXPECT_EQ(
      std::get<int64_t>(tuner::resolveKnobs(space, {}).at("wgmma_pipeline")),
      1);
}
