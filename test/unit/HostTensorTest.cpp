//===- HostTensorTest.cpp - f16/bf16 conversions and HostTensor ----------===//
//
// llvm::APFloat is the oracle for the fast conversions.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/HostTensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace hkg::rt;

static uint16_t apfloatEncode(float f, const llvm::fltSemantics &sem) {
  llvm::APFloat v(f);
  bool losesInfo = false;
  v.convert(sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return v.bitcastToAPInt().getZExtValue();
}

static float apfloatDecode(uint16_t bits, const llvm::fltSemantics &sem) {
  llvm::APFloat v(sem, llvm::APInt(16, bits));
  bool losesInfo = false;
  v.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return v.convertToFloat();
}

TEST(HostTensorTest, HalfDecodeMatchesAPFloatForEveryPattern) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float expected = apfloatDecode(b, llvm::APFloat::IEEEhalf());
    float got = halfBitsToFloat(b);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << "bits 0x" << std::hex << b;
      continue;
    }
    ASSERT_EQ(llvm::bit_cast<uint32_t>(got), llvm::bit_cast<uint32_t>(expected))
        << "bits 0x" << std::hex << b;
  }
}

TEST(HostTensorTest, BFloatDecodeMatchesAPFloatForEveryPattern) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float expected = apfloatDecode(b, llvm::APFloat::BFloat());
    float got = bfloatBitsToFloat(b);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << "bits 0x" << std::hex << b;
      continue;
    }
    ASSERT_EQ(llvm::bit_cast<uint32_t>(got), llvm::bit_cast<uint32_t>(expected))
        << "bits 0x" << std::hex << b;
  }
}

/// Every float whose low 12 bits are one of a few patterns (ties, just
/// above/below ties, zero) and every exponent: covers rounding in the normal,
/// subnormal and overflow ranges of both formats.
TEST(HostTensorTest, EncodeMatchesAPFloatRoundToNearestEven) {
  const uint32_t lows[] = {0x000,  0x001,  0x7ff,  0x800,  0x801,  0xfff,
                           0x1000, 0x0fff, 0x1001, 0x8000, 0x7fff, 0x8001};
  int compared = 0;
  for (uint32_t sign = 0; sign < 2; ++sign)
    for (uint32_t exp = 0; exp < 255; ++exp)
      for (uint32_t mid = 0; mid < 64; ++mid)
        for (uint32_t low : lows) {
          uint32_t bits = (sign << 31) | (exp << 23) | (mid << 17) | low;
          float f = llvm::bit_cast<float>(bits);
          ASSERT_EQ(floatToHalfBits(f),
                    apfloatEncode(f, llvm::APFloat::IEEEhalf()))
              << "f32 bits 0x" << std::hex << bits;
          ASSERT_EQ(floatToBFloatBits(f),
                    apfloatEncode(f, llvm::APFloat::BFloat()))
              << "f32 bits 0x" << std::hex << bits;
          ++compared;
        }
  EXPECT_EQ(compared, 2 * 255 * 64 * 12);
}

TEST(HostTensorTest, KnownValues) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00);   // Rounds to infinity.
  EXPECT_EQ(floatToHalfBits(0x1.0p-24f), 0x0001); // Smallest subnormal.
  EXPECT_EQ(floatToHalfBits(0x1.0p-25f), 0x0000); // Tie: to even (zero).
  EXPECT_EQ(floatToBFloatBits(1.0f), 0x3f80);
  // 1 + 2^-8 is halfway between two bf16 values: ties to even.
  EXPECT_EQ(floatToBFloatBits(1.00390625f), 0x3f80);
  EXPECT_EQ(floatToBFloatBits(1.01171875f), 0x3f82);
  EXPECT_TRUE(std::isnan(bfloatBitsToFloat(floatToBFloatBits(NAN))));
  EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(NAN))));
  EXPECT_EQ(roundToDType(1.0 + 1e-3, DType::BF16), 1.0);
  EXPECT_EQ(roundToDType(1.0 + 1e-3, DType::F16), 1.0009765625);
}

