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
