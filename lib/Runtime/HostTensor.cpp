//===- HostTensor.cpp - host-side tensors and float conversions ----------===//
//
// The f16/bf16 conversions are the usual bit manipulations; llvm::APFloat is
// the oracle they are tested against (test/unit/HostTensorTest.cpp), but it
// is too slow to convert 10^8 elements.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>

using namespace hkg::rt;

llvm::StringRef hkg::rt::getDTypeName(DType type) {
  switch (type) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F64:
    return "f64";
  case DType::I8:
    return "i8";
  case DType::I1:
    return "i1";
  case DType::F8E4M3FN:
    return "f8E4M3FN";
  case DType::F8E5M2:
    return "f8E5M2";
  case DType::F8E4M3FNUZ:
    return "f8E4M3FNUZ";
  case DType::F8E5M2FNUZ:
    return "f8E5M2FNUZ";
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> hkg::rt::parseDType(llvm::StringRef name) {
  if (name == "f32")
    return DType::F32;
  if (name == "f16")
    return DType::F16;
  if (name == "bf16")
    return DType::BF16;
  if (name == "i32")
    return DType::I32;
  if (name == "i64")
    return DType::I64;
  if (name == "f64")
    return DType::F64;
  if (name == "i8")
    return DType::I8;
  if (name == "i1")
    return DType::I1;
  for (DType t :
       {DType::F8E4M3FN, DType::F8E5M2, DType::F8E4M3FNUZ, DType::F8E5M2FNUZ})
    if (name == getDTypeName(t))
      return t;
  return std::nullopt;
}

std::optional<DType> hkg::rt::getDTypeFor(mlir::Type type) {
  if (type.isF32())
    return DType::F32;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF64())
    return DType::F64;
  if (type.isInteger(32))
    return DType::I32;
  if (type.isInteger(64))
    return DType::I64;
  if (type.isInteger(8))
    return DType::I8;
  if (type.isInteger(1))
    return DType::I1;
  if (mlir::isa<mlir::Float8E4M3FNType>(type))
    return DType::F8E4M3FN;
  if (mlir::isa<mlir::Float8E5M2Type>(type))
    return DType::F8E5M2;
  if (mlir::isa<mlir::Float8E4M3FNUZType>(type))
    return DType::F8E4M3FNUZ;
  if (mlir::isa<mlir::Float8E5M2FNUZType>(type))
    return DType::F8E5M2FNUZ;
  return std::nullopt;
}

unsigned hkg::rt::getDTypeSize(DType type) {
  switch (type) {
  case DType::I8:
  case DType::I1:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return 1;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  }
  llvm_unreachable("unknown dtype");
}

//===----------------------------------------------------------------------===//
// f16 / bf16 conversions
//===----------------------------------------------------------------------===//

/// Shifts `m` right by `shift` bits, rounding to nearest, ties to even.
static uint32_t shiftRightRNE(uint32_t m, unsigned shift) {
  uint32_t r = m >> shift;
  uint32_t rem = m & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (r & 1)))
    ++r;
  return r;
}

uint16_t hkg::rt::floatToHalfBits(float value) {
  uint32_t x = llvm::bit_cast<uint32_t>(value);
  uint16_t sign = (x >> 16) & 0x8000;
  uint32_t absx = x & 0x7fffffffu;
  if (absx > 0x7f800000u) // NaN: keep the top payload bits, make it quiet.
    return sign | 0x7e00 | ((absx >> 13) & 0x3ff);
  if (absx >= 0x47800000u) // >= 2^16: infinity.
    return sign | 0x7c00;
  uint32_t biasedExp = absx >> 23;
  if (absx >= 0x38800000u) { // Normal half (>= 2^-14).
    uint32_t halfExpMant =
        ((biasedExp - 127 + 15) << 10) | ((absx >> 13) & 0x3ff);
    uint32_t rem = absx & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (halfExpMant & 1)))
      ++halfExpMant; // May carry into the exponent, up to infinity: correct.
    return sign | halfExpMant;
  }
  // Subnormal half: the value in units of 2^-24 is m * 2^(e - 126).
  if (biasedExp == 0)
    return sign; // Float subnormals are far below half's smallest subnormal.
  unsigned shift = 126 - biasedExp;
  if (shift > 24)
    return sign;
  uint32_t m = (absx & 0x7fffff) | 0x800000;
  return sign | shiftRightRNE(m, shift);
}

