//===- CheckTest.cpp - tolerances, poison and random inputs --------------===//

#include "RuntimeTestUtils.h"

#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/Models/Sampling.h"
#include "hkg/Runtime/RandomInputs.h"

#include <cmath>
#include <string>

using namespace hkg::rt;
using namespace hkg::rt::testing;

/// An expected output holding `values` (all computed).
static ExpectedOutput makeExpected(llvm::ArrayRef<int64_t> shape,
                                   std::initializer_list<double> values) {
  ExpectedOutput r;
  r.tensor = makeTensor(DType::F64, shape, values);
  return r;
}

TEST(CheckTest, ExactOutputPasses) {
  HostTensor out = makeTensor(DType::F32, {2, 2}, {1, 2, 3, 4});
  CheckResult r = compareTensors(out, makeExpected({2, 2}, {1, 2, 3, 4}),
                                 getDefaultTolerance(DType::F32));
  EXPECT_TRUE(r.passed) << r.message;
  EXPECT_EQ(r.checked, 4);
  EXPECT_EQ(r.normRelError, 0);
}

TEST(CheckTest, NaNNeverPasses) {
  HostTensor out = makeTensor(DType::F32, {2, 2}, {1, NAN, 3, 4});
  CheckResult r = compareTensors(out, makeExpected({2, 2}, {1, 2, 3, 4}),
                                 getDefaultTolerance(DType::F32));
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.nans, 1);
  EXPECT_NE(r.message.find("1 NaN(s) in the output (first at [0, 1])"),
            std::string::npos)
      << r.message;
  // Even where the reference itself is NaN.
  HostTensor out2 = makeTensor(DType::F32, {1}, {NAN});
  EXPECT_FALSE(compareTensors(out2, makeExpected({1}, {NAN}),
                              getDefaultTolerance(DType::F32))
                   .passed);
}

TEST(CheckTest, UnwrittenElementFails) {
  for (DType type : {DType::F32, DType::F16, DType::BF16, DType::I32}) {
    HostTensor out(type, {3, 2});
    poison(out);
    for (int64_t i = 0; i < 6; ++i)
      if (i != 4)
        out.set(i, i);
    CheckResult r =
        compareTensors(out, makeExpected({3, 2}, {0, 1, 2, 3, 4, 5}),
                       getDefaultTolerance(type));
    EXPECT_FALSE(r.passed) << getDTypeName(type).str();
    EXPECT_EQ(r.unwritten, 1) << getDTypeName(type).str();
    EXPECT_NE(r.message.find("1 element(s) never written (first at [2, 0])"),
              std::string::npos)
        << r.message;
  }
}

TEST(CheckTest, PoisonIsNaNForFloats) {
  for (DType type : {DType::F32, DType::F16, DType::BF16}) {
    HostTensor t(type, {1});
    poison(t);
    EXPECT_TRUE(std::isnan(t.get(0))) << getDTypeName(type).str();
  }
}

TEST(CheckTest, ToleranceDependsOnDType) {
  // A 0.5% error everywhere: fine for bf16, not for f16 or f32.
  std::initializer_list<double> ref = {1, -2, 3, -4};
  for (auto [type, passes] :
       {std::pair{DType::BF16, true}, std::pair{DType::F16, false},
        std::pair{DType::F32, false}}) {
    HostTensor out(type, {4});
    int64_t i = 0;
    for (double v : ref)
      out.set(i++, v * 1.005);
    CheckResult r =
        compareTensors(out, makeExpected({4}, ref), getDefaultTolerance(type));
    EXPECT_EQ(r.passed, passes)
        << getDTypeName(type).str() << ": " << r.message;
  }
  // Within f32 tolerance: a relative error of 1e-6.
  HostTensor out = makeTensor(DType::F32, {4}, {1.000001, -2.000002, 3, -4});
  EXPECT_TRUE(compareTensors(out, makeExpected({4}, ref),
                             getDefaultTolerance(DType::F32))
                  .passed);
}

