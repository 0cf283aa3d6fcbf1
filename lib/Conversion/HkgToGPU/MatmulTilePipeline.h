//===- MatmulTilePipeline.h - the matmul kernel's tile pipeline -*- C++ -*-===//
//
// The parts of the hkg.matmul kernel that do not depend on the matrix-core
// family (grid and tile mapping, the cooperative global -> LDS copies of the
// operand tiles, the K pipeline over `stages` LDS buffers, split-K and the
// fused epilogue at the store), and the interface through which a family
// (MatmulFMA.cpp, MatmulMmaSync.cpp, MatmulWgmma.cpp, MatmulMFMA.cpp,
// MatmulWMMA.cpp) supplies the rest: its accumulators, the inner product of
// one K step read from LDS, and where each accumulator lands in the tile.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_MATMULTILEPIPELINE_H
#define HKG_LIB_CONVERSION_HKGTOGPU_MATMULTILEPIPELINE_H

#include "Matmul.h"
#include "TileIndexing.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <memory>

namespace mlir::hkg::matmul {

/// One operand tile in LDS: memref<stages x rows x (cols + pad)>, `cols`
/// contiguous in global memory too.
struct LdsTile {
  Value buf;
  /// The LDS shape (rows x cols, cols contiguous).
  int64_t rows = 0, cols = 0;
  /// Whether LDS holds the transpose of the global tile (so that K is
  /// contiguous for the AMD fragment loads); the copy then scatters.
  bool transposed = false;
  /// wgmma's MN-major operand (B as [K, N]): the tile's columns in panels
  /// of `panelCols` (64 for 16-bit: 128-byte rows), panel p's rows
  /// following panel p - 1's in LDS; 0 = one panel.
  int64_t panelCols = 0;
  int64_t tileRows() const {
    return panelCols ? rows / numPanels : transposed ? cols : rows;
  }
  int64_t tileCols() const {
    return panelCols ? cols * numPanels : transposed ? rows : cols;
  }
  int64_t numPanels = 1;
  /// The tile's rows run along K (B as [K, N], A as [K, M]) and each group
  /// of 8 is stored interleaved: K row 8q + r at LDS row 8q + 2r for r < 4,
  /// 8q + 2(r - 4) + 1 for r >= 4 (MatmulMmaSyncTf32x3.cpp: the K rows r and
  /// r + 4 of one tf32 B fragment land on adjacent LDS rows).
  bool kRowsInterleaved = false;
  bool swizzle = false;
  /// Elements per 16-byte chunk (the unit of the XOR swizzle).
  int64_t chunkElems = 8;
};

/// Global view of an operand: memref<batch x rows x cols>.
struct GlobalOperand {
  Value view;
  int64_t rows = 0, cols = 0;
  /// A dynamic M among the rows or columns (index), else null.
  Value dynRows = {}, dynCols = {};
};

/// What the pipeline and the matrix-core family share while one kernel is
/// built: the schedule, the problem, the LDS tiles, the thread's
/// coordinates, and the reads of LDS tiles (MatmulLdsTile.cpp).
struct KernelState : IndexArith {
  KernelState(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
              const MatmulSchedule &s, const TargetInfo &target);

  /// The LDS column of tile element (row, col) of a one-panel tile: the
  /// 16-byte chunk XOR-swizzled when the tile is.
  Value physCol(const LdsTile &t, Value row, Value col);
  /// The LDS (row, column) of tile element (row, col), panels, interleaved
  /// K rows and swizzle applied.
  std::pair<Value, Value> ldsIndex(const LdsTile &t, Value row, Value col);
  /// Reads `len` contiguous LDS elements (within one 16-byte chunk).
  Value loadLds(const LdsTile &t, Value stage, Value row, Value col,
                int64_t len);
  /// Reads A(mi, ki..ki+len) / B(ki..ki+len, ni) as a vector along K.
  Value loadAlongK(const LdsTile &t, bool kContiguous, Value stage, Value mn,
                   Value k0, int64_t len);
  /// Alignment of a `len`-element access at a multiple of `len` elements.
  static llvm::MaybeAlign align(int64_t len, Type elem);