TEST(HostTensorTest, SetGetRoundTripsPerDType) {
  HostTensor f16(DType::F16, {2, 3});
  EXPECT_EQ(f16.getNumBytes(), 12u);
  EXPECT_EQ(f16.getTypeString(), "f16[2x3]");
  f16.set(4, 0.1);
  EXPECT_EQ(f16.get(4), halfBitsToFloat(floatToHalfBits(0.1f)));
  HostTensor i32(DType::I32, {3});
  i32.set(2, -7);
  EXPECT_EQ(i32.get(2), -7);
  HostTensor bf(DType::BF16, {4});
  bf.fillBits(0x7fba);
  EXPECT_EQ(bf.getBits(3), 0x7fbau);
  EXPECT_TRUE(std::isnan(bf.get(3)));
  EXPECT_EQ(HostTensor(DType::F32, {2, 3, 4}).getStrides(),
            (llvm::SmallVector<int64_t>{12, 4, 1}));
  EXPECT_EQ(parseDType("bf16"), DType::BF16);
  EXPECT_EQ(parseDType("f8"), std::nullopt);
}

TEST(HostTensorTest, FillBitsWritesEveryElementOfEveryWidth) {
  // Odd counts, so the doubling copies end in a partial one.
  for (auto [type, bits] :
       {std::pair{DType::I8, uint64_t(0x7b)},
        std::pair{DType::BF16, uint64_t(0x7fba)},
        std::pair{DType::F32, uint64_t(0x7fbadbad)},
        std::pair{DType::I64, uint64_t(0x7fbadbad7fbadbadull)}}) {
    for (int64_t n : {1, 2, 3, 1000, 4099}) {
      HostTensor t(type, {n});
      t.fillBits(bits);
      for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(t.getBits(i), bits)
            << getDTypeName(type).str() << " " << n << " " << i;
    }
  }
  HostTensor empty(DType::F32, {0, 5});
  empty.fillBits(0x7fbadbad); // nothing to write, no crash
  EXPECT_EQ(empty.getNumElements(), 0);
}

TEST(HostTensorTest, I64Indices) {
  EXPECT_EQ(getDTypeName(DType::I64), "i64");
  EXPECT_EQ(parseDType("i64"), DType::I64);
  EXPECT_EQ(getDTypeSize(DType::I64), 8u);
  EXPECT_FALSE(isFloatDType(DType::I64));
  HostTensor t(DType::I64, {3});
  EXPECT_EQ(t.getNumBytes(), 24u);
  EXPECT_EQ(t.getTypeString(), "i64[3]");
  // Beyond i32's range, and negative.
  t.set(0, 5000000000.0);
  t.set(1, -3);
  t.set(2, 128255);
  EXPECT_EQ(t.get(0), 5000000000.0);
  EXPECT_EQ(t.getBits(1), static_cast<uint64_t>(int64_t(-3)));
  std::vector<double> all(3);
  t.toDoubles(all.data());
  EXPECT_EQ(all, (std::vector<double>{5000000000.0, -3, 128255}));
  EXPECT_EQ(roundToDType(-2.7, DType::I64), -2.0);
}