TEST(CheckTest, OneWrongElementAmongManyFails) {
  // The norm-wise error of one bad element in 4096 is small; the
  // per-element bound still catches it.
  HostTensor out(DType::BF16, {4096});
  ExpectedOutput ref;
  ref.tensor = HostTensor(DType::F64, {4096});
  for (int64_t i = 0; i < 4096; ++i) {
    double v = std::sin(i * 0.1) + 1.5;
    ref.tensor.set(i, v);
    out.set(i, i == 1234 ? v * 1.2 : v);
  }
  CheckResult r = compareTensors(out, ref, getDefaultTolerance(DType::BF16));
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.mismatched, 1);
  EXPECT_LT(r.normRelError, 1e-2);
  EXPECT_NE(r.message.find("first at [1234]"), std::string::npos) << r.message;
}

TEST(CheckTest, UncomputedReferenceElementsAreSkipped) {
  HostTensor out = makeTensor(DType::F32, {2}, {1, 99});
  ExpectedOutput ref = makeExpected({2}, {1, 2});
  ref.computed = {true, false};
  CheckResult r = compareTensors(out, ref, getDefaultTolerance(DType::F32));
  EXPECT_TRUE(r.passed) << r.message;
  EXPECT_EQ(r.checked, 1);
}

static const char *topPModule = R"(
  func.func @ref(%l: tensor<2x3xf32>, %u: tensor<2xf32>) -> tensor<2xi32> {
    %t = hkg.top_p_sample %l uniform(%u : tensor<2xf32>) p(0.7) temperature(1.0)
        : tensor<2x3xf32> -> tensor<2xi32>
    return %t : tensor<2xi32>
  })";

TEST(CheckTest, TopPTokens) {
  ParsedOp p = parseOp(topPModule);
  ASSERT_TRUE(p.op);
  HostTensor l = makeTensor(DType::F32, {2, 3},
                            {std::log(0.2), std::log(0.5), std::log(0.3),
                             std::log(0.6), std::log(0.1), std::log(0.3)});
  // Row 0's nucleus CDF: token 1 on [0, 0.625), token 2 on [0.625, 1).
  HostTensor u = makeTensor(DType::F32, {2}, {0.25, 0.7});
  HostTensor good = makeTensor(DType::I32, {2}, {1, 2});
  EXPECT_TRUE(checkTopPSample(p.op, {l, u}, good).passed);

  HostTensor wrong = makeTensor(DType::I32, {2}, {2, 2});
  CheckResult r = checkTopPSample(p.op, {l, u}, wrong);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("row 0: got token 2, expected 1"), std::string::npos)
      << r.message;

  HostTensor outside = makeTensor(DType::I32, {2}, {0, 2});
  r = checkTopPSample(p.op, {l, u}, outside);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("outside the top-p nucleus"), std::string::npos)
      << r.message;

  HostTensor unwritten(DType::I32, {2});
  poison(unwritten);
  EXPECT_FALSE(checkTopPSample(p.op, {l, u}, unwritten).passed);

  // u within the CDF tolerance of the boundary between tokens 1 and 2:
  // either token is accepted.
  HostTensor edge = makeTensor(DType::F32, {2}, {0.62502, 0.7});
  EXPECT_TRUE(checkTopPSample(p.op, {l, edge}, good).passed);
  EXPECT_TRUE(
      checkTopPSample(p.op, {l, edge}, makeTensor(DType::I32, {2}, {2, 2}))
          .passed);
}

// 8-bit matmul operands hold exact values of their type in the documented
// ranges: fp8 within [-1, 1], i8 within -7..7 (docs/Runtime.md).
TEST(CheckTest, RandomInputsOf8BitMatmuls) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<64x256xf8E4M3FNUZ>, %b: tensor<256x64xf8E4M3FNUZ>) -> tensor<64x64xbf16> {
      %x = hkg.matmul %a, %b : tensor<64x256xf8E4M3FNUZ>, tensor<256x64xf8E4M3FNUZ> -> tensor<64x64xbf16>
      return %x : tensor<64x64xbf16>
    })");
  ParsedOp q = parseOp(R"(
    func.func @ref(%c: tensor<64x256xi8>, %d: tensor<256x64xi8>) -> tensor<64x64xi32> {
      %y = hkg.matmul %c, %d : tensor<64x256xi8>, tensor<256x64xi8> -> tensor<64x64xi32>
      return %y : tensor<64x64xi32>
    })");
  ASSERT_TRUE(p.op && q.op);
  auto fp8 = makeRandomInputs(p.op, 1);
  auto i8 = makeRandomInputs(q.op, 1);
  ASSERT_TRUE(fp8 && i8);
  for (const HostTensor &t : *fp8) {
    EXPECT_EQ(t.getDType(), DType::F8E4M3FNUZ);
    int64_t distinct = 0;
    for (int64_t i = 0; i < t.getNumElements(); ++i) {
      double v = t.get(i);
      EXPECT_LE(std::abs(v), 1.0);
      EXPECT_EQ(roundToDType(v, DType::F8E4M3FNUZ), v);
      distinct += v != t.get(0);
    }
    EXPECT_GT(distinct, t.getNumElements() / 2);
  }
  for (const HostTensor &t : *i8) {
    EXPECT_EQ(t.getDType(), DType::I8);
    double lo = 0, hi = 0;
    for (int64_t i = 0; i < t.getNumElements(); ++i) {
      lo = std::min(lo, t.get(i));
      hi = std::max(hi, t.get(i));
    }
    EXPECT_EQ(lo, -7);
    EXPECT_EQ(hi, 7);
  }
}