  gpu::GPUFuncOp kernel;
  MatmulOp op;
  const TargetInfo &target;

  int64_t tm, tn, tk, wm, wn, stages, vw, pad, unroll, groupM, splitK;
  /// split_k_reduce = workspace (otherwise cluster).
  bool splitKWorkspace;
  /// wgmma groups left in flight across K steps (0 or 1).
  int64_t wgmmaPending;
  /// Persistent workgroups walk the output tiles in turn (cp.async only).
  bool persistent;
  /// The results go out through LDS (MatmulEpilogue.cpp).
  bool epilogueLds;
  /// 3xTF32's split (MatmulMmaSyncTf32x3.cpp, MatmulWgmmaTf32x3.cpp).
  Tf32Split tf32Split;
  /// fp8 wgmma: each K step's sum promoted into f32 (MatmulWgmma.cpp).
  bool wgmmaPromote;
  bool swizzle;
  MmaInstruction mma;
  int64_t mmaM, mmaN, mmaK;
  int64_t waveSize, threads;
  Type elemT, resT;
  /// The accumulators' element type: i32 for i8 operands, f32 otherwise
  /// (MatmulOp::getAccumulatorType).
  Type accT;
  /// A dynamic M (hkg.matmul's isDynamicM) is `m` = the size hint when the
  /// schedule was chosen; the kernel uses `dynM`, its size parameter.
  int64_t batch, m, n, k, elemBytes;
  Value dynM;
  bool transA, transB;
  /// Whether the tiles are copied with cp.async (NVIDIA, 4 bytes or more
  /// per chunk); otherwise through registers.
  bool async;

  LdsTile ldsA, ldsB;
  Value tid, lane, waveRow, waveCol, batchIdx, m0, n0;
  /// The K step computeStage computes (the K loop's induction variable;
  /// the flat step of the persistent loop).
  Value kStepIndex;
};

/// A matrix-core family's part of the kernel.
class MatrixCore : protected IndexArith {
public:
  explicit MatrixCore(KernelState &t) : IndexArith(t.b, t.loc), t(t) {}
  virtual ~MatrixCore() = default;

  /// Whether the family reads its LDS tiles with K contiguous (the copy then
  /// transposes an operand whose global rows run along K).
  virtual bool wantsKContiguousLds() const { return false; }
  /// Alignment in bytes of the LDS tiles.
  virtual int64_t ldsAlignment() const { return 16; }
  /// Columns per panel of B's LDS tile (LdsTile::panelCols; 0: one panel).
  virtual int64_t panelColsOfB() const { return 0; }
  /// Whether an LDS tile whose rows run along K stores them interleaved
  /// (LdsTile::kRowsInterleaved).
  virtual bool interleavesKRows() const { return false; }

  /// Sets the first row and column of this thread's wave in the tile
  /// (t.waveRow, t.waveCol) from its wave index: waves_m x waves_n waves
  /// split the tile.
  virtual void placeWave(Value wave);

  /// The zero accumulators of a thread.
  virtual SmallVector<Value> initAccumulators() = 0;
  /// Accumulates the product of the A and B tiles of LDS stage `stage`.
  virtual SmallVector<Value> computeStage(Value stage, ValueRange acc) = 0;
  /// Calls `fn(rowInTile, colInTile, values)` for each run of accumulator
  /// values contiguous along N.
  using ResultRunFn = function_ref<void(Value, Value, ArrayRef<Value>)>;
  virtual void forEachResultRun(ValueRange acc, ResultRunFn fn) = 0;