float hkg::rt::halfBitsToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31)
    return llvm::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return llvm::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t hkg::rt::floatToBFloatBits(float value) {
  uint32_t x = llvm::bit_cast<uint32_t>(value);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (x >> 16) | 0x0040; // Quiet NaN.
  uint32_t bias = 0x7fff + ((x >> 16) & 1);
  return (x + bias) >> 16;
}

float hkg::rt::bfloatBitsToFloat(uint16_t bits) {
  return llvm::bit_cast<float>(uint32_t(bits) << 16);
}

//===----------------------------------------------------------------------===//
// 8-bit float conversions
//===----------------------------------------------------------------------===//

static const llvm::fltSemantics &getFloat8Semantics(DType type) {
  switch (type) {
  case DType::F8E4M3FN:
    return llvm::APFloat::Float8E4M3FN();
  case DType::F8E5M2:
    return llvm::APFloat::Float8E5M2();
  case DType::F8E4M3FNUZ:
    return llvm::APFloat::Float8E4M3FNUZ();
  case DType::F8E5M2FNUZ:
    return llvm::APFloat::Float8E5M2FNUZ();
  default:
    llvm_unreachable("expected an 8-bit float dtype");
  }
}

float hkg::rt::float8BitsToFloat(DType type, uint8_t bits) {
  // One table of the 256 codes' values per format, from llvm::APFloat.
  using Table = std::array<float, 256>;
  auto build = [](DType t) {
    Table table;
    for (unsigned code = 0; code < 256; ++code)
      table[code] = llvm::APFloat(getFloat8Semantics(t), llvm::APInt(8, code))
                        .convertToFloat();
    return table;
  };
  static const Table tables[] = {build(DType::F8E4M3FN), build(DType::F8E5M2),
                                 build(DType::F8E4M3FNUZ),
                                 build(DType::F8E5M2FNUZ)};
  int index = static_cast<int>(type) - static_cast<int>(DType::F8E4M3FN);
  return tables[index][bits];
}

