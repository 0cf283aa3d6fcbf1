//===- Matmul.cpp - hkg.matmul to a tiled matrix-core kernel --------------===//
//
// One workgroup computes a tile_m x tile_n block of one batch of the result.
// The K dimension is walked in tile_k steps; each step's A and B tiles are
// copied into LDS (`stages` buffers, rows padded by lds_pad elements and/or
// 16-byte chunks XOR-swizzled), then waves_m x waves_n waves each compute a
// (tile_m / waves_m) x (tile_n / waves_n) warp tile from LDS:
//
//   - mma_16x8x16 (NVIDIA): nvgpu.ldmatrix (x4 / x2, .trans for operands
//     whose LDS rows run along M or N) feeding nvgpu.mma.sync m16n8k16;
//     tiles are copied with nvgpu.device_async_copy (cp.async, 16 bytes) in
//     a `stages`-deep pipeline (cp.async.wait_group stages - 2);
//   - wgmma_64xNx16 (NVIDIA sm_90a): warpgroup MMA (4 warps, 64 x N per
//     instruction) reading both operands from LDS through matrix
//     descriptors; the LDS tiles are the cp.async ones above, with 128-byte
//     rows (A and a K-major B: tile_k = 64 for 16-bit types; a B as [K, N]
//     in panels of 64 columns) whose 16-byte chunks are XOR-swizzled by
//     row % 8: the 128-byte-swizzle layouts the descriptors name, in
//     1024-byte aligned buffers. waves_m x waves_n count warpgroups; the
//     accumulators are one LLVM struct per thread. With wgmma_pending = 1
//     a step's MMAs stay in flight while the next step waits for its tile
//     and issues its copies (wgmma.wait_group 1); the refill then targets
//     the stage of two steps back, one tile fewer ahead;
//   - mfma_* (CDNA) and wmma_* (RDNA): per-lane vector.loads of the
//     documented operand layouts feeding amdgpu.mfma / amdgpu.wmma; the next
//     tile is prefetched from global memory into registers while the
//     current one is computed (double buffering in LDS when stages >= 2);
//   - none: a register-blocked FMA micro-tile per thread.
//
// LDS tiles keep the global layout of their operand (rows along the
// non-contiguous dim), so a global row chunk is copied without transposing;
// the fragment loads absorb transpose_a / transpose_b.
//
// The f32 accumulators stay in registers; at the end the op's epilogue
// region is cloned per element at the store, with each epilogue operand read
// at the suffix of (batch, m, n) it covers. Edges (M, N or K not multiples
// of the tile) are handled by zero-filled loads and guarded stores, emitted
// only when the static shape needs them.
//
//===----------------------------------------------------------------------===//

#include "Matmul.h"
#include "GPUBuildingBlocks.h"
#include "MatrixCore.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::hkg;

namespace {

enum class Core { Fma, MmaSync, Wgmma, Mfma, Wmma };

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
  bool swizzle = false;
  /// Elements per 16-byte chunk (the unit of the XOR swizzle).
  int64_t chunkElems = 8;
};

/// Global view of an operand: memref<batch x rows x cols>.
struct GlobalOperand {
  Value view;
  int64_t rows = 0, cols = 0;
};

class MatmulKernelBuilder {
public:
  MatmulKernelBuilder(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
                      const ResolvedSchedule &s, const TargetInfo &target)
      : b(b), loc(op.getLoc()), kernel(kernel), op(op), target(target) {
    MatmulSchedule sched = MatmulSchedule::decode(s);
    tm = sched.tileM;
    tn = sched.tileN;
    tk = sched.tileK;
    wm = sched.wavesM;
    wn = sched.wavesN;
    stages = sched.stages;
    vw = sched.vectorWidth;
    pad = sched.ldsPad;
    swizzle = sched.ldsSwizzle;
    unroll = sched.unroll;
    groupM = sched.groupM;
    splitK = sched.splitK;
    wgmmaPending = sched.wgmmaPending;
    mmaM = sched.mma.m;
    mmaN = sched.mma.n;
    mmaK = sched.mma.k;
    switch (sched.mma.family) {
    case MmaFamily::None:
      core = Core::Fma;
      break;
    case MmaFamily::MmaSync:
      core = Core::MmaSync;
      break;
    case MmaFamily::Wgmma:
      core = Core::Wgmma;
      break;
    case MmaFamily::Mfma:
      core = Core::Mfma;
      break;
    case MmaFamily::Wmma:
      core = Core::Wmma;
      break;
    }
    waveSize = target.waveSize;
    // With wgmma, waves_m x waves_n count warpgroups of 4 waves.
    threads = wm * wn * (core == Core::Wgmma ? 4 : 1) * waveSize;
    elemT = op.getLhs().getType().getElementType();
    resT = op.getResult().getType().getElementType();
    batch = op.getBatchSize();
    m = op.getM();
    n = op.getN();
    k = op.getK();
    transA = op.getTransposeA();
    transB = op.getTransposeB();
    elemBytes = elemT.getIntOrFloatBitWidth() / 8;
    // cp.async moves 4, 8 or 16 bytes.
    async = target.isNVIDIA() && vw * elemBytes >= 4;
  }

  FailureOr<MatmulLaunch> build();
  /// Unrolls the K loop by the `unroll` knob (the stage indices of
  /// consecutive steps then fold to constants when unroll divides stages).
  LogicalResult unrollKLoop(scf::ForOp loop) {
    if (unroll <= 1)
      return success();
    if (failed(loopUnrollByFactor(loop, unroll)))
      return op.emitOpError("failed to unroll the K loop by ") << unroll;
    return success();
  }

private:
  // Arithmetic on index values.
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, c(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
  Value lt(Value x, int64_t y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, c(y));
  }
  Value andI(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return arith::AndIOp::create(b, loc, x, y);
  }
  /// Alignment of a `len`-element access at a multiple of `len` elements.
  static llvm::MaybeAlign align(int64_t len, Type elem) {
    int64_t bytes = len * elem.getIntOrFloatBitWidth() / 8;
    return llvm::MaybeAlign(std::min<int64_t>(16, bytes));
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }

  GlobalOperand globalView(Value arg, int64_t rows, int64_t cols);
  LdsTile allocLds(int64_t rows, int64_t cols, bool transposed,
                   int64_t panelCols = 0);
  Value physCol(const LdsTile &t, Value row, Value col);
  /// The LDS (row, column) of tile element (row, col), panels and swizzle
  /// applied.
  std::pair<Value, Value> ldsIndex(const LdsTile &t, Value row, Value col);

  /// Calls `fn(valid, globalRow, globalCol, ldsRow, ldsCol)` for each
  /// vector_width chunk this thread copies of the tile at (row0, col0) of
  /// `g`. `valid` is null when the chunk is known to be in bounds.
  void forEachChunk(const LdsTile &t, const GlobalOperand &g, Value row0,
                    Value col0,
                    function_ref<void(Value, Value, Value, Value, Value)> fn);
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
  void forEachTileChunk(
      Value kt,
      function_ref<void(const LdsTile &, const GlobalOperand &, Value, Value,
                        Value, Value, Value)>
          fn);