TEST(CheckTest, RandomInputsAreSeededAndNeverZero) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
      %y = hkg.softmax %x axis(1) : tensor<64x128xbf16> -> tensor<64x128xbf16>
      return %y : tensor<64x128xbf16>
    })");
  ASSERT_TRUE(p.op);
  auto a = makeRandomInputs(p.op, 7), b = makeRandomInputs(p.op, 7),
       c = makeRandomInputs(p.op, 8);
  ASSERT_TRUE(a && b && c);
  const HostTensor &x = (*a)[0];
  EXPECT_EQ(x.getDType(), DType::BF16);
  int64_t zeros = 0, differ = 0;
  double lo = 1e9, hi = -1e9;
  for (int64_t i = 0; i < x.getNumElements(); ++i) {
    zeros += x.get(i) == 0;
    differ += x.getBits(i) != (*c)[0].getBits(i);
    EXPECT_EQ(x.getBits(i), (*b)[0].getBits(i));
    lo = std::min(lo, x.get(i));
    hi = std::max(hi, x.get(i));
  }
  EXPECT_LT(zeros, 16); // A handful at most, never an all-zero buffer.
  EXPECT_GT(differ, x.getNumElements() / 2);
  // Logit range for softmax.
  EXPECT_GE(lo, -6.0);
  EXPECT_LE(hi, 6.0);
  EXPECT_GT(hi - lo, 10.0);
}

TEST(CheckTest, RandomInputsForTopPArePeakedNormalLogits) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<4x32000xf32>) -> tensor<4xi32> {
      %t = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) : tensor<4x32000xf32> -> tensor<4xi32>
      return %t : tensor<4xi32>
    })");
  ASSERT_TRUE(p.op);
  auto a = makeRandomInputs(p.op, 3), b = makeRandomInputs(p.op, 3);
  ASSERT_TRUE(a && b);
  const HostTensor &x = (*a)[0];
  double sum = 0, sq = 0, hi = -1e9;
  int64_t n = x.getNumElements(), beyond2 = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = x.get(i);
    EXPECT_EQ(x.getBits(i), (*b)[0].getBits(i));
    sum += v;
    sq += v * v;
    hi = std::max(hi, v);
    beyond2 += std::abs(v) > 8.0;
  }
  double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(sd, 4.0, 0.05);
  // Normal, not uniform: about 4.6% beyond two standard deviations, and a
  // maximum well past any uniform range of that deviation (+-6.9).
  EXPECT_NEAR(static_cast<double>(beyond2) / n, 0.0455, 0.005);
  EXPECT_GT(hi, 14.0);
}

TEST(CheckTest, RandomInputsForRopeAreRealTables) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<1x4x1x8xf32>, %c: tensor<4x4xf32>, %s: tensor<4x4xf32>) -> tensor<1x4x1x8xf32> {
      %y = hkg.rope %x, %c, %s neox offset(0)
          : tensor<1x4x1x8xf32>, tensor<4x4xf32>, tensor<4x4xf32> -> tensor<1x4x1x8xf32>
      return %y : tensor<1x4x1x8xf32>
    })");
  ASSERT_TRUE(p.op);
  auto in = makeRandomInputs(p.op, 1);
  ASSERT_TRUE(static_cast<bool>(in));
  for (int64_t i = 0; i < 16; ++i) {
    double c = (*in)[1].get(i), s = (*in)[2].get(i);
    EXPECT_NEAR(c * c + s * s, 1.0, 1e-6);
  }
  EXPECT_EQ((*in)[1].get(0), 1.0); // Position 0: angle 0.
}

