//===- BroadcastMapsTest.cpp - which result dims an operand follows -------===//

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"

#include "mlir/IR/MLIRContext.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <optional>

using namespace mlir;
using namespace mlir::hkg;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {
struct BroadcastMapsTest : ::testing::Test {
  MLIRContext ctx;
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, &ctx); }
  AffineExpr zero() { return getAffineConstantExpr(0, &ctx); }
  AffineMap map(unsigned dims, ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(dims, 0, exprs, &ctx);
  }
};
} // namespace

TEST_F(BroadcastMapsTest, InfersTrailingAndSameRankMaps) {
  std::string why;
  FailureOr<AffineMap> bias =
      inferBroadcastMap(&ctx, {4096}, {8192, 4096}, why);
  ASSERT_TRUE(succeeded(bias)) << why;
  EXPECT_EQ(*bias, map(2, {d(1)}));
  FailureOr<AffineMap> column = inferBroadcastMap(&ctx, {8, 1}, {8, 64}, why);
  ASSERT_TRUE(succeeded(column)) << why;
  EXPECT_EQ(*column, map(2, {d(0), zero()}));
  FailureOr<AffineMap> scalar = inferBroadcastMap(&ctx, {}, {3, 5}, why);
  ASSERT_TRUE(succeeded(scalar)) << why;
  EXPECT_EQ(*scalar, map(2, {}));
}

TEST_F(BroadcastMapsTest, RefusesWhatItWouldHaveToGuess) {
  std::string why;
  EXPECT_TRUE(failed(inferBroadcastMap(&ctx, {64}, {64, 64}, why)));
  EXPECT_THAT(why, HasSubstr("(d0) or (d1)"));
  why.clear();
  EXPECT_TRUE(failed(inferBroadcastMap(&ctx, {4}, {4, 8}, why)));
  EXPECT_THAT(why, HasSubstr("not a suffix"));
  EXPECT_THAT(why, HasSubstr("fits result dims (d0)"));
  why.clear();
  EXPECT_TRUE(failed(inferBroadcastMap(&ctx, {2, 2, 2}, {2, 2}, why)));
}

TEST_F(BroadcastMapsTest, ChecksExplicitMaps) {
  std::string why;
  EXPECT_TRUE(
      succeeded(checkBroadcastMap(map(2, {d(0)}), {64}, {64, 64}, why)));
  EXPECT_TRUE(
      succeeded(checkBroadcastMap(map(2, {d(1), d(0)}), {3, 2}, {2, 3}, why)));
  EXPECT_TRUE(failed(checkBroadcastMap(map(2, {d(1)}), {4}, {4, 8}, why)));
  EXPECT_TRUE(
      failed(checkBroadcastMap(map(2, {d(0), d(0)}), {4, 4}, {4, 4}, why)));
  EXPECT_TRUE(failed(checkBroadcastMap(map(2, {zero()}), {4}, {4, 8}, why)));
  EXPECT_TRUE(failed(checkBroadcastMap(map(3, {d(0)}), {4}, {4, 8}, why)));
}

TEST_F(BroadcastMapsTest, StridesAndAccessClasses) {
  // Transposed [3, 2] over a [2, 3] result: d0 steps 1, d1 steps 2.
  SmallVector<int64_t> t =
      operandStridesPerResultDim(map(2, {d(1), d(0)}), {3, 2});
  EXPECT_THAT(t, ElementsAre(1, 2));
  EXPECT_EQ(classifyBroadcastAccess(t, {2, 3}), BroadcastAccess::Strided);
  SmallVector<int64_t> id =
      operandStridesPerResultDim(map(2, {d(0), d(1)}), {2, 3});
  EXPECT_THAT(id, ElementsAre(3, 1));
  EXPECT_EQ(classifyBroadcastAccess(id, {2, 3}), BroadcastAccess::Flat);
  SmallVector<int64_t> bias =
      operandStridesPerResultDim(map(3, {d(1), d(2)}), {4, 5});
  EXPECT_THAT(bias, ElementsAre(0, 5, 1));
  EXPECT_EQ(classifyBroadcastAccess(bias, {7, 4, 5}),
            BroadcastAccess::Trailing);
  SmallVector<int64_t> row = operandStridesPerResultDim(map(2, {d(0)}), {4});
  EXPECT_EQ(classifyBroadcastAccess(row, {4, 8}), BroadcastAccess::Strided);
  // A result dim of extent 1 does not make a full-size operand strided.
  SmallVector<int64_t> one =
      operandStridesPerResultDim(map(3, {d(0), d(2)}), {4, 8});
  EXPECT_EQ(classifyBroadcastAccess(one, {4, 1, 8}), BroadcastAccess::Flat);
}

TEST_F(BroadcastMapsTest, EpilogueView) {
  std::string why;
  using View = std::array<int64_t, 3>;
  auto view = [&](AffineMap m, ArrayRef<int64_t> operand,
                  ArrayRef<int64_t> result) -> std::optional<View> {
    FailureOr<View> v = getEpilogueView(m, operand, result, why);
    if (failed(v))
      return std::nullopt;
    return *v;
  };
  // Per column, per column of rank 2, full, per row ([M] and [M, 1]), a
  // scalar.
  EXPECT_EQ(view(map(2, {d(1)}), {64}, {32, 64}), View({1, 1, 64}));
  EXPECT_EQ(view(map(2, {zero(), d(1)}), {1, 64}, {32, 64}), View({1, 1, 64}));
  EXPECT_EQ(view(map(2, {d(0), d(1)}), {32, 64}, {32, 64}), View({1, 32, 64}));
  EXPECT_EQ(view(map(2, {d(0)}), {32}, {32, 64}), View({1, 32, 1}));
  EXPECT_EQ(view(map(2, {d(0), zero()}), {32, 1}, {32, 64}), View({1, 32, 1}));
  EXPECT_EQ(view(map(2, {}), {}, {32, 64}), View({1, 1, 1}));
  // Batched: the innermost batch dims, in order.
  EXPECT_EQ(view(map(3, {d(0), zero(), d(2)}), {4, 1, 64}, {4, 32, 64}),
            View({4, 1, 64}));
  EXPECT_EQ(view(map(4, {d(1), d(2), d(3)}), {3, 32, 64}, {2, 3, 32, 64}),
            View({3, 32, 64}));
  // A transposed read, an outer batch dim without the inner one.
  EXPECT_FALSE(view(map(2, {d(1), d(0)}), {64, 32}, {32, 64}));
  EXPECT_NE(why.find("contiguous along n"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(view(map(4, {d(0), d(3)}), {2, 64}, {2, 3, 32, 64}));
  EXPECT_NE(why.find("innermost"), std::string::npos) << why;
}
