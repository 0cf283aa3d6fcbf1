//===- TopKModelTest.cpp - hkg.topk's reference and check -----------------===//
//
// The reference sorts each slice largest first (NaN on top, ties by
// position); the check takes any order of equal values but no wrong value,
// repeated position, position holding another value or unwritten element.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"

#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/RandomInputs.h"

#include <cmath>

using namespace hkg::rt;
using namespace hkg::rt::testing;

static const char *lastAxis = R"(
func.func @f(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
  %v, %i = hkg.topk %x k(3) axis(1) : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi64>
})";

static const char *firstAxis = R"(
func.func @f(%x: tensor<4x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %v, %i = hkg.topk %x k(2) axis(0) : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xi32>
  return %v, %i : tensor<2x2xf32>, tensor<2x2xi32>
})";

TEST(TopKModelTest, ReferenceSortsLargestFirstNaNOnTopTiesByPosition) {
  ParsedOp p = parseOp(lastAxis);
  ASSERT_NE(p.op, nullptr);
  double nan = std::nan("");
  HostTensor x = makeTensor(DType::F32, {2, 5},
                            {1, 7, 3, 7, -2, /**/ -1, nan, -4, 0.5, -1});
  auto ref = evaluateReference(p.op, {x});
  ASSERT_TRUE(static_cast<bool>(ref)) << llvm::toString(ref.takeError());
  ASSERT_EQ(ref->outputs.size(), 2u);
  const HostTensor &v = ref->outputs[0].tensor, &i = ref->outputs[1].tensor;
  EXPECT_EQ(v.get(0), 7);
  EXPECT_EQ(v.get(1), 7);
  EXPECT_EQ(v.get(2), 3);
  EXPECT_EQ(i.get(0), 1);
  EXPECT_EQ(i.get(1), 3);
  EXPECT_EQ(i.get(2), 2);
  EXPECT_TRUE(std::isnan(v.get(3)));
  EXPECT_EQ(i.get(3), 1);
  EXPECT_EQ(v.get(4), 0.5);
  EXPECT_EQ(v.get(5), -1);
  EXPECT_EQ(i.get(5), 0);
}

TEST(TopKModelTest, ReferenceAlongAStridedAxis) {
  ParsedOp p = parseOp(firstAxis);
  ASSERT_NE(p.op, nullptr);
  // Columns (axis 0): {4, 1, 9, 2} and {-3, 8, 0, 8}.
  HostTensor x =
      makeTensor(DType::F32, {4, 2}, {4, -3, 1, 8, 9, 0, 2, 8});
  auto ref = evaluateReference(p.op, {x});
  ASSERT_TRUE(static_cast<bool>(ref)) << llvm::toString(ref.takeError());
  const HostTensor &v = ref->outputs[0].tensor, &i = ref->outputs[1].tensor;
  // [rank, column]
  EXPECT_EQ(v.get(0), 9);
  EXPECT_EQ(i.get(0), 2);
  EXPECT_EQ(v.get(1), 8);
  EXPECT_EQ(i.get(1), 1);
  EXPECT_EQ(v.get(2), 4);
  EXPECT_EQ(i.get(2), 0);
  EXPECT_EQ(v.get(3), 8);
  EXPECT_EQ(i.get(3), 3);
}

namespace {
struct Outputs {
  HostTensor values{DType::F32, {2, 3}}, positions{DType::I64, {2, 3}};
  void set(int64_t e, double v, double p) {
    values.set(e, v);
    positions.set(e, p);
  }
};
} // namespace

static CheckResult check(const ParsedOp &p, const HostTensor &x,
                         const Outputs &o) {
  auto ref = evaluateReference(p.op, {x});
  EXPECT_TRUE(static_cast<bool>(ref));
  auto r = checkKernelOutputs(p.op, {x}, {o.values, o.positions}, &*ref);
  EXPECT_TRUE(static_cast<bool>(r));
  return *r;
}

TEST(TopKModelTest, CheckTakesTiesInAnyOrderAndNothingWrong) {
  ParsedOp p = parseOp(lastAxis);
  ASSERT_NE(p.op, nullptr);
  HostTensor x = makeTensor(DType::F32, {2, 5},
                            {1, 7, 3, 7, -2, /**/ 5, 5, 5, 0, 5});
  Outputs good;
  // Row 0: the two 7s in the other order; row 1: three of the four 5s.
  for (auto [e, v, pos] : {std::tuple{0, 7.0, 3.0}, {1, 7.0, 1.0},
                           {2, 3.0, 2.0}, {3, 5.0, 4.0}, {4, 5.0, 0.0},
                           {5, 5.0, 2.0}})
    good.set(e, v, pos);
  CheckResult ok = check(p, x, good);
  EXPECT_TRUE(ok.passed) << ok.message;
  EXPECT_EQ(ok.checked, 6);

  Outputs wrongValue = good;
  wrongValue.set(2, 1.0, 0.0);
  CheckResult r = check(p, x, wrongValue);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.message, "slice 0, rank 2: value 1, expected 3");

  Outputs repeated = good;
  repeated.set(4, 5.0, 4.0);
  r = check(p, x, repeated);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.message, "slice 1, rank 1: position 4 repeated");

  Outputs elsewhere = good;
  elsewhere.set(5, 5.0, 3.0);
  r = check(p, x, elsewhere);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.message, "slice 1, rank 2: position 3 holds 0, not the value 5");

  Outputs outside = good;
  outside.set(0, 7.0, 5.0);
  r = check(p, x, outside);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.message, "slice 0, rank 0: position 5 outside [0, 5)");

  Outputs unwritten = good;
  poison(unwritten.positions);
  r = check(p, x, unwritten);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.unwritten, 6);
  EXPECT_EQ(r.message, "slice 0, rank 0: never written");
}

TEST(TopKModelTest, RandomInputsFillTheInput) {
  ParsedOp p = parseOp(lastAxis);
  ASSERT_NE(p.op, nullptr);
  auto inputs = makeRandomInputs(p.op, /*seed=*/1);
  ASSERT_TRUE(static_cast<bool>(inputs)) << llvm::toString(inputs.takeError());
  ASSERT_EQ(inputs->size(), 1u);
  EXPECT_EQ((*inputs)[0].getShape(), llvm::ArrayRef<int64_t>({2, 5}));
}
