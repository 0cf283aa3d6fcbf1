//===- HostTensor.h - host-side tensors for references and checks -*- C++
//-*-===//
//
// A dense, row-major tensor in host memory: a shape, an element type and the
// raw bytes, laid out exactly as the kernel ABI expects them on the device.
// f16 and bf16 convert to and from float with round-to-nearest-even; f64 is
// used only for reference results.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_HOSTTENSOR_H
#define HKG_RUNTIME_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class Type;
} // namespace mlir

namespace hkg::rt {

/// Element types a kernel argument (or a reference result) can have.
/// I1 is one byte per element holding 0 or 1 (docs/ABI.md), like torch.bool.
enum class DType {
  F32,
  F16,
  BF16,
  I32,
  I64,
  F64,
  I8,
  I1,
  /// 8-bit floats: OCP e4m3 (no infinities) and e5m2, and the FNUZ forms
  /// (no negative zero, NaN = 0x80) gfx942 multiplies.
  F8E4M3FN,
  F8E5M2,
  F8E4M3FNUZ,
  F8E5M2FNUZ,
};

/// Returns the manifest spelling (`f32`, `f16`, `bf16`, `i32`, `i64`, `f64`,
/// `i8`, `i1`).
llvm::StringRef getDTypeName(DType type);
/// Parses a manifest spelling; std::nullopt when unknown.
std::optional<DType> parseDType(llvm::StringRef name);
/// Maps an MLIR element type (f32, f16, bf16, i32, i64, f64, i8, i1); nullopt
/// otherwise.
std::optional<DType> getDTypeFor(mlir::Type type);
/// Size of one element in bytes.
unsigned getDTypeSize(DType type);
/// Whether the type is a floating-point type.
inline bool isFloatDType(DType type) {
  return type != DType::I32 && type != DType::I64 && type != DType::I8 &&
         type != DType::I1;
}

/// f16 / bf16 <-> float, round-to-nearest-even, NaN kept quiet, infinities
/// and subnormals handled. These are bit-exact with llvm::APFloat's
/// conversions (the unit tests check every 16-bit pattern) but fast enough
/// for 10^8 elements.
uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBFloatBits(float value);
float bfloatBitsToFloat(uint16_t bits);

/// Whether `type` is one of the 8-bit float types.
inline bool isFloat8DType(DType type) {
  return type == DType::F8E4M3FN || type == DType::F8E5M2 ||
         type == DType::F8E4M3FNUZ || type == DType::F8E5M2FNUZ;
}
/// 8-bit float (`type`) <-> float: the value of each of the 256 codes
/// (a table of llvm::APFloat's), and llvm::APFloat's round-to-nearest-even
/// conversion (out of range: the format's infinity or NaN).
float float8BitsToFloat(DType type, uint8_t bits);
uint8_t floatToFloat8Bits(DType type, float value);

/// Rounds `value` to the precision of `type` (through float, as a device
/// that computes in f32 and stores `type` does) and returns it as a double.
/// f64 is returned unchanged; integers are truncated toward zero and wrap to
/// their width (i1: the lowest bit).
double roundToDType(double value, DType type);

class HostTensor {
public:
  HostTensor() = default;
  HostTensor(DType type, llvm::ArrayRef<int64_t> shape);

  DType getDType() const { return type; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }
  int64_t getNumElements() const;
  size_t getNumBytes() const { return bytes.size(); }
  uint8_t *data() { return bytes.data(); }
  const uint8_t *data() const { return bytes.data(); }

  /// Element `i` (flat, row-major) converted to double (exact for i64 up to
  /// 2^53 in magnitude).
  double get(int64_t i) const;
  /// Stores `value` into element `i`, rounding to the element type.
  void set(int64_t i, double value);
  /// Raw bits of element `i` (zero-extended to 64 bits).
  uint64_t getBits(int64_t i) const;
  void setBits(int64_t i, uint64_t bits);

  /// Converts every element to double into `out` (getNumElements() long),
  /// in parallel: the bulk form of get().
  void toDoubles(double *out) const;
  /// The elements of an f64 tensor, for bulk writes.
  double *getF64Data();
  const double *getF64Data() const;

  /// Fills every element with the same bit pattern.
  void fillBits(uint64_t bits);

  /// Row-major strides, in elements.
  llvm::SmallVector<int64_t> getStrides() const;

  /// `f32[2x3]`, for messages.
  std::string getTypeString() const;

private:
  DType type = DType::F32;
  llvm::SmallVector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

} // namespace hkg::rt

#endif // HKG_RUNTIME_HOSTTENSOR_H