  /// Reads `len` contiguous LDS elements (within one 16-byte chunk).
  Value loadLds(const LdsTile &t, Value stage, Value row, Value col,
                int64_t len);
  /// Reads A(mi, ki..ki+len) / B(ki..ki+len, ni) as a vector along K.
  Value loadAlongK(const LdsTile &t, bool kContiguous, Value stage, Value mn,
                   Value k0, int64_t len);

  SmallVector<Value> initAccumulators();
  SmallVector<Value> computeStage(Value stage, ValueRange acc);
  SmallVector<Value> computeFma(Value stage, ValueRange acc);
  SmallVector<Value> computeMmaSync(Value stage, ValueRange acc);
  SmallVector<Value> computeWgmma(Value stage, ValueRange acc);
  /// The shared-memory address of LDS buffer `buf` as i64.
  Value sharedAddress(Value buf);
  /// A wgmma matrix descriptor of the 128-byte-swizzle tile at shared
  /// address `addr` (i64); `leadingBytes`: the MN-major panel stride (16, a
  /// placeholder, for K-major tiles).
  Value wgmmaDescriptor(Value addr, int64_t leadingBytes = 16);
  /// The LLVM struct of the thread's wgmma accumulators.
  Type wgmmaAccType();
  /// Inline PTX `text` with side effects, no operands.
  void sideEffectAsm(StringRef text);
  /// Inline PTX `text` that reads and rewrites the accumulator struct `acc`
  /// in place (its registers tied), so that nothing moves the accumulators
  /// across it: wgmma.fence / wait_group.
  Value accumulatorAsm(StringRef text, Value acc);
  SmallVector<Value> computeAmd(Value stage, ValueRange acc);

  /// Calls `fn(rowInTile, colInTile, values)` for each run of accumulator
  /// values contiguous along N.
  void forEachResultRun(ValueRange acc,
                        function_ref<void(Value, Value, ArrayRef<Value>)> fn);
  void storeRun(Value row, Value col, ArrayRef<Value> values);
  /// split_k > 1: publishes this thread's accumulators in LDS, and the
  /// cluster's first workgroup adds those of the others (mapa +
  /// ld.shared::cluster, between cluster barriers that every thread of the
  /// cluster reaches) and calls `store` with the sums.
  void reduceAcrossClusterAndStore(ArrayRef<Value> acc, Value rank,
                                   function_ref<void(ArrayRef<Value>)> store);
  Value applyEpilogue(Value acc, ArrayRef<Value> epilogueValues);

  OpBuilder &b;
  Location loc;
  gpu::GPUFuncOp kernel;
  MatmulOp op;
  const TargetInfo &target;

  int64_t tm, tn, tk, wm, wn, stages, vw, pad, unroll, groupM, splitK;
  /// wgmma groups left in flight across K steps (0 or 1).
  int64_t wgmmaPending = 0;
  bool swizzle;
  Core core = Core::Fma;
  int64_t mmaM = 1, mmaN = 1, mmaK = 1;
  int64_t waveSize, threads;
  Type elemT, resT;
  int64_t batch, m, n, k, elemBytes;
  bool transA, transB, async;

  GlobalOperand gA, gB, gOut;
  SmallVector<GlobalOperand> gEpi;
  SmallVector<int64_t> epiBatch;
  LdsTile ldsA, ldsB;
  Value tid, lane, waveRow, waveCol, batchIdx, m0, n0;
  /// wgmma: the warpgroup's first row and column in the tile.
  Value wgRow, wgCol;
  scf::ForOp kLoop;
};

} // namespace

//===----------------------------------------------------------------------===//
// Views and LDS
//===----------------------------------------------------------------------===//

GlobalOperand MatmulKernelBuilder::globalView(Value arg, int64_t rows,
                                              int64_t cols) {
  auto type = cast<MemRefType>(arg.getType());
  int64_t numBatch = type.getNumElements() / (rows * cols);
  SmallVector<int64_t> shape = {numBatch, rows, cols};
  SmallVector<int64_t> strides = {rows * cols, cols, 1};
  auto viewType = MemRefType::get(shape, type.getElementType(),
                                  MemRefLayoutAttrInterface(),
                                  type.getMemorySpace());
  Value v = memref::ReinterpretCastOp::create(b, loc, viewType, arg,
                                              /*offset=*/0, shape, strides);
  return {v, rows, cols};
}

LdsTile MatmulKernelBuilder::allocLds(int64_t tileRows, int64_t tileCols,
                                      bool transposed, int64_t panelCols) {
  int64_t rows = transposed ? tileCols : tileRows;
  int64_t cols = transposed ? tileRows : tileCols;
  int64_t numPanels = 1;
  if (panelCols && cols > panelCols) {
    numPanels = cols / panelCols;
    rows *= numPanels;
    cols = panelCols;
  }
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  auto type = MemRefType::get({stages, rows, cols + pad}, elemT,
                              MemRefLayoutAttrInterface(), space);
  LdsTile t;
  t.buf = kernel.addWorkgroupAttribution(type, loc);
  // 16-byte chunks (cp.async, ldmatrix rows, ds_read_b128) need 16-byte
  // aligned buffers; wgmma's 128-byte swizzle repeats every 1024 bytes.
  kernel.setWorkgroupAttributionAttr(
      kernel.getNumWorkgroupAttributions() - 1,
      LLVM::LLVMDialect::getAlignAttrName(),
      b.getI64IntegerAttr(core == Core::Wgmma ? 1024 : 16));
  t.rows = rows;
  t.cols = cols;
  t.transposed = transposed;
  t.panelCols = numPanels > 1 ? panelCols : 0;
  t.numPanels = numPanels;
  t.chunkElems = 16 / elemBytes;
  t.swizzle = swizzle && cols / t.chunkElems > 1;
  return t;
}

/// With the swizzle on, 16-byte chunk j of LDS row r lives at chunk
/// j ^ phase(r), where phase cycles through the chunks of a 128-byte line
/// every 128 bytes of rows: 8 consecutive rows read at the same logical
/// chunk (an ldmatrix, a column of a fragment) hit 8 distinct bank groups.
Value MatmulKernelBuilder::physCol(const LdsTile &t, Value row, Value col) {
  if (!t.swizzle)
    return col;
  int64_t chunks = t.cols / t.chunkElems;
  int64_t rowsPerLine = std::max<int64_t>(1, 8 / chunks);
  int64_t phases = std::min<int64_t>(chunks, 8);
  Value phase = rem(div(row, rowsPerLine), phases);
  Value chunk = div(col, t.chunkElems);
  Value within = rem(col, t.chunkElems);
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, phase);
  return add(mul(swizzled, t.chunkElems), within);
}

std::pair<Value, Value> MatmulKernelBuilder::ldsIndex(const LdsTile &t,
                                                     Value row, Value col) {
  if (t.panelCols) {
    row = add(mul(div(col, t.panelCols), t.tileRows()), row);
    col = rem(col, t.panelCols);
  }
  return {row, physCol(t, row, col)};
}

