//===- SpecializeTest.cpp - kernels with size parameters made concrete ----===//
//
// KernelSpec::computeGrid and KernelSpec::specialize on kernels read from
// manifests: the grid_x rule (rounding, `times`, several sizes, empty
// tensors, the launch limits and 64-bit overflow), the values' count and
// sign, and the source specialized through the MLIR API and verified.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"

#include "hkg/Runtime/Bundle.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace hkg::rt;
using namespace hkg::rt::testing;

namespace {
/// A manifest of one f32 hkg.softmax kernel `k` with size parameters; each
/// field is the manifest's JSON (the source's tensor type for `type`).
struct SizedSoftmax {
  std::string grid = "[null, 1, 1]";
  std::string gridX = R"({"mul": 1, "div": 4, "times": 1})";
  std::string sizes = R"([{"arg": 1, "dim": 0}])";
  std::string in = R"([{"size": 0}, 16])";
  std::string out = R"([{"size": 0}, 16])";
  std::string type = "tensor<?x16xf32>";
  int axis = 1;

  std::string getManifest() const {
    std::string source = "func.func @ref(%x: " + type + ") -> " + type +
                         " {\\n  %y = hkg.softmax %x axis(" +
                         std::to_string(axis) + ") : " + type + " -> " + type +
                         "\\n  return %y : " + type + "\\n}\\n";
    return R"({"hkg_version": "0.1", "target": "sm_90", "format": "ptx",
      "kernels": [{"name": "k", "op": "hkg.softmax", "binary": "k.ptx",
        "entry": "k", "grid": )" +
           grid + R"(, "grid_x": )" + gridX +
           R"(, "block": [256, 1, 1], "sizes": )" + sizes +
           R"(, "args": [{"role": "input", "dtype": "f32", "shape": )" + in +
           R"(}, {"role": "output", "dtype": "f32", "shape": )" + out +
           R"(}], "source": ")" + source + R"("}]})";
  }

  /// The kernel (fails the test if the manifest does not parse).
  KernelSpec parse() const {
    auto bundle = parseManifest(getManifest(), "/b");
    if (!bundle) {
      ADD_FAILURE() << llvm::toString(bundle.takeError());
      return KernelSpec();
    }
    return bundle->kernels.front();
  }
};
} // namespace

/// Grid x of `k` for `values`, or -1 (with a test failure) on an error.
static int64_t gridX(const KernelSpec &k, llvm::ArrayRef<int64_t> values) {
  llvm::Expected<Dim3> grid = k.computeGrid(values);
  if (!grid) {
    ADD_FAILURE() << llvm::toString(grid.takeError());
    return -1;
  }
  return (*grid)[0];
}

/// The error of computing `k`'s grid for `values`.
static std::string gridError(const KernelSpec &k,
                             llvm::ArrayRef<int64_t> values) {
  llvm::Expected<Dim3> grid = k.computeGrid(values);
  if (grid) {
    ADD_FAILURE() << "grid x " << (*grid)[0];
    return "";
  }
  return llvm::toString(grid.takeError());
}

/// The error of specializing `k` to `values`.
static std::string specializeError(const KernelSpec &k,
                                   llvm::ArrayRef<int64_t> values) {
  llvm::Expected<KernelSpec> concrete = k.specialize(values);
  if (concrete) {
    ADD_FAILURE() << "specialized";
    return "";
  }
  return llvm::toString(concrete.takeError());
}

TEST(SpecializeTest, GridXFollowsTheRule) {
  // ceil(N / 4): rounds up.
  SizedSoftmax rows;
  rows.grid = "[null, 3, 2]";
  KernelSpec k = rows.parse();
  EXPECT_EQ(gridX(k, {4096}), 1024);
  EXPECT_EQ(gridX(k, {4}), 1);
  EXPECT_EQ(gridX(k, {5}), 2);
  EXPECT_EQ(gridX(k, {1}), 1);
  llvm::Expected<Dim3> grid = k.computeGrid({5});
  ASSERT_TRUE(static_cast<bool>(grid)) << llvm::toString(grid.takeError());
  EXPECT_EQ(*grid, (Dim3{2, 3, 2}));
  // N == 0: nothing to launch.
  EXPECT_EQ(gridX(k, {0}), 0);

  // ceil(N * 3 / 2) * 2.
  SizedSoftmax scaled;
  scaled.gridX = R"({"mul": 3, "div": 2, "times": 2})";
  k = scaled.parse();
  EXPECT_EQ(gridX(k, {5}), 16);
  EXPECT_EQ(gridX(k, {1}), 4);
  EXPECT_EQ(gridX(k, {2}), 6);

  // N is the product of every size.
  SizedSoftmax two;
  two.sizes = R"([{"arg": 1, "dim": 0}, {"arg": 1, "dim": 1}])";
  two.in = two.out = R"([{"size": 0}, {"size": 1}])";
  two.type = "tensor<?x?xf32>";
  k = two.parse();
  EXPECT_EQ(gridX(k, {3, 5}), 4);
  EXPECT_EQ(gridX(k, {3, 0}), 0);
  EXPECT_EQ(gridX(k, {0, 3}), 0);
}

TEST(SpecializeTest, GridXWithinTheLaunchLimits) {
  KernelSpec k = SizedSoftmax().parse();
  EXPECT_EQ(gridX(k, {4 * kMaxGridX}), kMaxGridX);
  EXPECT_EQ(gridError(k, {4 * kMaxGridX + 1}),
            "kernel 'k': grid x 2147483648 for sizes [8589934589] is above "
            "2^31 - 1");
  SizedSoftmax scaled;
  scaled.gridX = R"({"mul": 3, "div": 1, "times": 1})";
  EXPECT_EQ(gridError(scaled.parse(), {INT64_MAX}),
            "kernel 'k': grid x for sizes [9223372036854775807] overflows 64 "
            "bits");
  SizedSoftmax times;
  times.gridX = R"({"mul": 1, "div": 4, "times": 4611686018427387904})";
  EXPECT_EQ(gridError(times.parse(), {5}),
            "kernel 'k': grid x for sizes [5] overflows 64 bits");
  SizedSoftmax two;
  two.sizes = R"([{"arg": 1, "dim": 0}, {"arg": 1, "dim": 1}])";
  two.in = two.out = R"([{"size": 0}, {"size": 1}])";
  two.type = "tensor<?x?xf32>";
  EXPECT_EQ(gridError(two.parse(), {int64_t(1) << 32, int64_t(1) << 32}),
            "kernel 'k': grid x for sizes [4294967296, 4294967296] overflows "
            "64 bits");
}

TEST(SpecializeTest, OneNonNegativeValuePerSizeParameter) {
  KernelSpec k = SizedSoftmax().parse();
  EXPECT_EQ(gridError(k, {}), "kernel 'k': expected 1 size value(s) (one per "
                              "size parameter), got 0");
  EXPECT_EQ(specializeError(k, {}), "kernel 'k': expected 1 size value(s) "
                                    "(one per size parameter), got 0");
  EXPECT_EQ(specializeError(k, {4, 4}), "kernel 'k': expected 1 size "
                                        "value(s) (one per size parameter), "
                                        "got 2");
  EXPECT_EQ(specializeError(k, {-1}),
            "kernel 'k': size 0 is -1, expected a non-negative value");

  // A static kernel is its own specialization, and takes no value.
  SizedSoftmax plain;
  plain.grid = "[8, 1, 1]";
  plain.gridX = "null";
  plain.in = plain.out = "[32, 16]";
  plain.type = "tensor<32x16xf32>";
  std::string text = plain.getManifest();
  for (llvm::StringRef field :
       {R"(, "grid_x": null)", R"(, "sizes": [{"arg": 1, "dim": 0}])"})
    text.erase(text.find(field.str()), field.size());
  auto bundle = parseManifest(text, "/b");
  ASSERT_TRUE(static_cast<bool>(bundle)) << llvm::toString(bundle.takeError());
  const KernelSpec &fixed = bundle->kernels.front();
  ASSERT_FALSE(fixed.hasSizeParameters());
  auto same = fixed.specialize({});
  ASSERT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
  EXPECT_EQ(same->grid, (Dim3{8, 1, 1}));
  EXPECT_EQ(same->source, fixed.source);
  EXPECT_TRUE(same->sizeValues.empty());
  EXPECT_EQ(specializeError(fixed, {4}), "kernel 'k': expected 0 size "
                                         "value(s) (one per size parameter), "
                                         "got 1");
}

TEST(SpecializeTest, ArgBytesFit64Bits) {
  // A grid that fits (one workgroup), an input that cannot exist.
  SizedSoftmax huge;
  huge.gridX = R"({"mul": 1, "div": 4611686018427387904, "times": 1})";
  EXPECT_EQ(specializeError(huge.parse(), {int64_t(1) << 62}),
            "kernel 'k': arg #0 of shape [4611686018427387904, 16] takes more "
            "than 2^63 bytes");
}

TEST(SpecializeTest, ConcreteKernelAndSource) {
  KernelSpec k = SizedSoftmax().parse();
  auto concrete = k.specialize({5});
  ASSERT_TRUE(static_cast<bool>(concrete))
      << llvm::toString(concrete.takeError());
  EXPECT_FALSE(concrete->hasSizeParameters());
  EXPECT_FALSE(concrete->isEmptyLaunch());
  EXPECT_EQ(concrete->grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(concrete->sizeValues, (llvm::SmallVector<int64_t>{5}));
  for (const ArgSpec &a : concrete->args) {
    EXPECT_EQ(a.shape, (llvm::SmallVector<int64_t>{5, 16}));
    EXPECT_TRUE(a.sizedDims.empty());
  }
  // The source's func and op carry the concrete types.
  ParsedOp p = parseOp(concrete->source);
  ASSERT_TRUE(p.op);
  auto type = [&](llvm::StringRef text) {
    return mlir::parseType(text, p.context.get());
  };
  EXPECT_EQ(p.op->getOperand(0).getType(), type("tensor<5x16xf32>"));
  EXPECT_EQ(p.op->getResult(0).getType(), type("tensor<5x16xf32>"));
  auto func = p.op->getParentOfType<mlir::func::FuncOp>();
  ASSERT_TRUE(func);
  EXPECT_EQ(func.getFunctionType(),
            type("(tensor<5x16xf32>) -> tensor<5x16xf32>"));
  // The original is untouched, and the concrete kernel is its own
  // specialization.
  EXPECT_TRUE(k.hasSizeParameters());
  EXPECT_NE(k.source.find("tensor<?x16xf32>"), std::string::npos);
  auto again = concrete->specialize({});
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->source, concrete->source);

  // Empty tensors: a concrete kernel with nothing to launch, whose source
  // keeps its '?' (the ops refuse zero-size dims).
  auto empty = k.specialize({0});
  ASSERT_TRUE(static_cast<bool>(empty)) << llvm::toString(empty.takeError());
  EXPECT_TRUE(empty->isEmptyLaunch());
  EXPECT_FALSE(empty->hasSizeParameters());
  EXPECT_EQ(empty->sizeValues, (llvm::SmallVector<int64_t>{0}));
  EXPECT_EQ(empty->args[1].shape, (llvm::SmallVector<int64_t>{0, 16}));
  EXPECT_EQ(empty->source, k.source);
}

TEST(SpecializeTest, SourceMustFitTheManifest) {
  // The source's static dims are the manifest's.
  SizedSoftmax narrow;
  narrow.type = "tensor<?x8xf32>";
  EXPECT_EQ(specializeError(narrow.parse(), {5}),
            "kernel 'k': the source's type 'tensor<?x8xf32>' does not fit arg "
            "#0's shape [5, 16]");
  // The op's verifier sees the concrete shapes: a softmax whose output is
  // its input transposed does not verify once the two sizes differ.
  SizedSoftmax transposed;
  transposed.sizes = R"([{"arg": 1, "dim": 1}, {"arg": 1, "dim": 0}])";
  transposed.in = R"([{"size": 0}, {"size": 1}, 4])";
  transposed.out = R"([{"size": 1}, {"size": 0}, 4])";
  transposed.type = "tensor<?x?x4xf32>";
  transposed.axis = 2;
  KernelSpec k = transposed.parse();
  EXPECT_EQ(specializeError(k, {2, 3}),
            "kernel 'k': the source specialized to the sizes [2, 3] does not "
            "verify: 'hkg.softmax' op expected the result shape to equal the "
            "input shape [2, 3, 4], got [3, 2, 4]");
  auto square = k.specialize({3, 3});
  EXPECT_TRUE(static_cast<bool>(square)) << llvm::toString(square.takeError());
}