  /// cp.async pipeline: called once a step's tile has arrived, before the
  /// barrier that publishes it to the workgroup.
  virtual void beforeStageBarrier() {}
  /// Called with the K loop's results, before they are read.
  virtual SmallVector<Value> finishKLoop(SmallVector<Value> acc) { return acc; }
  /// Called with the K loops once `unroll` unrolled them (the main loop and
  /// a remainder loop, either of which may be gone).
  virtual void afterKLoopUnrolled(ArrayRef<scf::ForOp> loops) {}

protected:
  KernelState &t;
};

/// The families (one file each).
std::unique_ptr<MatrixCore> createFmaCore(KernelState &t);
std::unique_ptr<MatrixCore> createMmaSyncCore(KernelState &t);
std::unique_ptr<MatrixCore> createMmaSyncTf32x3Core(KernelState &t);
std::unique_ptr<MatrixCore> createWgmmaCore(KernelState &t);
std::unique_ptr<MatrixCore> createWgmmaTf32x3Core(KernelState &t);
std::unique_ptr<MatrixCore> createMfmaCore(KernelState &t);
std::unique_ptr<MatrixCore> createWmmaCore(KernelState &t);

/// Builds the kernel: the tile pipeline around the family of the schedule's
/// `mma` (MatmulTilePipeline.cpp; stores and split-K in
/// MatmulEpilogue.cpp).
class TilePipeline : public KernelState {
public:
  /// `args`: the kernel's buffers (lhs, rhs, epilogue inputs, result);
  /// `dynM`: with a dynamic M, its value (index), else null.
  TilePipeline(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
               const MatmulSchedule &s, const TargetInfo &target,
               ValueRange args, Value dynM);

  FailureOr<MatmulLaunch> build();

private:
  /// `arg` as [batch, rows, cols]; a dynamic M (dynRows / dynCols) when
  /// given.
  GlobalOperand globalView(Value arg, int64_t rows, int64_t cols,
                           Value dynRows = {}, Value dynCols = {});
  /// `rowsAlongK`: the tile's LDS rows run along K (interleaved if the
  /// family asks).
  LdsTile allocLds(int64_t rows, int64_t cols, bool transposed, bool rowsAlongK,
                   int64_t panelCols = 0);
  /// Maps the workgroup to its tile (m0, n0, batchIdx); returns its rank in
  /// the cluster with split_k > 1, null otherwise.
  /// `dynTilesM`: with a dynamic M, the tile rows (index).
  Value mapTile(int64_t tilesM, int64_t tilesN, Value dynTilesM = {});
  /// Sets m0 and n0 from the tile index `pid` within one batch: tiles
  /// visited in groups of group_m rows of tiles.
  void placeTile(Value pid, int64_t tilesM, int64_t tilesN, Value dynTilesM);
  /// persistent = 1: the workgroups the chip keeps resident, up to the
  /// output tiles (after the LDS tiles are allocated).
  int64_t persistentWorkgroups(int64_t tiles) const;

  /// Calls `fn(valid, globalRow, globalCol, ldsRow, ldsCol)` for each
  /// vector_width chunk this thread copies of the tile at (row0, col0) of
  /// `g`. `valid` is null when the chunk is known to be in bounds.
  void forEachChunk(const LdsTile &t, const GlobalOperand &g, Value row0,
                    Value col0,
                    function_ref<void(Value, Value, Value, Value, Value)> fn);
  void
  forEachTileChunk(Value kt,
                   function_ref<void(const LdsTile &, const GlobalOperand &,
                                     Value, Value, Value, Value, Value)>
                       fn);
  /// The tile origins of A and B for K offset `k0`.
  std::pair<Value, Value> originA(Value k0) {
    return transA ? std::make_pair(k0, m0) : std::make_pair(m0, k0);
  }
  std::pair<Value, Value> originB(Value k0) {
    return transB ? std::make_pair(n0, k0) : std::make_pair(k0, n0);
  }
  /// Issues the cp.async copies of K tile `kt` into LDS stage `stage`.
  SmallVector<Value> issueAsyncCopy(Value kt, Value stage);
  /// Loads K tile `kt` from global memory into registers (AMD path).
  SmallVector<Value> loadTileToRegisters(Value kt);
  /// Stores registers from loadTileToRegisters into LDS stage `stage`.
  void storeRegistersToLds(ArrayRef<Value> regs, Value stage);