Value MatmulKernelBuilder::loadLds(const LdsTile &t, Value stage, Value row,
                                   Value col, int64_t len) {
  Value pc = physCol(t, row, col);
  if (len == 1)
    return memref::LoadOp::create(b, loc, t.buf, ValueRange{stage, row, pc});
  auto vt = VectorType::get({len}, elemT);
  return vector::LoadOp::create(b, loc, vt, t.buf, ValueRange{stage, row, pc},
                                /*nontemporal=*/false, align(len, elemT));
}

Value MatmulKernelBuilder::loadAlongK(const LdsTile &t, bool kContiguous,
                                      Value stage, Value mn, Value k0,
                                      int64_t len) {
  auto vt = VectorType::get({len}, elemT);
  if (kContiguous) {
    // Split at 16-byte chunks (the swizzle unit).
    int64_t piece = std::min(len, t.chunkElems);
    if (piece == len)
      return loadLds(t, stage, mn, k0, len);
    // Concatenate the chunks with shuffles (insert_strided_slice has no
    // direct LLVM lowering in the GPU conversions).
    SmallVector<Value> parts;
    for (int64_t i = 0; i < len; i += piece)
      parts.push_back(loadLds(t, stage, mn, add(k0, i), piece));
    while (parts.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i < parts.size(); i += 2) {
        int64_t w = cast<VectorType>(parts[i].getType()).getNumElements();
        SmallVector<int64_t> mask = llvm::to_vector(llvm::seq<int64_t>(0, 2 * w));
        next.push_back(vector::ShuffleOp::create(b, loc, parts[i],
                                                 parts[i + 1], mask));
      }
      parts = std::move(next);
    }
    return parts.front();
  }
  SmallVector<Value> elems;
  for (int64_t i = 0; i < len; ++i)
    elems.push_back(loadLds(t, stage, add(k0, i), mn, 1));
  return vector::FromElementsOp::create(b, loc, vt, elems);
}

//===----------------------------------------------------------------------===//
// Global -> LDS copies
//===----------------------------------------------------------------------===//

void MatmulKernelBuilder::forEachChunk(
    const LdsTile &t, const GlobalOperand &g, Value row0, Value col0,
    function_ref<void(Value, Value, Value, Value, Value)> fn) {
  int64_t chunksPerRow = t.tileCols() / vw;
  int64_t total = t.tileRows() * chunksPerRow;
  bool maskRows = g.rows % t.tileRows() != 0;
  bool maskCols = g.cols % t.tileCols() != 0;
  for (int64_t first = 0; first < total; first += threads) {
    Value lr, lc;
    if (first + threads > total) {
      // The last round covers part of the tile: surplus threads repeat the
      // last chunk (same data to the same place).
      Value id = arith::MinUIOp::create(b, loc, add(tid, first), c(total - 1));
      lr = div(id, chunksPerRow);
      lc = mul(rem(id, chunksPerRow), vw);
    } else if (threads % chunksPerRow == 0) {
      lr = add(div(tid, chunksPerRow), first / chunksPerRow);
      lc = mul(rem(tid, chunksPerRow), vw);
    } else {
      Value id = add(tid, first);
      lr = div(id, chunksPerRow);
      lc = mul(rem(id, chunksPerRow), vw);
    }
    Value gr = add(row0, lr), gc = add(col0, lc);
    Value valid;
    if (maskRows)
      valid = lt(gr, g.rows);
    if (maskCols)
      valid = andI(valid, lt(gc, g.cols));
    fn(valid, gr, gc, lr, lc);
  }
}

void MatmulKernelBuilder::forEachTileChunk(
    Value kt,
    function_ref<void(const LdsTile &, const GlobalOperand &, Value, Value,
                      Value, Value, Value)>
        fn) {
  Value k0 = mul(kt, tk);
  auto [ar, ac] = originA(k0);
  forEachChunk(ldsA, gA, ar, ac, [&](Value v, Value gr, Value gc, Value lr,
                                     Value lc) { fn(ldsA, gA, v, gr, gc, lr, lc); });
  auto [br, bc] = originB(k0);
  forEachChunk(ldsB, gB, br, bc, [&](Value v, Value gr, Value gc, Value lr,
                                     Value lc) { fn(ldsB, gB, v, gr, gc, lr, lc); });
}

SmallVector<Value> MatmulKernelBuilder::issueAsyncCopy(Value kt,
                                                       Value stage) {
  SmallVector<Value> tokens;
  forEachTileChunk(kt, [&](const LdsTile &t, const GlobalOperand &g,
                           Value valid, Value gr, Value gc, Value lr,
                           Value lc) {
    Value srcElements;
    if (valid) {
      // Out-of-bounds chunks read nothing (zero fill) from a safe address.
      Value zero = c(0);
      gr = select(valid, gr, zero);
      gc = select(valid, gc, zero);
      srcElements = select(valid, c(vw), zero);
    }
    auto [lrow, lcol] = ldsIndex(t, lr, lc);
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, t.buf, ValueRange{stage, lrow, lcol}, g.view,
        ValueRange{batchIdx, gr, gc}, b.getIndexAttr(vw), srcElements,
        vw * elemBytes == 16 ? b.getUnitAttr() : UnitAttr()));
  });
  return tokens;
}

SmallVector<Value> MatmulKernelBuilder::loadTileToRegisters(Value kt) {
  SmallVector<Value> regs;
  auto vt = VectorType::get({vw}, elemT);
  forEachTileChunk(kt, [&](const LdsTile &, const GlobalOperand &g,
                           Value valid, Value gr, Value gc, Value, Value) {
    if (valid) {
      Value zero = c(0);
      gr = select(valid, gr, zero);
      gc = select(valid, gc, zero);
    }
    Value v = vector::LoadOp::create(b, loc, vt, g.view,
                                     ValueRange{batchIdx, gr, gc},
                                     /*nontemporal=*/false, align(vw, elemT));
    if (valid) {
      Value zeros = arith::ConstantOp::create(b, loc, vt, b.getZeroAttr(vt));
      v = select(valid, v, zeros);
    }
    regs.push_back(v);
  });
  return regs;
}

void MatmulKernelBuilder::storeRegistersToLds(ArrayRef<Value> regs,
                                              Value stage) {
  unsigned i = 0;
  // Same traversal as loadTileToRegisters; the K offset does not matter.
  forEachTileChunk(c(0), [&](const LdsTile &t, const GlobalOperand &, Value,
                             Value, Value, Value lr, Value lc) {
    Value v = regs[i++];
    if (!t.transposed) {
      vector::StoreOp::create(b, loc, v, t.buf,
                              ValueRange{stage, lr, physCol(t, lr, lc)},
                              /*nontemporal=*/false, align(vw, elemT));
      return;
    }
    for (int64_t e = 0; e < vw; ++e) {
      Value row = add(lc, e);
      Value x = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e});
      memref::StoreOp::create(b, loc, x, t.buf,
                              ValueRange{stage, row, physCol(t, row, lr)});
    }
  });
}

