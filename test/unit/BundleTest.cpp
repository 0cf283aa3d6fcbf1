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

/// The error of `text` with `from` replaced by `to`.
static std::string errorOf(llvm::StringRef text, llvm::StringRef from,
                           llvm::StringRef to) {
  std::string bad = text.str();
  size_t at = bad.find(from.str());
  EXPECT_NE(at, std::string::npos) << from.str();
  if (at == std::string::npos)
    return "";
  bad.replace(at, from.size(), to.str());
  auto bundle = parseManifest(bad, "/b");
  if (bundle) {
    ADD_FAILURE() << "accepted: " << bad;
    return "";
  }
  return llvm::toString(bundle.takeError());
}

/// The error of `manifest` with `from` replaced by `to`.
static std::string errorWith(llvm::StringRef from, llvm::StringRef to) {
  return errorOf(manifest, from, to);
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

//===----------------------------------------------------------------------===//
// Kernels with dynamic sizes
//===----------------------------------------------------------------------===//

/// A softmax over rows of 16 with a dynamic row count: one size parameter,
/// read from dim 0 of the output.
static const char *sizedManifest = R"({
  "hkg_version": "0.1", "target": "sm_90", "format": "ptx",
  "kernels": [ { "name": "hkg_softmax_0", "op": "hkg.softmax",
    "binary": "hkg_softmax_0.ptx", "entry": "hkg_softmax_0",
    "grid": [null, 1, 1], "grid_x": {"mul": 1, "div": 4, "times": 1},
    "block": [256, 1, 1],
    "sizes": [{"arg": 1, "dim": 0}],
    "args": [ {"role": "input", "dtype": "f32", "shape": [{"size": 0}, 16]},
              {"role": "output", "dtype": "f32", "shape": [{"size": 0}, 16]} ],
    "source": "func.func @ref(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {\n  %y = hkg.softmax %x axis(1) : tensor<?x16xf32> -> tensor<?x16xf32>\n  return %y : tensor<?x16xf32>\n}\n" } ] })";

TEST(BundleTest, ParsesSizeParameters) {
  auto bundle = parseManifest(sizedManifest, "/b");
  ASSERT_TRUE(static_cast<bool>(bundle)) << llvm::toString(bundle.takeError());
  const KernelSpec &k = bundle->kernels[0];
  EXPECT_TRUE(k.hasSizeParameters());
  ASSERT_EQ(k.sizes.size(), 1u);
  EXPECT_EQ(k.sizes[0].arg, 1u);
  EXPECT_EQ(k.sizes[0].dim, 0u);
  EXPECT_EQ(k.gridX.mul, 1);
  EXPECT_EQ(k.gridX.div, 4);
  EXPECT_EQ(k.gridX.times, 1);
  EXPECT_EQ(k.grid, (Dim3{0, 1, 1}));
  EXPECT_TRUE(k.sizeValues.empty());
  for (const ArgSpec &a : k.args) {
    EXPECT_EQ(a.shape, (llvm::SmallVector<int64_t>{kDynamicDim, 16}));
    ASSERT_EQ(a.sizedDims.size(), 1u);
    EXPECT_EQ(a.sizedDims[0].dim, 0u);
    EXPECT_EQ(a.sizedDims[0].size, 0u);
  }
  // A static kernel has none of it.
  auto plain = parseManifest(manifest, "/b");
  ASSERT_TRUE(static_cast<bool>(plain)) << llvm::toString(plain.takeError());
  EXPECT_FALSE(plain->kernels[0].hasSizeParameters());
  EXPECT_TRUE(plain->kernels[0].args[0].sizedDims.empty());
}

static std::string sizedErrorWith(llvm::StringRef from, llvm::StringRef to) {
  return errorOf(sizedManifest, from, to);
}

TEST(BundleTest, ShapeEntriesNameASizeParameter) {
  EXPECT_EQ(sizedErrorWith(R"("shape": [{"size": 0}, 16]})",
                           R"("shape": [{"size": 1}, 16]})"),
            "manifest: kernels[0].args[0].shape[0]: size 1 is not one of the "
            "kernel's 1 size parameter(s)");
  for (llvm::StringRef entry :
       {R"({"size": -1})", R"({"dim": 0})", R"({"size": 0, "dim": 0})",
        R"("0")", R"(-2)", R"(null)"})
    EXPECT_EQ(sizedErrorWith(R"("shape": [{"size": 0}, 16]})",
                             ("\"shape\": [" + entry + ", 16]}").str()),
              "manifest: kernels[0].args[0].shape[0]: expected a non-negative "
              "integer or {\"size\": i}")
        << entry.str();
  // A static kernel with a sized dim has no size parameter to give it.
  EXPECT_EQ(
      errorWith(R"("shape": [64, 8192]})", R"("shape": [{"size": 0}, 8192]})"),
      "manifest: kernels[0].args[0].shape[0]: size 0 is not one of the "
      "kernel's 0 size parameter(s)");
}