// 8-bit floats: each format's known codes (written out, not taken from
// APFloat, which the table is built from), round-to-nearest-even, and the
// dtype plumbing (name, size, HostTensor set / get / toDoubles).
TEST(HostTensorTest, Float8KnownValues) {
  // e4m3fn: bias 7, no infinities, S.1111.111 NaN.
  EXPECT_EQ(float8BitsToFloat(DType::F8E4M3FN, 0x38), 1.0f);
  EXPECT_EQ(float8BitsToFloat(DType::F8E4M3FN, 0x7e), 448.0f);
  EXPECT_EQ(float8BitsToFloat(DType::F8E4M3FN, 0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(float8BitsToFloat(DType::F8E4M3FN, 0xb8), -1.0f);
  EXPECT_TRUE(std::isnan(float8BitsToFloat(DType::F8E4M3FN, 0x7f)));
  // e5m2: f16's top byte.
  EXPECT_EQ(float8BitsToFloat(DType::F8E5M2, 0x3c), 1.0f);
  EXPECT_EQ(float8BitsToFloat(DType::F8E5M2, 0x7b), 57344.0f);
  EXPECT_EQ(float8BitsToFloat(DType::F8E5M2, 0x01), std::ldexp(1.0f, -16));
  EXPECT_TRUE(std::isinf(float8BitsToFloat(DType::F8E5M2, 0x7c)));
  // FNUZ: bias 8 / 16, 0x80 NaN, all-ones exponents finite.
  EXPECT_EQ(float8BitsToFloat(DType::F8E4M3FNUZ, 0x40), 1.0f);
  EXPECT_EQ(float8BitsToFloat(DType::F8E4M3FNUZ, 0x7f), 240.0f);
  EXPECT_EQ(float8BitsToFloat(DType::F8E4M3FNUZ, 0x01), std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isnan(float8BitsToFloat(DType::F8E4M3FNUZ, 0x80)));
  EXPECT_EQ(float8BitsToFloat(DType::F8E5M2FNUZ, 0x40), 1.0f);
  EXPECT_EQ(float8BitsToFloat(DType::F8E5M2FNUZ, 0x7f), 57344.0f);
  EXPECT_TRUE(std::isnan(float8BitsToFloat(DType::F8E5M2FNUZ, 0x80)));
}

TEST(HostTensorTest, Float8EncodeRoundsToNearestEven) {
  // e4m3 has an ulp of 1/8 at 1: 1 + 1/16 ties to 1, 1 + 3/16 to 1.25.
  EXPECT_EQ(floatToFloat8Bits(DType::F8E4M3FN, 1.0625f), 0x38);
  EXPECT_EQ(floatToFloat8Bits(DType::F8E4M3FN, 1.1875f), 0x3a);
  EXPECT_EQ(floatToFloat8Bits(DType::F8E4M3FN, -1.0f), 0xb8);
  EXPECT_EQ(floatToFloat8Bits(DType::F8E4M3FNUZ, 1.0f), 0x40);
  // e5m2: an ulp of 1/4 at 1.
  EXPECT_EQ(floatToFloat8Bits(DType::F8E5M2, 1.125f), 0x3c);
  EXPECT_EQ(floatToFloat8Bits(DType::F8E5M2, 1.375f), 0x3e);
  // Every finite code decodes and encodes back to itself.
  for (DType t :
       {DType::F8E4M3FN, DType::F8E5M2, DType::F8E4M3FNUZ, DType::F8E5M2FNUZ})
    for (unsigned code = 0; code < 256; ++code) {
      float v = float8BitsToFloat(t, code);
      // NaN codes are skipped (FNUZ has no -0: its 0x80 is NaN).
      if (std::isnan(v))
        continue;
      EXPECT_EQ(floatToFloat8Bits(t, v), code)
          << getDTypeName(t).str() << " code " << code;
    }
}

TEST(HostTensorTest, Float8DTypes) {
  for (DType t :
       {DType::F8E4M3FN, DType::F8E5M2, DType::F8E4M3FNUZ, DType::F8E5M2FNUZ}) {
    EXPECT_EQ(parseDType(getDTypeName(t)), t);
    EXPECT_EQ(getDTypeSize(t), 1u);
    EXPECT_TRUE(isFloatDType(t));
    EXPECT_TRUE(isFloat8DType(t));
  }
  EXPECT_FALSE(isFloat8DType(DType::I8));
  HostTensor e4m3(DType::F8E4M3FN, {4});
  e4m3.set(0, 0.3); // 0.3 = 1.2 x 2^-2: 1.25 x 2^-2
  e4m3.set(1, -448.0);
  e4m3.set(2, 5e-4); // below half the smallest subnormal (2^-10): +0
  e4m3.set(3, 3.0);
  EXPECT_EQ(e4m3.get(0), 0.3125);
  EXPECT_EQ(e4m3.get(1), -448.0);
  EXPECT_EQ(e4m3.get(2), 0.0);
  std::vector<double> out(4);
  e4m3.toDoubles(out.data());
  EXPECT_EQ(out, (std::vector<double>{0.3125, -448.0, 0.0, 3.0}));
  EXPECT_EQ(roundToDType(0.3, DType::F8E5M2), 0.3125);
  EXPECT_EQ(e4m3.getTypeString(), "f8E4M3FN[4]");
}
