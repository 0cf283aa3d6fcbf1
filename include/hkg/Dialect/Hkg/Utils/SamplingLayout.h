//===- SamplingLayout.h - LDS layout of the top-p sampler -------*- C++ -*-===//
//
// The LDS buffers of hkg.top_p_sample's lowering (Conversion/HkgToGPU/
// Sampling.cpp) that its schedule verifier (SamplingSchedule.cpp) bounds:
// one definition for both.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_UTILS_SAMPLINGLAYOUT_H
#define HKG_DIALECT_HKG_UTILS_SAMPLINGLAYOUT_H

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

namespace mlir::hkg::sampling {

/// Tokens of the cut's bin kept in LDS (key, id, mass: 16 bytes each).
constexpr int64_t kListCapacity = 1024;
/// bin_cache = 1: vectors the gather queues in LDS (4 bytes each).
constexpr int64_t kQueueCapacity = 4096;
/// Entries a thread's row of the bin cache is padded by (at least 8 bytes
/// and a vector), so that a half-warp's rows start in different banks.
inline int64_t binCachePad(int64_t vectorWidth) {
  return std::max<int64_t>(4, vectorWidth);
}

/// LDS of the kernel with `bin_cache` = 1: the bin cache (i16 per token of
/// the workgroup's share, each thread's row padded), the queue, the
/// histogram (3 words per bin), the cut's list and 2 KiB for the scans and
/// exchanges.
inline int64_t binCacheLdsBytes(int64_t vocab, int64_t split,
                                int64_t vectorWidth, int64_t threads,
                                int64_t bins) {
  int64_t vecsPerThread =
      llvm::divideCeil(vocab / split / vectorWidth, threads);
  int64_t cache =
      threads * (vecsPerThread * vectorWidth + binCachePad(vectorWidth)) * 2;
  return cache + 4 * kQueueCapacity + 12 * bins + 16 * kListCapacity + 2048;
}

} // namespace mlir::hkg::sampling

#endif // HKG_DIALECT_HKG_UTILS_SAMPLINGLAYOUT_H