  /// The K step of this workgroup's `local` one (split_k: its share).
  Value kStep(Value local) { return splitK > 1 ? add(kBegin, local) : local; }
  /// The K loop over `numK` steps, fed by cp.async (`stages`-deep) or by
  /// register prefetch; returns the accumulators.
  SmallVector<Value> buildAsyncKLoop(ValueRange acc, int64_t numK, Value zero,
                                     Value one);
  /// persistent = 1: one cp.async pipeline over this workgroup's tiles
  /// (tile pid, pid + `workgroups`, ...) and their K steps, the epilogue
  /// stored after each tile's last step; the tiles' coordinates come from
  /// `tilesM` x `tilesN` per batch.
  void buildPersistentLoop(ValueRange acc, int64_t numK, int64_t tilesM,
                           int64_t tilesN, int64_t workgroups);
  SmallVector<Value> buildPrefetchKLoop(ValueRange acc, int64_t numK,
                                        Value zero, Value one);
  /// Unrolls the K loop by the `unroll` knob (the stage indices of
  /// consecutive steps then fold to constants when unroll divides stages).
  LogicalResult unrollKLoop(scf::ForOp loop);

  // MatmulEpilogue.cpp.
  /// Stores the accumulators of every thread, through the epilogue.
  void storeResults(ArrayRef<Value> acc);
  void storeRun(Value row, Value col, ArrayRef<Value> values);
  /// epilogue_lds = 1: the accumulators to B's LDS buffers (f32, 32-byte
  /// chunks XOR-swizzled by row), then each thread reads 8 row-contiguous
  /// values at a time and stores them through the epilogue.
  void storeResultsThroughLds(ArrayRef<Value> acc);
  /// Stores the run at global (gm, gn), known in bounds, through the
  /// epilogue (vector loads and stores).
  void storeRunInBounds(Value gm, Value gn, ArrayRef<Value> values);
  /// The indices of epilogue operand `e` for output element (gm, gn).
  SmallVector<Value> epilogueIndices(unsigned e, Value gm, Value gn);
  /// split_k > 1: publishes this thread's accumulators in LDS, and the
  /// cluster's first workgroup adds those of the others (mapa +
  /// ld.shared::cluster, between cluster barriers that every thread of the
  /// cluster reaches) and calls `store` with the sums.
  void reduceAcrossClusterAndStore(ArrayRef<Value> acc, Value rank,
                                   function_ref<void(ArrayRef<Value>)> store);
  /// split_k_reduce = workspace (MatmulSplitKWorkspace.cpp): stores this
  /// thread's accumulators in a global workspace of the kernel's module;
  /// the last workgroup of each group to arrive (an atomic counter) adds
  /// the group's partials in rank order, level by level, and the last one
  /// calls `store` with the sums.
  void
  reduceThroughWorkspaceAndStore(ArrayRef<Value> acc, Value rank,
                                 function_ref<void(ArrayRef<Value>)> store);
  Value applyEpilogue(Value acc, ArrayRef<Value> epilogueValues);
  /// The epilogue's math in its cheaper forms (MathRewrites.h), once the
  /// kernel is built.
  void rewriteEpilogueMath();

  std::unique_ptr<MatrixCore> core;
  GlobalOperand gA, gB, gOut;
  SmallVector<GlobalOperand> gEpi;
  SmallVector<int64_t> epiBatch;
  /// split_k > 1: this workgroup's first K step.
  Value kBegin;
  /// Output tiles (batches included), and this workgroup's (set by
  /// mapTile).
  int64_t numTiles = 1;
  Value tileIndex;
  scf::ForOp kLoop;
  SmallVector<Value> args;
};

} // namespace mlir::hkg::matmul

#endif // HKG_LIB_CONVERSION_HKGTOGPU_MATMULTILEPIPELINE_H