//===----------------------------------------------------------------------===//
// Warp-tile compute
//===----------------------------------------------------------------------===//

/// FMA micro-tiles: lanes form a ly x lx grid inside the warp tile; a lane
/// owns rows r0 + i * ly and the contiguous columns c0 .. c0 + rn.
static std::pair<int64_t, int64_t> fmaLaneGrid(int64_t waveSize) {
  return waveSize == 64 ? std::make_pair<int64_t, int64_t>(8, 8)
                        : std::make_pair<int64_t, int64_t>(4, 8);
}

SmallVector<Value> MatmulKernelBuilder::initAccumulators() {
  int64_t wtm = tm / wm, wtn = tn / wn;
  Type f32 = b.getF32Type();
  auto zeros = [&](VectorType vt) -> Value {
    return arith::ConstantOp::create(b, loc, vt, b.getZeroAttr(vt));
  };
  SmallVector<Value> acc;
  switch (core) {
  case Core::Fma: {
    auto [ly, lx] = fmaLaneGrid(waveSize);
    for (int64_t i = 0; i < wtm / ly; ++i)
      acc.push_back(zeros(VectorType::get({wtn / lx}, f32)));
    break;
  }
  case Core::Wgmma:
    acc.push_back(LLVM::ZeroOp::create(b, loc, wgmmaAccType()));
    break;
  case Core::MmaSync:
    // vector<4xf32> per m16n8 tile (1-D: n-D loop-carried vectors do not
    // convert to LLVM).
    for (int64_t i = 0; i < (wtm / 16) * (wtn / 8); ++i)
      acc.push_back(zeros(VectorType::get({4}, f32)));
    break;
  case Core::Mfma:
  case Core::Wmma: {
    int64_t perLane = mmaM * mmaN / waveSize;
    for (int64_t i = 0; i < (wtm / mmaM) * (wtn / mmaN); ++i)
      acc.push_back(zeros(VectorType::get({perLane}, f32)));
    break;
  }
  }
  return acc;
}

SmallVector<Value> MatmulKernelBuilder::computeStage(Value stage,
                                                     ValueRange acc) {
  switch (core) {
  case Core::Fma:
    return computeFma(stage, acc);
  case Core::MmaSync:
    return computeMmaSync(stage, acc);
  case Core::Wgmma:
    return computeWgmma(stage, acc);
  case Core::Mfma:
  case Core::Wmma:
    return computeAmd(stage, acc);
  }
  llvm_unreachable("unknown core");
}

SmallVector<Value> MatmulKernelBuilder::computeFma(Value stage,
                                                   ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  auto [ly, lx] = fmaLaneGrid(waveSize);
  int64_t rm = (tm / wm) / ly, rn = (tn / wn) / lx;
  Value laneY = div(lane, lx), laneX = rem(lane, lx);
  Value rowBase = add(waveRow, laneY);
  Value colBase = add(waveCol, mul(laneX, rn));
  auto f32 = b.getF32Type();
  auto accType = VectorType::get({rn}, f32);
  for (int64_t kk = 0; kk < tk; ++kk) {
    Value kv = c(kk);
    // B(kk, colBase .. colBase + rn), widened to f32.
    Value bRow;
    if (transB) {
      SmallVector<Value> elems;
      for (int64_t j = 0; j < rn; ++j)
        elems.push_back(loadLds(ldsB, stage, add(colBase, j), kv, 1));
      bRow = vector::FromElementsOp::create(
          b, loc, VectorType::get({rn}, elemT), elems);
    } else {
      bRow = loadAlongK(ldsB, /*kContiguous=*/true, stage, kv, colBase, rn);
    }
    // One column per lane (rn = 1) loads a scalar.
    if (!isa<VectorType>(bRow.getType()))
      bRow = vector::FromElementsOp::create(
          b, loc, VectorType::get({rn}, elemT), ValueRange{bRow});
    if (elemT != f32)
      bRow = arith::ExtFOp::create(b, loc, accType, bRow);
    for (int64_t i = 0; i < rm; ++i) {
      Value row = add(rowBase, i * ly);
      Value a = transA ? loadLds(ldsA, stage, kv, row, 1)
                       : loadLds(ldsA, stage, row, kv, 1);
      if (elemT != f32)
        a = arith::ExtFOp::create(b, loc, f32, a);
      Value aSplat = vector::BroadcastOp::create(b, loc, accType, a);
      acc[i] = vector::FMAOp::create(b, loc, aSplat, bRow, acc[i]);
    }
  }
  return acc;
}

SmallVector<Value> MatmulKernelBuilder::computeMmaSync(Value stage,
                                                       ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  int64_t mt = (tm / wm) / 16, nt = (tn / wn) / 8;
  // ldmatrix: lane l gives the row address of 8x8 matrix l / 8.
  Value r8 = rem(lane, 8), j = div(lane, 8);
  Value jLow = rem(j, 2), jHigh = div(j, 2);
  auto aType = VectorType::get({4, 2}, elemT);
  auto bPairType = VectorType::get({4, 2}, elemT);
  auto bType = VectorType::get({2, 2}, elemT);
  for (int64_t kk = 0; kk < tk; kk += 16) {
    SmallVector<Value> aFrag, bFrag;
    for (int64_t i = 0; i < mt; ++i) {
      Value mBase = add(waveRow, i * 16);
      // Matrices: (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15),
      // (m 8-15, k 8-15).
      Value row, col;
      if (!transA) {
        row = add(add(mBase, r8), mul(jLow, 8));
        col = add(mul(jHigh, 8), kk);
      } else {
        row = add(add(c(kk), r8), mul(jHigh, 8));
        col = add(mBase, mul(jLow, 8));
      }
      aFrag.push_back(nvgpu::LdMatrixOp::create(
          b, loc, aType, ldsA.buf,
          ValueRange{stage, row, physCol(ldsA, row, col)}, transA, 4));
    }
    for (int64_t jn = 0; jn < nt; jn += 2) {
      Value nBase = add(waveCol, jn * 8);
      bool pair = jn + 1 < nt;
      // Matrices: (n 0-7, k 0-7), (n 0-7, k 8-15) [, (n 8-15, k 0-7),
      // (n 8-15, k 8-15)].
      Value jl = pair ? jLow : rem(j, 2);
      Value jh = pair ? jHigh : c(0);
      Value row, col;
      if (transB) {
        row = add(add(nBase, r8), mul(jh, 8));
        col = add(mul(jl, 8), kk);
      } else {
        row = add(add(c(kk), r8), mul(jl, 8));
        col = add(nBase, mul(jh, 8));
      }
      Value v = nvgpu::LdMatrixOp::create(
          b, loc, pair ? bPairType : bType, ldsB.buf,
          ValueRange{stage, row, physCol(ldsB, row, col)}, !transB,
          pair ? 4 : 2);
      if (!pair) {
        bFrag.push_back(v);
        continue;
      }
      auto [first, second] = splitLdMatrixX4(b, loc, v);
      bFrag.push_back(first);
      bFrag.push_back(second);
    }
    for (int64_t i = 0; i < mt; ++i)
      for (int64_t jn = 0; jn < nt; ++jn) {
        Value &accV = acc[i * nt + jn];
        accV = mmaSyncM16N8K16(b, loc, aFrag[i], bFrag[jn], accV);
      }
  }
  return acc;
}

