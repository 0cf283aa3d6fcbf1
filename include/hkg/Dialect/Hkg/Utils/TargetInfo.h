//===- TargetInfo.h - hkg's table of GPU targets ----------------*- C++ -*-===//
//
// One table describing every chip hkg compiles for: the facts schedules and
// the tuner's model need (wave size, LDS, compute units, registers,
// matrix-core intrinsics, peak bandwidth and FLOPs). Sources for each value
// are in TargetInfo.cpp and docs/Targets.md.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_UTILS_TARGETINFO_H
#define HKG_DIALECT_HKG_UTILS_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include "llvm/ADT/StringRef.h"

namespace mlir::hkg {

enum class Vendor { AMD, NVIDIA };

/// Matrix-core instruction families a schedule can ask for.
enum class MatrixCoreKind { None, MFMA, WMMA, MmaSync };

/// Static shared memory NVIDIA allows a kernel (`.shared` declarations); a
/// kernel needing more takes dynamic shared memory and, above this, the
/// launch must raise the function's limit (docs/ABI.md).
constexpr int64_t kNvidiaStaticSharedMemoryBytes = 48 * 1024;

/// The 8-bit float formats a chip's matrix cores multiply: the OCP ones
/// (f8E4M3FN, f8E5M2: sm_89+, gfx950, gfx12) or the FNUZ ones (f8E4M3FNUZ,
/// f8E5M2FNUZ: gfx942), or none.
enum class Fp8Format { None, OCP, FNUZ };

struct TargetInfo {
  /// The chip name as LLVM spells it (`gfx942`, `sm_90`).
  llvm::StringRef chip;
  Vendor vendor;
  /// Architecture family (`cdna3`, `rdna4`, `hopper`...).
  llvm::StringRef family;
  /// An example product carrying this chip, for reports.
  llvm::StringRef product;
  /// Threads per wave (AMD) or warp (NVIDIA).
  unsigned waveSize;
  /// Largest LDS / shared memory one workgroup can allocate, in bytes.
  unsigned ldsBytesPerWorkgroup;
  /// Compute units (AMD) or streaming multiprocessors (NVIDIA).
  unsigned computeUnits;
  /// Most vector registers one lane can address (on AMD: VGPRs, plus AGPRs
  /// where the file is unified as on gfx90a/gfx942/gfx950; registers per
  /// thread on NVIDIA).
  unsigned maxRegistersPerThread;
  /// Largest workgroup the runtime accepts.
  unsigned maxThreadsPerWorkgroup;
  /// Waves (warps) one CU (SM) can hold at once.
  unsigned maxWavesPerCU;
  /// Matrix-core family (MFMA, WMMA, mma.sync).
  MatrixCoreKind matrixCore;
  /// Matrix-core instruction shapes usable from a schedule's `mma` knob
  /// (`mfma_16x16x16`, `wmma_16x16x16`, `mma_16x8x16`).
  llvm::ArrayRef<llvm::StringLiteral> mmaIntrinsics;
  /// Peak DRAM bandwidth, GB/s.
  double peakBandwidthGBs;
  /// Peak dense FP32 vector rate, TFLOP/s.
  double peakFp32Tflops;
  /// Peak dense bf16 matrix-core rate, TFLOP/s.
  double peakBf16Tflops;
  /// Where the numbers come from.
  llvm::StringRef source;
  /// The chip's 8-bit float format (Fp8Format).
  Fp8Format fp8Format = Fp8Format::None;
  /// Matrix-core instruction shapes for 8-bit float operands (f32
  /// accumulators) and for i8 operands (i32 accumulators), spelled as
  /// mmaIntrinsics; the operand type picks the instruction
  /// (`mfma_16x16x32` is v_mfma_f32_16x16x32_fp8_fp8 on fp8 operands,
  /// v_mfma_i32_16x16x32_i8 on i8 ones).
  llvm::ArrayRef<llvm::StringLiteral> mmaFp8Intrinsics = {};
  llvm::ArrayRef<llvm::StringLiteral> mmaI8Intrinsics = {};

  /// The instruction shapes for 8-bit operands: i8 (`integer`) or fp8.
  llvm::ArrayRef<llvm::StringLiteral> mmaIntrinsicsFor8Bit(bool integer) const {
    return integer ? mmaI8Intrinsics : mmaFp8Intrinsics;
  }

  bool isAMD() const { return vendor == Vendor::AMD; }
  bool isNVIDIA() const { return vendor == Vendor::NVIDIA; }
  /// Thread-block clusters with distributed shared memory (sm_90).
  bool hasClusters() const { return isNVIDIA() && family == "hopper"; }
  /// Bulk asynchronous copies between global and shared memory
  /// (cp.async.bulk, sm_90).
  bool hasBulkAsyncCopy() const { return isNVIDIA() && family == "hopper"; }
};

/// Returns the description of `chip`, or nullptr when hkg does not know it.
const TargetInfo *lookupTarget(llvm::StringRef chip);

/// Returns every target hkg knows, in table order.
llvm::ArrayRef<TargetInfo> getAllTargets();

/// Returns the known chip names joined by ", " (for diagnostics).
std::string getKnownChipsString();

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_UTILS_TARGETINFO_H
