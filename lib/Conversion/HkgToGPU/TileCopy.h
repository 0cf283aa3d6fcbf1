//===- TileCopy.h - cooperative global -> LDS tile copies -------*- C++ -*-===//
//
// How the threads of a workgroup share the copy of a tile from global memory
// into LDS, in chunks of `vw` contiguous elements (one vector access, or one
// cp.async), shared by the matmul and attention kernels: which chunks a
// thread copies, and the accesses that move one chunk.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_TILECOPY_H
#define HKG_LIB_CONVERSION_HKGTOGPU_TILECOPY_H

#include "TileIndexing.h"

namespace mlir::hkg {

/// How a copy round computes its chunks' rows when the workgroup's threads
/// cover whole rows of the tile: the same chunks either way, in different
/// index code (the attention kernel was written with the first, the matmul
/// kernel with the second; each keeps its code).
enum class ChunkRowIndexing {
  /// (tid + first chunk of the round) / chunks per row, every round.
  FlatIndex,
  /// tid / chunks per row + the round's first row, when the threads cover
  /// whole rows.
  RowOffset,
};

/// Calls `fn(row, col)` for each `vw`-element chunk that thread `tid` of
/// `threads` copies of a `rows` x `cols` tile (cols contiguous, a multiple
/// of `vw`): chunk `tid + r * threads` in round r, chunks numbered along the
/// rows. In a last round that covers part of the tile, the surplus threads
/// repeat the last chunk (the same data to the same place).
void forEachCopyChunk(IndexArith &ix, Value tid, int64_t threads, int64_t rows,
                      int64_t cols, int64_t vw, ChunkRowIndexing indexing,
                      function_ref<void(Value row, Value col)> fn);

/// Issues one cp.async (nvgpu.device_async_copy) of `vw` elements from
/// `src[srcIndices]` to the LDS buffer `dst[dstIndices]` and returns its
/// token. `srcElements` (null: all `vw`) is how many elements to read, the
/// rest being zero-filled. 16-byte chunks bypass L1 (cp.async.cg).
Value asyncCopyChunk(OpBuilder &b, Location loc, Value dst,
                     ValueRange dstIndices, Value src, ValueRange srcIndices,
                     int64_t vw, Value srcElements = Value());

/// Commits the cp.async copies `tokens` as one group and returns its token.
Value commitAsyncCopies(OpBuilder &b, Location loc, ValueRange tokens);

/// Loads / stores one `vw`-element chunk with a vector access aligned to
/// its size (16 bytes at most).
Value loadChunk(OpBuilder &b, Location loc, Value src, ValueRange indices,
                int64_t vw);
void storeChunk(OpBuilder &b, Location loc, Value v, Value dst,
                ValueRange indices);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_TILECOPY_H