/// Operand layouts of the AMD matrix cores, per lane `l` of the wave:
///  - MFMA MxNxK (wave64, G = 64 / M lane groups, kPer = K / G):
///      A[l % M][g * kPer + i], B[g * kPer + i][l % N], g = l / M;
///      C[(i / 4) * 4G + 4g + i % 4][l % N].
///  - WMMA 16x16x16 on gfx11 (wave32, inputs replicated in both halves):
///      A[l % 16][i], B[i][l % 16], i < 16; C[2i + l / 16][l % 16].
///  - WMMA 16x16x16 on gfx12: A[l % 16][8h + i], B[8h + i][l % 16], i < 8,
///      h = l / 16; C[i + 8h][l % 16].
//===----------------------------------------------------------------------===//
// Warpgroup MMA (sm_90a)
//===----------------------------------------------------------------------===//

Type MatmulKernelBuilder::wgmmaAccType() {
  return LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(mmaN / 2, b.getF32Type()));
}

void MatmulKernelBuilder::sideEffectAsm(StringRef text) {
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, ValueRange{}, text, "",
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
}

/// `n` f32 outputs and `first`.. inputs tied to them, as constraints.
static std::string tiedF32Constraints(int64_t n, StringRef middle) {
  std::string c;
  for (int64_t i = 0; i < n; ++i)
    c += "=f,";
  c += middle.str();
  for (int64_t i = 0; i < n; ++i)
    c += (c.empty() || c.back() == ',' ? "" : ",") + std::to_string(i);
  return c;
}

Value MatmulKernelBuilder::accumulatorAsm(StringRef text, Value acc) {
  int64_t n = mmaN / 2;
  SmallVector<Value> operands;
  for (int64_t i = 0; i < n; ++i)
    operands.push_back(
        LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, wgmmaAccType(), operands, text, tiedF32Constraints(n, ""),
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, nullptr, nullptr);
  return asmOp.getResult(0);
}

Value MatmulKernelBuilder::sharedAddress(Value buf) {
  Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buf);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), p);
}

/// Matrix descriptor (PTX ISA, "Matrix Descriptor Format"): bits 0-13 the
/// start address >> 4, 16-29 the leading-dimension byte offset >> 4 (K-major
/// swizzled layouts do not use it; MN-major: from one 64-element panel to
/// the next), 32-45 the stride byte offset >> 4 (1024: eight 128-byte rows,
/// the swizzle atom), 62-63 the swizzle mode (1: 128 bytes).
Value MatmulKernelBuilder::wgmmaDescriptor(Value addr, int64_t leadingBytes) {
  Type i64 = b.getI64Type();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, addr, cst(0x3FFFF)), cst(4));
  int64_t fixed = (int64_t((leadingBytes >> 4) & 0x3FFF) << 16) |
                  (int64_t(1024 >> 4) << 32) | (int64_t(1) << 62);
  return arith::OrIOp::create(b, loc, start, cst(fixed));
}

SmallVector<Value> MatmulKernelBuilder::computeWgmma(Value stage,
                                                     ValueRange accIn) {
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, index);
  };
  int64_t rowBytes = tk * elemBytes; // 128
  // This warpgroup's 64 rows of A and tile_n rows of B in the stage.
  Value offA = add(mul(stage, ldsA.rows * rowBytes), mul(wgRow, rowBytes));
  // B: K-major, its tile_n rows of 128 bytes; MN-major ([K, N]), panels of
  // 64 columns x tile_k rows (this warpgroup's first panel: wgCol / 64).
  int64_t panelBytes = tk * rowBytes;
  Value offB = add(mul(stage, ldsB.rows * rowBytes),
                   transB ? mul(wgCol, rowBytes)
                          : mul(div(wgCol, 128 / elemBytes), panelBytes));
  Value addrA = arith::AddIOp::create(b, loc, sharedAddress(ldsA.buf),
                                      toI64(offA));
  Value addrB = arith::AddIOp::create(b, loc, sharedAddress(ldsB.buf),
                                      toI64(offB));
  int64_t n = mmaN / 2;
  std::string ty = elemT.isBF16() ? "bf16" : "f16";
  std::string regs;
  for (int64_t i = 0; i < n; ++i)
    regs += (i ? ", $" : "$") + std::to_string(i);
  std::string text =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(n + 2) +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(mmaN) +
      "k16.f32." + ty + "." + ty + " {" + regs + "}, $" + std::to_string(n) +
      ", $" + std::to_string(n + 1) + ", p, 1, 1, 0, " + (transB ? "0" : "1") +
      ";\n}";
  std::string constraints = tiedF32Constraints(n, "l,l,r,");
  Value one = arith::ConstantOp::create(b, loc, b.getI32Type(),
                                        b.getI32IntegerAttr(1));
  Value acc = accumulatorAsm("wgmma.fence.sync.aligned;", accIn.front());
  for (int64_t kk = 0; kk < tk; kk += 16) {
    auto offset = [&](int64_t bytes) -> Value {
      return arith::ConstantOp::create(b, loc, i64,
                                       b.getI64IntegerAttr(bytes));
    };
    // K-major: 16 K values are 32 bytes along the row; MN-major: 16 rows.
    Value descA = wgmmaDescriptor(
        arith::AddIOp::create(b, loc, addrA, offset(kk * elemBytes)));
    Value descB =
        transB ? wgmmaDescriptor(arith::AddIOp::create(
                     b, loc, addrB, offset(kk * elemBytes)))
               : wgmmaDescriptor(
                     arith::AddIOp::create(b, loc, addrB,
                                           offset(kk * rowBytes)),
                     /*leadingBytes=*/panelBytes);
    SmallVector<Value> operands = {descA, descB, one};
    for (int64_t i = 0; i < n; ++i)
      operands.push_back(
          LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
    acc = LLVM::InlineAsmOp::create(
              b, loc, wgmmaAccType(), operands, text, constraints,
              /*has_side_effects=*/true, /*is_align_stack=*/false,
              LLVM::tailcallkind::TailCallKind::None, nullptr, nullptr)
              .getResult(0);
  }
  sideEffectAsm("wgmma.commit_group.sync.aligned;");
  // Wait for this step's MMAs (wgmma_pending = 0) or the previous step's
  // (1) before the loop's barrier, after which a refill overwrites their
  // stage; the loop's exit waits for all before the accumulators are read.
  acc = accumulatorAsm("wgmma.wait_group.sync.aligned " +
                           std::to_string(wgmmaPending) + ";",
                       acc);
  return {acc};
}