TEST(BundleTest, SizesPointAtTheirOwnOutputDim) {
  const char *entry = R"("sizes": [{"arg": 1, "dim": 0}])";
  std::pair<const char *, const char *> cases[] = {
      {R"("sizes": [{"arg": 1, "dim": 1}])",
       "manifest: kernels[0].sizes[0]: dim 1 of arg 1 is static (16), not "
       "{\"size\": 0}"},
      {R"("sizes": [{"arg": 0, "dim": 0}])",
       "manifest: kernels[0].sizes[0].arg: expected an output, arg 0 is an "
       "input"},
      {R"("sizes": [{"arg": 2, "dim": 0}])",
       "manifest: kernels[0].sizes[0].arg: expected an arg index below 2, got "
       "2"},
      {R"("sizes": [{"arg": -1, "dim": 0}])",
       "manifest: kernels[0].sizes[0].arg: expected an arg index below 2, got "
       "-1"},
      {R"("sizes": [{"arg": 1, "dim": 2}])",
       "manifest: kernels[0].sizes[0].dim: expected a dim index below 2 (the "
       "rank of arg 1), got 2"},
      {R"("sizes": [{"arg": 1}])",
       "manifest: kernels[0].sizes[0]: expected an object {\"arg\": a, "
       "\"dim\": d} of integers"},
      {R"("sizes": [[1, 0]])",
       "manifest: kernels[0].sizes[0]: expected an object {\"arg\": a, "
       "\"dim\": d} of integers"},
      {R"("sizes": [])", "manifest: kernels[0].sizes: expected a non-empty "
                         "array of {\"arg\": a, \"dim\": d} objects"},
      // Size 1 pointing at the dim size 0 gives.
      {R"("sizes": [{"arg": 1, "dim": 0}, {"arg": 1, "dim": 0}])",
       "manifest: kernels[0].sizes[1]: dim 0 of arg 1 is {\"size\": 0}, not "
       "{\"size\": 1}"}};
  for (auto [to, message] : cases)
    EXPECT_EQ(sizedErrorWith(entry, to), message) << to;
}

TEST(BundleTest, GridXComesFromGridXExactlyWithSizes) {
  const char *rule = R"("grid_x": {"mul": 1, "div": 4, "times": 1},)";
  EXPECT_EQ(sizedErrorWith(rule, ""),
            "manifest: kernels[0].grid_x: expected an object {\"mul\", "
            "\"div\", \"times\"} (grid x is null)");
  EXPECT_EQ(sizedErrorWith(rule, R"("grid_x": 4,)"),
            "manifest: kernels[0].grid_x: expected an object {\"mul\", "
            "\"div\", \"times\"} (grid x is null)");
  EXPECT_EQ(sizedErrorWith(R"("div": 4)", R"("div": 0)"),
            "manifest: kernels[0].grid_x.div: expected a positive integer");
  EXPECT_EQ(sizedErrorWith(R"("mul": 1)", R"("mul": -2)"),
            "manifest: kernels[0].grid_x.mul: expected a positive integer");
  EXPECT_EQ(sizedErrorWith(R"("times": 1)", R"("times": 0)"),
            "manifest: kernels[0].grid_x.times: expected a positive integer");
  EXPECT_EQ(sizedErrorWith(R"("times": 1)", R"("times": 1.5)"),
            "manifest: kernels[0].grid_x.times: expected a positive integer");
  EXPECT_EQ(sizedErrorWith(R"(, "times": 1)", ""),
            "manifest: kernels[0].grid_x.times: expected a positive integer");
  EXPECT_EQ(sizedErrorWith(R"("grid": [null, 1, 1])", R"("grid": [64, 1, 1])"),
            "manifest: kernels[0].grid: expected null in entry 0: the kernel "
            "has size parameters, its grid_x gives x");
  EXPECT_EQ(
      sizedErrorWith(R"("grid": [null, 1, 1])", R"("grid": [null, null, 1])"),
      "manifest: kernels[0].grid: expected positive integers, entry 1 "
      "is not");
  // A static kernel has an integer grid x and no grid_x.
  EXPECT_EQ(errorWith(R"("grid": [64, 1, 1])", R"("grid": [null, 1, 1])"),
            "manifest: kernels[0].grid: entry 0 is null but the kernel has no "
            "size parameters");
  EXPECT_EQ(errorWith(R"("grid": [64, 1, 1])",
                      R"("grid": [64, 1, 1], "grid_x": {"mul": 1, "div": 1, )"
                      R"("times": 1})"),
            "manifest: kernels[0].grid_x: unexpected: grid x is not null");
  // y and z stay within the launch limits.
  EXPECT_EQ(
      sizedErrorWith(R"("grid": [null, 1, 1])", R"("grid": [null, 65536, 1])"),
      "manifest: kernels[0].grid: expected at most [2^31 - 1, 65535, "
      "65535] workgroups");
}