TEST(CheckTest, RandomInputsForFullWidthRopeRepeatEachPairsAngle) {
  // Full-width tables hold pair k's angle at both of its features' entries:
  // k and k + D/2 (neox, Hugging Face's cat(freqs, freqs)), 2k and 2k + 1
  // (gptj); the half-width table of the same rope holds it at k.
  auto source = [](const std::string &layout, int64_t width) {
    std::string table = "tensor<4x" + std::to_string(width) + "xf32>";
    std::string x = "tensor<1x4x1x8xf32>";
    return "func.func @ref(%x: " + x + ", %c: " + table + ", %s: " + table +
           ") -> " + x + " {\n  %y = hkg.rope %x, %c, %s " + layout +
           " offset(0) : " + x + ", " + table + ", " + table + " -> " + x +
           "\n  return %y : " + x + "\n}";
  };
  for (bool neox : {true, false}) {
    std::string layout = neox ? "neox" : "gptj";
    ParsedOp halfOp = parseOp(source(layout, 4));
    ParsedOp fullOp = parseOp(source(layout, 8));
    ASSERT_TRUE(halfOp.op && fullOp.op);
    auto half = makeRandomInputs(halfOp.op, 1);
    auto full = makeRandomInputs(fullOp.op, 1);
    ASSERT_TRUE(half && full);
    for (int64_t pos = 0; pos < 4; ++pos)
      for (int64_t e = 0; e < 8; ++e) {
        int64_t k = neox ? e % 4 : e / 2;
        EXPECT_EQ((*full)[1].get(pos * 8 + e), (*half)[1].get(pos * 4 + k))
            << layout << " cos at [" << pos << ", " << e << "]";
        EXPECT_EQ((*full)[2].get(pos * 8 + e), (*half)[2].get(pos * 4 + k))
            << layout << " sin at [" << pos << ", " << e << "]";
      }
  }
}

TEST(CheckTest, ErrorScaleWidensTheBoundPerElement) {
  // Two elements with the same reference value and error; only the one
  // whose error scale covers the error passes.
  HostTensor out = makeTensor(DType::F32, {2}, {1.01, 1.01});
  ExpectedOutput ref = makeExpected({2}, {1, 1});
  ref.errorScale = {1.0, 0.001};
  Tolerance t = getDefaultTolerance(DType::F32);
  t.elemScaled = 0.02;
  CheckResult r = compareTensors(out, ref, t);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.mismatched, 1);
  EXPECT_NE(r.message.find("first at [1]"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("scale 1.000e-03"), std::string::npos) << r.message;
  // Without elemScaled the scales are ignored: both fail.
  t.elemScaled = 0;
  EXPECT_EQ(compareTensors(out, ref, t).mismatched, 2);
}

TEST(CheckTest, NarrowIntegerPoison) {
  // i1: the poison byte is neither 0 nor 1, so it is always caught.
  HostTensor mask = makeTensor(DType::I1, {3}, {1, 0, 1});
  poison(mask);
  mask.set(0, 1);
  CheckResult r = compareTensors(mask, makeExpected({3}, {1, 0, 1}),
                                 getDefaultTolerance(DType::I1));
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.unwritten, 2);
  // i8: every byte is a value; the poison byte is unwritten only where the
  // reference is not 123, and a written 123 passes.
  HostTensor bytes = makeTensor(DType::I8, {3}, {0, 0, 0});
  poison(bytes);
  bytes.set(0, -5);
  CheckResult r8 = compareTensors(bytes, makeExpected({3}, {-5, 123, 7}),
                                  getDefaultTolerance(DType::I8));
  EXPECT_FALSE(r8.passed);
  EXPECT_EQ(r8.unwritten, 1);
  bytes.set(2, 7);
  CheckResult ok = compareTensors(bytes, makeExpected({3}, {-5, 123, 7}),
                                  getDefaultTolerance(DType::I8));
  EXPECT_TRUE(ok.passed) << ok.message;
}