SmallVector<Value> MatmulKernelBuilder::computeAmd(Value stage,
                                                   ValueRange accIn) {
  SmallVector<Value> acc(accIn);
  int64_t mt = (tm / wm) / mmaM, nt = (tn / wn) / mmaN;
  bool gfx11 = target.chip.starts_with("gfx11");
  int64_t kPer, groups;
  Value kLane;
  if (core == Core::Mfma) {
    groups = waveSize / mmaM;
    kPer = mmaK / groups;
    kLane = mul(div(lane, mmaM), kPer);
  } else if (gfx11) {
    kPer = 16;
    kLane = c(0);
  } else {
    kPer = 8;
    kLane = mul(div(lane, 16), 8);
  }
  Value rowLane = rem(lane, mmaM), colLane = rem(lane, mmaN);
  for (int64_t kk = 0; kk < tk; kk += mmaK) {
    Value k0 = add(kLane, kk);
    SmallVector<Value> aFrag, bFrag;
    for (int64_t i = 0; i < mt; ++i)
      aFrag.push_back(loadAlongK(ldsA, transA == ldsA.transposed, stage,
                                 add(add(waveRow, i * mmaM), rowLane), k0,
                                 kPer));
    for (int64_t jn = 0; jn < nt; ++jn)
      bFrag.push_back(loadAlongK(ldsB, transB != ldsB.transposed, stage,
                                 add(add(waveCol, jn * mmaN), colLane), k0,
                                 kPer));
    for (int64_t i = 0; i < mt; ++i)
      for (int64_t jn = 0; jn < nt; ++jn) {
        Value &accV = acc[i * nt + jn];
        if (core == Core::Mfma)
          accV = amdgpu::MFMAOp::create(b, loc, accV.getType(), mmaM, mmaN,
                                        mmaK, /*blocks=*/1, aFrag[i],
                                        bFrag[jn], accV);
        else
          accV = amdgpu::WMMAOp::create(b, loc, accV.getType(), mmaM, mmaN,
                                        mmaK, aFrag[i], bFrag[jn], accV);
      }
  }
  return acc;
}

//===----------------------------------------------------------------------===//
// Epilogue and stores
//===----------------------------------------------------------------------===//

void MatmulKernelBuilder::reduceAcrossClusterAndStore(
    ArrayRef<Value> acc, Value rank,
    function_ref<void(ArrayRef<Value>)> store) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  SmallVector<int64_t> offsets;
  int64_t perThread = 0;
  for (Value v : acc) {
    offsets.push_back(perThread);
    perThread += cast<VectorType>(v.getType()).getNumElements();
  }
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto type = MemRefType::get({threads, perThread}, f32,
                              MemRefLayoutAttrInterface(), space);
  Value partials = kernel.addWorkgroupAttribution(type, loc);
  kernel.setWorkgroupAttributionAttr(kernel.getNumWorkgroupAttributions() - 1,
                                     LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(16));
  for (auto [v, offset] : llvm::zip(acc, offsets))
    vector::StoreOp::create(b, loc, v, partials, ValueRange{tid, c(offset)});
  clusterBarrier(b, loc);
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        rank, c(0));
  auto ifOp = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    // Thread tid's values start at flat element tid x perThread.
    Value row = mul(tid, perThread);
    SmallVector<Value> sums(acc.begin(), acc.end());
    for (int64_t r = 1; r < splitK; ++r) {
      Value peer = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(r));
      for (auto [i, sum] : llvm::enumerate(sums)) {
        auto vt = cast<VectorType>(sum.getType());
        Value partial = loadFromPeerLds(
            b, loc, partials, add(row, offsets[i]), peer, vt,
            /*alignment=*/std::min<int64_t>(16, 4 * vt.getNumElements()));
        sum = arith::AddFOp::create(b, loc, sum, partial);
      }
    }
    store(sums);
  }
  // The peers' LDS must outlive the first workgroup's reads.
  clusterBarrier(b, loc);
}

void MatmulKernelBuilder::forEachResultRun(
    ValueRange acc, function_ref<void(Value, Value, ArrayRef<Value>)> fn) {
  auto extract = [&](Value v, ArrayRef<int64_t> pos) -> Value {
    return vector::ExtractOp::create(b, loc, v, pos);
  };
  switch (core) {
  case Core::Fma: {
    auto [ly, lx] = fmaLaneGrid(waveSize);
    int64_t rn = (tn / wn) / lx;
    Value rowBase = add(waveRow, div(lane, lx));
    Value col = add(waveCol, mul(rem(lane, lx), rn));
    for (auto [i, v] : llvm::enumerate(acc)) {
      SmallVector<Value> vals;
      for (int64_t jj = 0; jj < rn; ++jj)
        vals.push_back(extract(v, {jj}));
      fn(add(rowBase, static_cast<int64_t>(i) * ly), col, vals);
    }
    return;
  }
  case Core::MmaSync: {
    int64_t nt = (tn / wn) / 8;
    Value g = div(lane, 4), t2 = mul(rem(lane, 4), 2);
    for (auto [idx, v] : llvm::enumerate(acc)) {
      int64_t i = idx / nt, jn = idx % nt;
      Value row = add(add(waveRow, i * 16), g);
      Value col = add(add(waveCol, jn * 8), t2);
      for (int64_t h = 0; h < 2; ++h)
        fn(add(row, h * 8), col,
           {extract(v, {2 * h}), extract(v, {2 * h + 1})});
    }
    return;
  }
  case Core::Wgmma: {
    // Warp w of a warpgroup holds its rows 16w .. 16w + 15; element 4j + 2h
    // + e of the struct is (row lane / 4 + 8h, column 8j + 2 (lane % 4) + e)
    // of them (PTX ISA, wgmma D fragments: mma.sync's m16n8 C layout for
    // each 8 columns).
    Value row = add(waveRow, div(lane, 4));
    Value col = add(waveCol, mul(rem(lane, 4), 2));
    Value s = acc.front();
    auto at = [&](int64_t i) -> Value {
      return LLVM::ExtractValueOp::create(b, loc, s, ArrayRef<int64_t>{i});
    };
    for (int64_t jn = 0; jn < mmaN / 8; ++jn)
      for (int64_t h = 0; h < 2; ++h)
        fn(add(row, h * 8), add(col, jn * 8),
           {at(4 * jn + 2 * h), at(4 * jn + 2 * h + 1)});
    return;
  }
  case Core::Mfma:
  case Core::Wmma: {
    int64_t nt = (tn / wn) / mmaN;
    int64_t perLane = mmaM * mmaN / waveSize;
    bool gfx11 = target.chip.starts_with("gfx11");
    Value colLane = rem(lane, mmaN);
    Value g = div(lane, mmaN);
    for (auto [idx, v] : llvm::enumerate(acc)) {
      int64_t i = idx / nt, jn = idx % nt;
      Value tileRow = add(waveRow, i * mmaM);
      Value col = add(add(waveCol, jn * mmaN), colLane);
      for (int64_t e = 0; e < perLane; ++e) {
        Value r;
        if (core == Core::Mfma) {
          int64_t groups = waveSize / mmaN;
          r = add(mul(g, 4), (e / 4) * 4 * groups + e % 4);
        } else if (gfx11) {
          r = add(g, 2 * e);
        } else {
          r = add(mul(g, 8), e);
        }
        fn(add(tileRow, r), col, {extract(v, {e})});
      }
    }
    return;
  }
  }
}