uint8_t hkg::rt::floatToFloat8Bits(DType type, float value) {
  llvm::APFloat f(value);
  bool lost;
  f.convert(getFloat8Semantics(type), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return static_cast<uint8_t>(f.bitcastToAPInt().getZExtValue());
}

double hkg::rt::roundToDType(double value, DType type) {
  switch (type) {
  case DType::F64:
    return value;
  case DType::F32:
    return static_cast<float>(value);
  case DType::F16:
    return halfBitsToFloat(floatToHalfBits(static_cast<float>(value)));
  case DType::BF16:
    return bfloatBitsToFloat(floatToBFloatBits(static_cast<float>(value)));
  case DType::I32:
    return static_cast<int32_t>(static_cast<uint32_t>(
        static_cast<uint64_t>(static_cast<int64_t>(std::trunc(value)))));
  case DType::I64:
    return std::trunc(value);
  case DType::I8:
    return static_cast<int8_t>(static_cast<uint8_t>(
        static_cast<uint64_t>(static_cast<int64_t>(std::trunc(value)))));
  case DType::I1:
    return static_cast<double>(static_cast<int64_t>(std::trunc(value)) & 1);
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return float8BitsToFloat(
        type, floatToFloat8Bits(type, static_cast<float>(value)));
  }
  llvm_unreachable("unknown dtype");
}

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

HostTensor::HostTensor(DType type, llvm::ArrayRef<int64_t> shape)
    : type(type), shape(shape.begin(), shape.end()) {
  bytes.assign(getNumElements() * getDTypeSize(type), 0);
}

int64_t HostTensor::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

uint64_t HostTensor::getBits(int64_t i) const {
  const uint8_t *p = bytes.data() + i * getDTypeSize(type);
  switch (getDTypeSize(type)) {
  case 1:
    return *p;
  case 2: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  default: {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  }
}

void HostTensor::setBits(int64_t i, uint64_t bits) {
  uint8_t *p = bytes.data() + i * getDTypeSize(type);
  switch (getDTypeSize(type)) {
  case 1:
    *p = static_cast<uint8_t>(bits);
    return;
  case 2: {
    uint16_t v = bits;
    std::memcpy(p, &v, 2);
    return;
  }
  case 4: {
    uint32_t v = bits;
    std::memcpy(p, &v, 4);
    return;
  }
  default:
    std::memcpy(p, &bits, 8);
    return;
  }
}

double HostTensor::get(int64_t i) const {
  uint64_t bits = getBits(i);
  switch (type) {
  case DType::F32:
    return llvm::bit_cast<float>(static_cast<uint32_t>(bits));
  case DType::F16:
    return halfBitsToFloat(bits);
  case DType::BF16:
    return bfloatBitsToFloat(bits);
  case DType::I32:
    return static_cast<int32_t>(static_cast<uint32_t>(bits));
  case DType::I64:
    return static_cast<double>(static_cast<int64_t>(bits));
  case DType::F64:
    return llvm::bit_cast<double>(bits);
  case DType::I8:
    return static_cast<int8_t>(static_cast<uint8_t>(bits));
  case DType::I1:
    return static_cast<double>(bits); // 0 or 1; any other byte is wrong
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return float8BitsToFloat(type, bits);
  }
  llvm_unreachable("unknown dtype");
}

void HostTensor::set(int64_t i, double value) {
  switch (type) {
  case DType::F32:
    return setBits(i, llvm::bit_cast<uint32_t>(static_cast<float>(value)));
  case DType::F16:
    return setBits(i, floatToHalfBits(static_cast<float>(value)));
  case DType::BF16:
    return setBits(i, floatToBFloatBits(static_cast<float>(value)));
  case DType::I32:
    return setBits(i, static_cast<uint32_t>(static_cast<int32_t>(value)));
  case DType::I64:
    return setBits(i, static_cast<uint64_t>(static_cast<int64_t>(value)));
  case DType::F64:
    return setBits(i, llvm::bit_cast<uint64_t>(value));
  case DType::I8:
    return setBits(i, static_cast<uint8_t>(static_cast<int64_t>(value)));
  case DType::I1:
    return setBits(i, static_cast<int64_t>(value) & 1);
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return setBits(i, floatToFloat8Bits(type, static_cast<float>(value)));
  }
}

void HostTensor::toDoubles(double *out) const {
  int64_t n = getNumElements();
  constexpr int64_t chunk = 1 << 16;
  const uint8_t *raw = bytes.data();
  DType t = type;
  llvm::parallelFor(0, (n + chunk - 1) / chunk, [&](size_t c) {
    int64_t begin = c * chunk, end = std::min<int64_t>(n, begin + chunk);
    for (int64_t i = begin; i < end; ++i) {
      switch (t) {
      case DType::F32: {
        float v;
        std::memcpy(&v, raw + 4 * i, 4);
        out[i] = v;
        break;
      }
      case DType::F16:
      case DType::BF16: {
        uint16_t v;
        std::memcpy(&v, raw + 2 * i, 2);
        out[i] = t == DType::F16 ? halfBitsToFloat(v) : bfloatBitsToFloat(v);
        break;
      }
      case DType::I32: {
        int32_t v;
        std::memcpy(&v, raw + 4 * i, 4);
        out[i] = v;
        break;
      }
      case DType::I64: {
        int64_t v;
        std::memcpy(&v, raw + 8 * i, 8);
        out[i] = static_cast<double>(v);
        break;
      }
      case DType::F64:
        std::memcpy(&out[i], raw + 8 * i, 8);
        break;
      case DType::I8:
        out[i] = static_cast<int8_t>(raw[i]);
        break;
      case DType::I1:
        out[i] = raw[i];
        break;
      case DType::F8E4M3FN:
      case DType::F8E5M2:
      case DType::F8E4M3FNUZ:
      case DType::F8E5M2FNUZ:
        out[i] = float8BitsToFloat(t, raw[i]);
        break;
      }
    }
  });
}

double *HostTensor::getF64Data() {
  assert(type == DType::F64 && "expected an f64 tensor");
  return reinterpret_cast<double *>(bytes.data());
}

const double *HostTensor::getF64Data() const {
  assert(type == DType::F64 && "expected an f64 tensor");
  return reinterpret_cast<const double *>(bytes.data());
}

void HostTensor::fillBits(uint64_t bits) {
  int64_t n = getNumElements();
  if (n == 0)
    return;
  // One element, then doubling copies of what is filled (a poisoned 64 M
  // element output each tuning trial).
  setBits(0, bits);
  size_t total = static_cast<size_t>(n) * getDTypeSize(type);
  assert(bytes.size() >= total && "the tensor holds its elements");
  uint8_t *p = bytes.data();
  for (size_t filled = getDTypeSize(type); filled < total;) {
    size_t count = std::min(filled, total - filled);
    std::memcpy(p + filled, p, count);
    filled += count;
  }
}

llvm::SmallVector<int64_t> HostTensor::getStrides() const {
  llvm::SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

std::string HostTensor::getTypeString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << getDTypeName(type) << "[";
  llvm::interleave(shape, os, "x");
  os << "]";
  return s;
}
