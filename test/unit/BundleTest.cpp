//===- BundleTest.cpp - manifest parsing ----------------------------------===//

#include "hkg/Runtime/Bundle.h"

#include "gtest/gtest.h"

#include <tuple>

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

TEST(BundleTest, EveryKernelDTypeParses) {
  // Kernels take f64, i64, i32, i8 and i1 buffers too (an i1 is one byte).
  for (auto [name, type, bytes] :
       {std::tuple{"f64", DType::F64, 8u}, std::tuple{"i64", DType::I64, 8u},
        std::tuple{"i32", DType::I32, 4u}, std::tuple{"i8", DType::I8, 1u},
        std::tuple{"i1", DType::I1, 1u}}) {
    std::string m = manifest;
    m.replace(m.find("\"bf16\""), 6, std::string("\"") + name + "\"");
    auto bundle = parseManifest(m, "/b");
    ASSERT_TRUE(static_cast<bool>(bundle))
        << name << ": " << llvm::toString(bundle.takeError());
    EXPECT_EQ(bundle->kernels[0].args[0].dtype, type) << name;
    EXPECT_EQ(bundle->kernels[0].args[0].getNumBytes(), 64u * 8192 * bytes)
        << name;
  }
}

TEST(BundleTest, BadFieldIsNamed) {
  std::string bad = manifest;
  bad.replace(bad.find("\"bf16\""), 6, "\"f8\"");
  auto bundle = parseManifest(bad, "/b");
  ASSERT_FALSE(static_cast<bool>(bundle));
  EXPECT_EQ(llvm::toString(bundle.takeError()),
            "manifest: kernels[0].args[0].dtype: expected one of f32, f16, "
            "bf16, f64, i64, i32, i8, i1, got 'f8'");
  auto notJson = parseManifest("{", "/b");
  ASSERT_FALSE(static_cast<bool>(notJson));
  EXPECT_NE(llvm::toString(notJson.takeError()).find("invalid JSON"),
            std::string::npos);
}

/// The error of `manifest` with `from` replaced by `to`.
static std::string errorWith(llvm::StringRef from, llvm::StringRef to) {
  std::string bad = manifest;
  size_t at = bad.find(from.str());
  EXPECT_NE(at, std::string::npos) << from.str();
  bad.replace(at, from.size(), to.str());
  auto bundle = parseManifest(bad, "/b");
  if (bundle) {
    ADD_FAILURE() << "accepted: " << bad;
    return "";
  }
  return llvm::toString(bundle.takeError());
}

TEST(BundleTest, BinaryStaysInsideTheBundle) {
  EXPECT_EQ(errorWith("\"hkg_softmax_0.ptx\"", "\"../../../../etc/passwd\""),
            "manifest: kernels[0].binary: expected a file inside the bundle "
            "directory, got '../../../../etc/passwd'");
  EXPECT_EQ(errorWith("\"hkg_softmax_0.ptx\"", "\"/etc/passwd\""),
            "manifest: kernels[0].binary: expected a file inside the bundle "
            "directory, got '/etc/passwd'");
  EXPECT_EQ(errorWith("\"hkg_softmax_0.ptx\"", "\"sub/../../x.ptx\""),
            "manifest: kernels[0].binary: expected a file inside the bundle "
            "directory, got 'sub/../../x.ptx'");
}

TEST(BundleTest, LaunchWithinTheTargetsLimits) {
  EXPECT_EQ(errorWith("\"grid\": [64, 1, 1]", "\"grid\": [1099511627776, 1, 1]"),
            "manifest: kernels[0].grid: entry 0 is above 2^31 - 1");
  EXPECT_EQ(errorWith("\"grid\": [64, 1, 1]", "\"grid\": [64, 65536, 1]"),
            "manifest: kernels[0].grid: expected at most [2^31 - 1, 65535, "
            "65535] workgroups");
  EXPECT_EQ(errorWith("\"block\": [256, 1, 1]", "\"block\": [1048576, 1, 1]"),
            "manifest: kernels[0].block: 1048576 threads per workgroup, more "
            "than sm_90's 1024");
  // 2^16 * 2^16 * 2: wraps to 0 in 32-bit arithmetic.
  EXPECT_EQ(errorWith("\"block\": [256, 1, 1]", "\"block\": [65536, 65536, 2]"),
            "manifest: kernels[0].block: 8589934592 threads per workgroup, "
            "more than sm_90's 1024");
  EXPECT_EQ(errorWith("\"lds_bytes\": 1024", "\"lds_bytes\": 1099511627776"),
            "manifest: kernels[0].lds_bytes: expected a byte count in [0, "
            "2^30]");
  EXPECT_EQ(errorWith("\"lds_bytes\": 1024", "\"lds_bytes\": -1"),
            "manifest: kernels[0].lds_bytes: expected a byte count in [0, "
            "2^30]");
}

TEST(BundleTest, TargetFormatAndVersionAreChecked) {
  EXPECT_EQ(errorWith("\"target\": \"sm_90\"", "\"target\": \"gfx942\""),
            "manifest: .format: \"ptx\" is not a code object format of gfx942");
  EXPECT_EQ(errorWith("\"target\": \"sm_90\"", "\"target\": \"gfx9000\""),
            "manifest: .target: unknown chip \"gfx9000\"");
  EXPECT_EQ(errorWith("\"hkg_version\": \"0.1\"", "\"hkg_version\": \"9.9\""),
            "manifest: .hkg_version: expected \"0.1\" (this runtime's bundle "
            "format), got \"9.9\"");
}