Value MatmulKernelBuilder::applyEpilogue(Value acc,
                                         ArrayRef<Value> epilogueValues) {
  if (!op.hasEpilogue()) {
    if (resT == acc.getType())
      return acc;
    return arith::TruncFOp::create(b, loc, resT, acc);
  }
  Block &body = op.getEpilogue().front();
  IRMapping map;
  map.map(body.getArgument(0), acc);
  for (auto [arg, v] : llvm::zip(body.getArguments().drop_front(),
                                 epilogueValues))
    map.map(arg, v);
  for (Operation &o : body.without_terminator()) {
    // Constants captured from outside the region are cloned in (the
    // builder rejects any other capture).
    for (Value v : o.getOperands())
      if (!map.contains(v) && v.getParentRegion() != &op.getEpilogue())
        map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
    b.clone(o, map);
  }
  return map.lookupOrDefault(body.getTerminator()->getOperand(0));
}

void MatmulKernelBuilder::storeRun(Value row, Value col,
                                   ArrayRef<Value> values) {
  int64_t len = values.size();
  Value gm = add(m0, row), gn = add(n0, col);
  bool masked = m % tm != 0 || n % tn != 0;
  // Epilogue operands are read at the suffix of (batch, m, n) they cover.
  auto epiIndices = [&](unsigned e, Value gnj) -> SmallVector<Value> {
    const GlobalOperand &g = gEpi[e];
    Value bi = epiBatch[e] == 1 ? c(0) : rem(batchIdx, epiBatch[e]);
    Value mi = g.rows == 1 ? c(0) : gm;
    return {bi, mi, gnj};
  };
  if (!masked) {
    SmallVector<SmallVector<Value>> epi(len);
    for (auto [e, g] : llvm::enumerate(gEpi)) {
      auto et = cast<MemRefType>(g.view.getType()).getElementType();
      Value v = len == 1 ? memref::LoadOp::create(b, loc, g.view,
                                                   epiIndices(e, gn))
                               .getResult()
                         : vector::LoadOp::create(
                               b, loc, VectorType::get({len}, et), g.view,
                               epiIndices(e, gn), /*nontemporal=*/false,
                               align(len, et))
                               .getResult();
      for (int64_t jj = 0; jj < len; ++jj)
        epi[jj].push_back(len == 1 ? v
                                   : vector::ExtractOp::create(
                                         b, loc, v, ArrayRef<int64_t>{jj})
                                         .getResult());
    }
    SmallVector<Value> outs;
    for (int64_t jj = 0; jj < len; ++jj)
      outs.push_back(applyEpilogue(values[jj], epi[jj]));
    if (len == 1) {
      memref::StoreOp::create(b, loc, outs[0], gOut.view,
                              ValueRange{batchIdx, gm, gn});
      return;
    }
    Value vec = vector::FromElementsOp::create(
        b, loc, VectorType::get({len}, resT), outs);
    vector::StoreOp::create(b, loc, vec, gOut.view,
                            ValueRange{batchIdx, gm, gn},
                            /*nontemporal=*/false, align(len, resT));
    return;
  }
  // Edge tiles: one guarded element at a time.
  for (int64_t jj = 0; jj < len; ++jj) {
    Value gnj = add(gn, jj);
    Value ok = andI(lt(gm, m), lt(gnj, n));
    auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> epi;
    for (unsigned e = 0; e < gEpi.size(); ++e)
      epi.push_back(
          memref::LoadOp::create(b, loc, gEpi[e].view, epiIndices(e, gnj)));
    memref::StoreOp::create(b, loc, applyEpilogue(values[jj], epi), gOut.view,
                            ValueRange{batchIdx, gm, gnj});
  }
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

FailureOr<MatmulLaunch> MatmulKernelBuilder::build() {
  // Views: A [batch, rows, cols], B likewise, result [batch, M, N].
  unsigned numEpi = op.getEpilogueInputs().size();
  gA = globalView(kernel.getArgument(0), transA ? k : m, transA ? m : k);
  gB = globalView(kernel.getArgument(1), transB ? n : k, transB ? k : n);
  for (unsigned e = 0; e < numEpi; ++e) {
    Value arg = kernel.getArgument(2 + e);
    auto type = cast<MemRefType>(arg.getType());
    int64_t rows = type.getRank() >= 2 ? m : 1;
    gEpi.push_back(globalView(arg, rows, n));
    epiBatch.push_back(type.getNumElements() / (rows * n));
  }
  gOut = globalView(kernel.getArgument(2 + numEpi), m, n);

  // LDS keeps the global layout, except that the AMD matrix-core paths
  // want K contiguous (vector fragment loads) and transpose at the store.
  bool amdMma = core == Core::Mfma || core == Core::Wmma;
  ldsA = allocLds(transA ? tk : tm, transA ? tm : tk, amdMma && transA);
  // wgmma reads an MN-major B ([K, N]) in 128-byte-wide panels.
  ldsB = allocLds(transB ? tn : tk, transB ? tk : tn, amdMma && !transB,
                  core == Core::Wgmma && !transB ? 128 / elemBytes : 0);

  // Thread and tile coordinates. Tiles are visited in groups of group_m
  // rows of tiles so that concurrently running workgroups share A and B in
  // L2.
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value wave = div(tid, waveSize);
  lane = rem(tid, waveSize);
  if (core == Core::Wgmma) {
    Value wg = div(wave, 4);
    wgRow = mul(div(wg, wn), 64);
    wgCol = mul(rem(wg, wn), mmaN);
    waveRow = add(wgRow, mul(rem(wave, 4), 16));
    waveCol = wgCol;
    // Its PTX needs the arch-specific target (sm_90a): Compile.cpp.
    kernel->setAttr("hkg.arch_specific", b.getUnitAttr());
  } else {
    waveRow = mul(div(wave, wn), tm / wm);
    waveCol = mul(rem(wave, wn), tn / wn);
  }
  int64_t tilesM = llvm::divideCeil(m, tm), tilesN = llvm::divideCeil(n, tn);
  Value pid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  batchIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  // split_k > 1 (sm_90): clusters of split_k consecutive workgroups share
  // one output tile, workgroup `rank` of the cluster taking K steps
  // [rank, rank + 1) x kSteps; their accumulators are summed through
  // distributed shared memory after the K loop.
  Value rank;
  if (splitK > 1) {
    rank = rem(pid, splitK);
    pid = div(pid, splitK);
  }
  int64_t group = std::min<int64_t>(groupM, tilesM);
  Value tileRow, tileCol;
  if (group <= 1 || tilesN == 1) {
    tileRow = div(pid, tilesN);
    tileCol = rem(pid, tilesN);
  } else {
    Value groupId = div(pid, group * tilesN);
    Value firstRow = mul(groupId, group);
    Value rowsLeft = arith::SubIOp::create(b, loc, c(tilesM), firstRow);
    Value groupRows = arith::MinUIOp::create(b, loc, rowsLeft, c(group));
    Value inGroup = rem(pid, group * tilesN);
    tileRow = add(firstRow, arith::RemUIOp::create(b, loc, inGroup, groupRows));
    tileCol = arith::DivUIOp::create(b, loc, inGroup, groupRows);
  }
  m0 = mul(tileRow, tm);
  n0 = mul(tileCol, tn);

  int64_t numK = llvm::divideCeil(k, tk) / splitK;
  Value kBegin = splitK > 1 ? mul(rank, numK) : Value();
  // The K step of this workgroup's `local` one.
  auto kTile = [&](Value local) {
    return splitK > 1 ? add(kBegin, local) : local;
  };
  SmallVector<Value> acc = initAccumulators();
  Value zero = c(0), one = c(1);

  if (async) {
    // cp.async pipeline: tiles 0 .. stages-2 in flight before the loop; at
    // step kt, wait for tile kt, then refill the stage freed by step kt-1
    // with tile kt + stages - 1 while computing tile kt. Past the last tile
    // the refill repeats the last tile into a stage no later step reads, so
    // that every step commits one non-empty group.
    //
    // wgmma_pending = 1 leaves step kt - 1's MMAs in flight during step kt,
    // so step kt refills the stage of step kt - 2 (whose MMAs every
    // warpgroup waited for before the barrier) with tile kt + stages - 2:
    // one tile fewer ahead.
    int64_t ahead = stages - 1 - wgmmaPending;
    auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
    Value token;
    for (int64_t s = 0; s < ahead; ++s) {
      int64_t tile = std::min(s, numK - 1);
      token = nvgpu::DeviceAsyncCreateGroupOp::create(
          b, loc, tokenType, issueAsyncCopy(kTile(c(tile)), c(s)));
    }
    auto loop = scf::ForOp::create(b, loc, zero, c(numK), one, acc);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kt = loop.getInductionVar();
      Value stage = rem(kt, stages);
      if (stages == 1) {
        gpu::BarrierOp::create(b, loc);
        Value t = nvgpu::DeviceAsyncCreateGroupOp::create(
            b, loc, tokenType, issueAsyncCopy(kTile(kt), zero));
        nvgpu::DeviceAsyncWaitOp::create(b, loc, t, b.getI32IntegerAttr(0));
        gpu::BarrierOp::create(b, loc);
      } else {
        nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                         b.getI32IntegerAttr(ahead - 1));
        // wgmma reads LDS through the async proxy: this thread's cp.async
        // writes become visible to it before the barrier.
        if (core == Core::Wgmma)
          sideEffectAsm("fence.proxy.async.shared::cta;");
        gpu::BarrierOp::create(b, loc);
        Value next = add(kt, ahead);
        Value tile = arith::MinUIOp::create(b, loc, next, c(numK - 1));
        nvgpu::DeviceAsyncCreateGroupOp::create(
            b, loc, tokenType, issueAsyncCopy(kTile(tile), rem(next, stages)));
      }
      SmallVector<Value> out =
          computeStage(stage, loop.getRegionIterArgs());
      scf::YieldOp::create(b, loc, out);
    }
    acc = SmallVector<Value>(loop.getResults());
    kLoop = loop;
    if (wgmmaPending > 0)
      acc = {accumulatorAsm("wgmma.wait_group.sync.aligned 0;", acc.front())};
    if (stages > 1)
      nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(0));
  } else {
    // Register prefetch: tile kt + 1 is loaded from global memory while
    // tile kt is computed, then written to the other LDS buffer.
    storeRegistersToLds(loadTileToRegisters(kTile(zero)), zero);
    gpu::BarrierOp::create(b, loc);
    auto loop = scf::ForOp::create(b, loc, zero, c(numK), one, acc);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kt = loop.getInductionVar();
      Value stage = rem(kt, stages);
      Value next = add(kt, 1);
      Value hasNext = lt(next, numK);
      // Clamp so the prefetch of the last step stays in bounds; its result
      // is not stored.
      Value nextK = select(hasNext, next, kt);
      SmallVector<Value> regs = loadTileToRegisters(kTile(nextK));
      SmallVector<Value> out =
          computeStage(stage, loop.getRegionIterArgs());
      if (stages == 1)
        gpu::BarrierOp::create(b, loc);
      auto ifOp = scf::IfOp::create(b, loc, hasNext,
                                    /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        storeRegistersToLds(regs, rem(next, stages));
      }
      gpu::BarrierOp::create(b, loc);
      scf::YieldOp::create(b, loc, out);
    }
    acc = SmallVector<Value>(loop.getResults());
    kLoop = loop;
  }

  auto storeResults = [&](ArrayRef<Value> results) {
    forEachResultRun(results,
                     [&](Value row, Value col, ArrayRef<Value> values) {
                       storeRun(row, col, values);
                     });
  };
  if (splitK > 1)
    reduceAcrossClusterAndStore(acc, rank, storeResults);
  else
    storeResults(acc);
  // Last, so that the stores read the results of the remainder loop the
  // unrolling may add.
  if (failed(unrollKLoop(kLoop)))
    return failure();

  MatmulLaunch launch;
  launch.grid = {tilesM * tilesN * splitK, 1, batch};
  launch.cluster = {splitK, 1, 1};
  launch.block = {threads, 1, 1};
  return launch;
}

