//===- BundleTest.cpp - manifest parsing ----------------------------------===//

#include "hkg/Runtime/Bundle.h"

#include "gtest/gtest.h"

using namespace hkg::rt;

static const char *manifest = R"({
  "hkg_version": "0.1", "target": "sm_90", "format": "ptx",
  "kernels": [ { "name": "hkg_softmax_0", "op": "hkg.softmax",
    "binary": "hkg_softmax_0.ptx", "entry": "hkg_softmax_0_kernel",
    "grid": [64, 1, 1], "block": [256, 1, 1], "lds_bytes": 1024,
    "schedule": {"vector_width": 8},
    "args": [ {"role": "input", "dtype": "bf16", "shape": [64, 8192]},
              {"role": "output", "dtype": "bf16", "shape": [64, 8192]} ],
    "source": "module {}", "compile_ms": 12.5 } ] })";

TEST(BundleTest, ParsesTheContract) {
  auto bundle = parseManifest(manifest, "/b");
  ASSERT_TRUE(static_cast<bool>(bundle)) << llvm::toString(bundle.takeError());
  EXPECT_EQ(bundle->target, "sm_90");
  EXPECT_EQ(bundle->format, "ptx");
  ASSERT_EQ(bundle->kernels.size(), 1u);
  const KernelSpec &k = bundle->kernels[0];
  EXPECT_EQ(k.entry, "hkg_softmax_0_kernel");
  EXPECT_EQ(k.grid, (Dim3{64, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{256, 1, 1}));
  EXPECT_EQ(k.ldsBytes, 1024u);
  ASSERT_EQ(k.args.size(), 2u);
  EXPECT_FALSE(k.args[0].isOutput);
  EXPECT_TRUE(k.args[1].isOutput);
  EXPECT_EQ(k.args[1].dtype, DType::BF16);
  EXPECT_EQ(k.args[1].getNumBytes(), 64u * 8192 * 2);
  EXPECT_EQ(bundle->getBinaryPath(k), "/b/hkg_softmax_0.ptx");
  EXPECT_EQ(bundle->lookup("hkg_softmax_0"), &k);
  EXPECT_EQ(bundle->lookup("nope"), nullptr);
}

TEST(BundleTest, BadFieldIsNamed) {
  std::string bad = manifest;
  bad.replace(bad.find("\"bf16\""), 6, "\"f8\"");
  auto bundle = parseManifest(bad, "/b");
  ASSERT_FALSE(static_cast<bool>(bundle));
  EXPECT_EQ(llvm::toString(bundle.takeError()),
            "manifest: kernels[0].args[0].dtype: expected one of f32, f16, "
            "bf16, i32, i64, got 'f8'");
  auto notJson = parseManifest("{", "/b");
  ASSERT_FALSE(static_cast<bool>(notJson));
  EXPECT_NE(llvm::toString(notJson.takeError()).find("invalid JSON"),
            std::string::npos);
}