FailureOr<MatmulLaunch>
mlir::hkg::buildMatmulKernel(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
                             const ResolvedSchedule &schedule,
                             const TargetInfo &target) {
  if (kernel.getNumArguments() != op->getNumOperands() + 1)
    return op.emitOpError("expected a kernel with ")
           << op->getNumOperands() + 1 << " arguments, got "
           << kernel.getNumArguments();
  if (op.hasEpilogue()) {
    WalkResult captured = op.getEpilogue().walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        if (op.getEpilogue().isAncestor(v.getParentRegion()))
          continue;
        Operation *def = v.getDefiningOp();
        if (!def || !def->hasTrait<OpTrait::ConstantLike>()) {
          op.emitOpError("epilogue captures a non-constant value defined "
                         "outside it; expected epilogue operands instead");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (captured.wasInterrupted())
      return failure();
  }
  MatmulKernelBuilder builder(b, kernel, op, schedule, target);
  return builder.build();
}

LogicalResult mlir::hkg::lowerMatmul(MatmulOp op, KernelContext &kc) {
  FailureOr<MatmulLaunch> launch =
      buildMatmulKernel(kc.b, kc.func, op, kc.schedule, kc.target);
  if (failed(launch))
    return failure();
  kc.grid = launch->grid;
  kc.block = launch->block;
  kc.cluster = launch->cluster;
  return success();
}
