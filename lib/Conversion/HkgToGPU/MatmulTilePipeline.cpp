//===- MatmulTilePipeline.cpp - the matmul kernel's tile pipeline ---------===//
//
// Grid and tile mapping, the global -> LDS copies of the A and B tiles and
// the K loop around a matrix-core family's inner product (see
// MatmulTilePipeline.h and the overview in Matmul.cpp).
//
//===----------------------------------------------------------------------===//

#include "MatmulTilePipeline.h"
#include "MathRewrites.h"
#include "TileCopy.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

void MatrixCore::placeWave(Value wave) {
  t.waveRow = mul(div(wave, t.wn), t.tm / t.wm);
  t.waveCol = mul(rem(wave, t.wn), t.tn / t.wn);
}

static std::unique_ptr<MatrixCore> createMatrixCore(KernelState &t) {
  switch (t.mma.family) {
  case MmaFamily::None:
    return createFmaCore(t);
  case MmaFamily::MmaSync:
    return t.mma.isTf32x3() ? createMmaSyncTf32x3Core(t) : createMmaSyncCore(t);
  case MmaFamily::Wgmma:
    return t.mma.isTf32x3() ? createWgmmaTf32x3Core(t) : createWgmmaCore(t);
  case MmaFamily::Mfma:
    return createMfmaCore(t);
  case MmaFamily::Wmma:
    return createWmmaCore(t);
  }
  llvm_unreachable("unknown matrix-core family");
}

TilePipeline::TilePipeline(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
                           const MatmulSchedule &s, const TargetInfo &target,
                           ValueRange args, Value dynM)
    : KernelState(b, kernel, op, s, target), core(createMatrixCore(*this)),
      args(args) {
  this->dynM = dynM;
}

//===----------------------------------------------------------------------===//
// Views and LDS
//===----------------------------------------------------------------------===//

GlobalOperand TilePipeline::globalView(Value arg, int64_t rows, int64_t cols,
                                       Value dynRows, Value dynCols) {
  if (dynRows || dynCols) {
    // No batch with a dynamic M: [1, rows, cols], M from its size.
    OpFoldResult r = dynRows ? OpFoldResult(dynRows) : b.getIndexAttr(rows);
    OpFoldResult cl = dynCols ? OpFoldResult(dynCols) : b.getIndexAttr(cols);
    Value v = reshapeView(b, loc, arg, {b.getIndexAttr(1), r, cl});
    return {v, rows, cols, dynRows, dynCols};
  }
  auto type = cast<MemRefType>(arg.getType());
  int64_t numBatch = type.getNumElements() / (rows * cols);
  SmallVector<int64_t> shape = {numBatch, rows, cols};
  SmallVector<int64_t> strides = {rows * cols, cols, 1};
  auto viewType =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  Value v = memref::ReinterpretCastOp::create(b, loc, viewType, arg,
                                              /*offset=*/0, shape, strides);
  return {v, rows, cols};
}

LdsTile TilePipeline::allocLds(int64_t tileRows, int64_t tileCols,
                               bool transposed, bool rowsAlongK,
                               int64_t panelCols) {
  int64_t rows = transposed ? tileCols : tileRows;
  int64_t cols = transposed ? tileRows : tileCols;
  int64_t numPanels = 1;
  if (panelCols && cols > panelCols) {
    numPanels = cols / panelCols;
    rows *= numPanels;
    cols = panelCols;
  }
  LdsTile t;
  // 16-byte chunks (cp.async, ldmatrix rows, ds_read_b128) need 16-byte
  // aligned buffers; the family may ask for more.
  t.buf = addWorkgroupBuffer(b, loc, kernel, {stages, rows, cols + pad}, elemT,
                             core->ldsAlignment());
  t.rows = rows;
  t.cols = cols;
  t.transposed = transposed;
  t.panelCols = numPanels > 1 ? panelCols : 0;
  t.numPanels = numPanels;
  t.kRowsInterleaved = rowsAlongK && core->interleavesKRows();
  t.chunkElems = 16 / elemBytes;
  t.swizzle = swizzle && cols / t.chunkElems > 1;
  return t;
}

//===----------------------------------------------------------------------===//
// Global -> LDS copies
//===----------------------------------------------------------------------===//

void TilePipeline::forEachChunk(
    const LdsTile &t, const GlobalOperand &g, Value row0, Value col0,
    function_ref<void(Value, Value, Value, Value, Value)> fn) {
  bool maskRows = g.dynRows || g.rows % t.tileRows() != 0;
  bool maskCols = g.dynCols || g.cols % t.tileCols() != 0;
  forEachCopyChunk(*this, tid, threads, t.tileRows(), t.tileCols(), vw,
                   ChunkRowIndexing::RowOffset, [&](Value lr, Value lc) {
                     Value gr = add(row0, lr), gc = add(col0, lc);
                     Value valid;
                     if (maskRows)
                       valid = g.dynRows ? lt(gr, g.dynRows) : lt(gr, g.rows);
                     if (maskCols)
                       valid = andI(valid, g.dynCols ? lt(gc, g.dynCols)
                                                     : lt(gc, g.cols));
                     fn(valid, gr, gc, lr, lc);
                   });
}

void TilePipeline::forEachTileChunk(
    Value kt, function_ref<void(const LdsTile &, const GlobalOperand &, Value,
                                Value, Value, Value, Value)>
                  fn) {
  Value k0 = mul(kt, tk);
  auto [ar, ac] = originA(k0);
  forEachChunk(ldsA, gA, ar, ac,
               [&](Value v, Value gr, Value gc, Value lr, Value lc) {
                 fn(ldsA, gA, v, gr, gc, lr, lc);
               });
  auto [br, bc] = originB(k0);
  forEachChunk(ldsB, gB, br, bc,
               [&](Value v, Value gr, Value gc, Value lr, Value lc) {
                 fn(ldsB, gB, v, gr, gc, lr, lc);
               });
}

SmallVector<Value> TilePipeline::issueAsyncCopy(Value kt, Value stage) {
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
    tokens.push_back(
        asyncCopyChunk(b, loc, t.buf, ValueRange{stage, lrow, lcol}, g.view,
                       ValueRange{batchIdx, gr, gc}, vw, srcElements));
  });
  return tokens;
}

SmallVector<Value> TilePipeline::loadTileToRegisters(Value kt) {
  SmallVector<Value> regs;
  auto vt = VectorType::get({vw}, elemT);
  forEachTileChunk(kt, [&](const LdsTile &, const GlobalOperand &g, Value valid,
                           Value gr, Value gc, Value, Value) {
    if (valid) {
      Value zero = c(0);
      gr = select(valid, gr, zero);
      gc = select(valid, gc, zero);
    }
    Value v = loadChunk(b, loc, g.view, ValueRange{batchIdx, gr, gc}, vw);
    if (valid) {
      Value zeros = arith::ConstantOp::create(b, loc, vt, b.getZeroAttr(vt));
      v = select(valid, v, zeros);
    }
    regs.push_back(v);
  });
  return regs;
}

void TilePipeline::storeRegistersToLds(ArrayRef<Value> regs, Value stage) {
  unsigned i = 0;
  // Same traversal as loadTileToRegisters; the K offset does not matter.
  forEachTileChunk(c(0), [&](const LdsTile &t, const GlobalOperand &, Value,
                             Value, Value, Value lr, Value lc) {
    Value v = regs[i++];
    if (!t.transposed) {
      auto [row, col] = ldsIndex(t, lr, lc);
      storeChunk(b, loc, v, t.buf, ValueRange{stage, row, col});
      return;
    }
    for (int64_t e = 0; e < vw; ++e) {
      auto [row, col] = ldsIndex(t, add(lc, e), lr);
      Value x = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e});
      memref::StoreOp::create(b, loc, x, t.buf, ValueRange{stage, row, col});
    }
  });
}

//===----------------------------------------------------------------------===//
// The K loop
//===----------------------------------------------------------------------===//

SmallVector<Value> TilePipeline::buildAsyncKLoop(ValueRange accIn, int64_t numK,
                                                 Value zero, Value one) {
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
  Value token;
  for (int64_t s = 0; s < ahead; ++s) {
    int64_t tile = std::min(s, numK - 1);
    token = commitAsyncCopies(b, loc, issueAsyncCopy(kStep(c(tile)), c(s)));
  }
  auto loop = scf::ForOp::create(b, loc, zero, c(numK), one, accIn);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value stage = rem(kt, stages);
    if (stages == 1) {
      gpu::BarrierOp::create(b, loc);
      Value t = commitAsyncCopies(b, loc, issueAsyncCopy(kStep(kt), zero));
      nvgpu::DeviceAsyncWaitOp::create(b, loc, t, b.getI32IntegerAttr(0));
      gpu::BarrierOp::create(b, loc);
    } else {
      nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                       b.getI32IntegerAttr(ahead - 1));
      core->beforeStageBarrier();
      gpu::BarrierOp::create(b, loc);
      Value next = add(kt, ahead);
      Value tile = arith::MinUIOp::create(b, loc, next, c(numK - 1));
      commitAsyncCopies(b, loc, issueAsyncCopy(kStep(tile), rem(next, stages)));
    }
    kStepIndex = kt;
    SmallVector<Value> out =
        core->computeStage(stage, loop.getRegionIterArgs());
    scf::YieldOp::create(b, loc, out);
  }
  SmallVector<Value> acc(loop.getResults());
  kLoop = loop;
  acc = core->finishKLoop(std::move(acc));
  if (stages > 1)
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(0));
  return acc;
}

void TilePipeline::buildPersistentLoop(ValueRange accIn, int64_t numK,
                                       int64_t tilesM, int64_t tilesN,
                                       int64_t workgroups) {
  // Workgroup pid computes tiles pid, pid + workgroups, ... (batches
  // included): a loop over its tiles around the K steps of each, which
  // feed one cp.async pipeline over the flat steps tile x numK + kt
  // (buildAsyncKLoop's, `ahead` steps ahead). The refills of a tile's last
  // `ahead` steps copy the next tile's first ones, which arrive while this
  // tile's epilogue stores. The K steps run as two loops so that the tile
  // each refill reads is loop-invariant (its copy addresses are hoisted as
  // in a one-tile kernel): steps [0, numK - ahead) refill from this tile,
  // the last `ahead` from the next (on the last tile, a repeat of its last
  // step into a stage no later step reads, so that every step commits one
  // non-empty group). The schedule verifier asks numK > ahead.
  int64_t ahead = stages - 1 - wgmmaPending;
  assert(numK > ahead && "persistent kernel with fewer K steps than stages");
  Value pid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  int64_t perBatch = tilesM * tilesN;
  Value myTiles =
      div(add(arith::SubIOp::create(b, loc, c(numTiles), pid), workgroups - 1),
          workgroups);
  struct Coords {
    Value batch, m0, n0;
  };
  // The coordinates of this workgroup's tile `j`.
  auto coordsOf = [&](Value j) -> Coords {
    Value tile = add(pid, mul(j, workgroups));
    Value bi = batch == 1 ? c(0) : div(tile, perBatch);
    placeTile(batch == 1 ? tile : rem(tile, perBatch), tilesM, tilesN, {});
    return {bi, m0, n0};
  };
  auto use = [&](const Coords &co) {
    batchIdx = co.batch;
    m0 = co.m0;
    n0 = co.n0;
  };
  Value zero = c(0), one = c(1);
  use(coordsOf(zero));
  Value token;
  for (int64_t s = 0; s < ahead; ++s)
    token = commitAsyncCopies(b, loc, issueAsyncCopy(c(s), c(s)));
  auto tiles = scf::ForOp::create(b, loc, zero, myTiles, one);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tiles.getBody());
    Value j = tiles.getInductionVar();
    Value base = mul(j, numK);
    Coords cur = coordsOf(j);
    Value nextJ = add(j, 1);
    Value hasNext = lt(nextJ, myTiles);
    Coords next = coordsOf(nextJ);
    next = {select(hasNext, next.batch, cur.batch),
            select(hasNext, next.m0, cur.m0), select(hasNext, next.n0, cur.n0)};
    // One K step: wait for its tile, refill `ahead` steps on from `from`'s
    // K step `refillK`, compute.
    auto kSteps = [&](int64_t lo, int64_t hi, const Coords &from,
                      function_ref<Value(Value)> refillK, ValueRange acc) {
      auto loop = scf::ForOp::create(b, loc, c(lo), c(hi), one, acc);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kt = loop.getInductionVar();
      Value f = add(base, kt);
      nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                       b.getI32IntegerAttr(ahead - 1));
      core->beforeStageBarrier();
      gpu::BarrierOp::create(b, loc);
      use(from);
      commitAsyncCopies(
          b, loc, issueAsyncCopy(refillK(kt), rem(add(f, ahead), stages)));
      kStepIndex = f;
      scf::YieldOp::create(
          b, loc, core->computeStage(rem(f, stages), loop.getRegionIterArgs()));
      return loop;
    };
    scf::ForOp early = kSteps(
        0, numK - ahead, cur, [&](Value kt) { return add(kt, ahead); }, accIn);
    scf::ForOp late = kSteps(
        numK - ahead, numK, next,
        [&](Value kt) {
          return select(hasNext, add(kt, ahead - numK), c(numK - 1));
        },
        early.getResults());
    kLoop = early;
    SmallVector<Value> acc =
        core->finishKLoop(SmallVector<Value>(late.getResults()));
    use(cur);
    storeResults(acc);
  }
  nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(0));
}

SmallVector<Value> TilePipeline::buildPrefetchKLoop(ValueRange accIn,
                                                    int64_t numK, Value zero,
                                                    Value one) {
  // Register prefetch: tile kt + 1 is loaded from global memory while
  // tile kt is computed, then written to the other LDS buffer.
  storeRegistersToLds(loadTileToRegisters(kStep(zero)), zero);
  gpu::BarrierOp::create(b, loc);
  auto loop = scf::ForOp::create(b, loc, zero, c(numK), one, accIn);
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
    SmallVector<Value> regs = loadTileToRegisters(kStep(nextK));
    kStepIndex = kt;
    SmallVector<Value> out =
        core->computeStage(stage, loop.getRegionIterArgs());
    if (stages == 1)
      gpu::BarrierOp::create(b, loc);
    auto ifOp = scf::IfOp::create(b, loc, hasNext, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      storeRegistersToLds(regs, rem(next, stages));
    }
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, out);
  }
  kLoop = loop;
  return SmallVector<Value>(loop.getResults());
}

LogicalResult TilePipeline::unrollKLoop(scf::ForOp loop) {
  if (unroll <= 1) {
    core->afterKLoopUnrolled(loop);
    return success();
  }
  FailureOr<UnrolledLoopInfo> info = loopUnrollByFactor(loop, unroll);
  if (failed(info))
    return op.emitOpError("failed to unroll the K loop by ") << unroll;
  SmallVector<scf::ForOp, 2> loops;
  for (std::optional<scf::ForOp> l : {info->mainLoopOp, info->epilogueLoopOp})
    if (l)
      loops.push_back(*l);
  core->afterKLoopUnrolled(loops);
  return success();
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

void TilePipeline::rewriteEpilogueMath() {
  // The epilogue runs once per result element while the matrix cores wait:
  // its activation math in the cheaper forms of MathRewrites.h, and, for
  // 16-bit results, its divisions approximate in f32.
  if (!op.hasEpilogue())
    return;
  applyActivationRewrites(kernel);
  if (resT.getIntOrFloatBitWidth() == 16)
    applyHalfResultDivisionRewrites(kernel);
}

Value TilePipeline::mapTile(int64_t tilesM, int64_t tilesN, Value dynTilesM) {
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
  // (The workspace that numTiles sizes needs a static M.)
  numTiles = batch * tilesM * tilesN;
  tileIndex = dynTilesM ? pid : add(mul(batchIdx, tilesM * tilesN), pid);
  placeTile(pid, tilesM, tilesN, dynTilesM);
  return rank;
}

void TilePipeline::placeTile(Value pid, int64_t tilesM, int64_t tilesN,
                             Value dynTilesM) {
  // Tiles are visited in groups of group_m rows of tiles so that
  // concurrently running workgroups share A and B in L2.
  int64_t group = dynTilesM ? groupM : std::min<int64_t>(groupM, tilesM);
  Value tileRow, tileCol;
  if (group <= 1 || tilesN == 1) {
    tileRow = div(pid, tilesN);
    tileCol = rem(pid, tilesN);
  } else {
    Value groupId = div(pid, group * tilesN);
    Value firstRow = mul(groupId, group);
    Value rowsLeft = arith::SubIOp::create(
        b, loc, dynTilesM ? dynTilesM : c(tilesM), firstRow);
    Value groupRows = arith::MinUIOp::create(b, loc, rowsLeft, c(group));
    Value inGroup = rem(pid, group * tilesN);
    tileRow = add(firstRow, arith::RemUIOp::create(b, loc, inGroup, groupRows));
    tileCol = arith::DivUIOp::create(b, loc, inGroup, groupRows);
  }
  m0 = mul(tileRow, tm);
  n0 = mul(tileCol, tn);
}

int64_t TilePipeline::persistentWorkgroups(int64_t tiles) const {
  // Workgroups one SM keeps resident, by shared memory (the chip's per-SM
  // total is its per-workgroup maximum plus the 1 KiB the driver reserves
  // for each workgroup), threads, registers (the accumulators and a
  // reserve for addresses and indices, against 64K a SM; an estimate:
  // ptxas decides) and NVIDIA's 32 workgroups a SM. An overestimate would
  // launch a second wave of workgroups that each walk a whole tile list;
  // the SM count is the target table's (a chip with fewer SMs than its
  // table entry gets such a wave).
  constexpr int64_t kReservedSharedBytes = 1024, kRegisterReserve = 40,
                    kRegistersPerSM = 64 * 1024, kWorkgroupsPerSM = 32;
  auto bytesOf = [&](const LdsTile &t) {
    return cast<MemRefType>(t.buf.getType()).getNumElements() * elemBytes;
  };
  int64_t lds = bytesOf(ldsA) + bytesOf(ldsB);
  int64_t byLds = (target.ldsBytesPerWorkgroup + kReservedSharedBytes) /
                  (lds + kReservedSharedBytes);
  int64_t byThreads = int64_t(target.maxWavesPerCU) * waveSize / threads;
  int64_t registers = std::min<int64_t>(target.maxRegistersPerThread,
                                        tm * tn / threads + kRegisterReserve);
  int64_t byRegisters = kRegistersPerSM / (registers * threads);
  int64_t resident = std::max<int64_t>(
      1, std::min({byLds, byThreads, byRegisters, kWorkgroupsPerSM}));
  return std::min<int64_t>(tiles, resident * target.computeUnits);
}

FailureOr<MatmulLaunch> TilePipeline::build() {
  // Views: A [batch, rows, cols], B likewise, result [batch, M, N].
  unsigned numEpi = op.getEpilogueInputs().size();
  gA = globalView(args[0], transA ? k : m, transA ? m : k,
                  transA ? Value() : dynM, transA ? dynM : Value());
  gB = globalView(args[1], transB ? n : k, transB ? k : n);
  // Epilogue operands as [batch, M or 1, N or 1] (MatmulOp's views; a
  // dynamic M is a dynamic view row count).
  for (auto [e, view] : llvm::enumerate(op.getEpilogueViews())) {
    bool dynRows = ShapedType::isDynamic(view[1]);
    gEpi.push_back(globalView(args[2 + e], dynRows ? m : view[1], view[2],
                              dynRows ? dynM : Value()));
    epiBatch.push_back(view[0]);
  }
  gOut = globalView(args[2 + numEpi], m, n, dynM);

  // LDS keeps the global layout, except for families that want K
  // contiguous (vector fragment loads): they transpose at the store.
  bool kContiguous = core->wantsKContiguousLds();
  ldsA = allocLds(transA ? tk : tm, transA ? tm : tk, kContiguous && transA,
                  /*rowsAlongK=*/transA && !kContiguous);
  ldsB = allocLds(transB ? tn : tk, transB ? tk : tn, kContiguous && !transB,
                  /*rowsAlongK=*/!transB && !kContiguous, core->panelColsOfB());

  // Thread and tile coordinates.
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value wave = div(tid, waveSize);
  lane = rem(tid, waveSize);
  core->placeWave(wave);
  int64_t tilesM = llvm::divideCeil(m, tm), tilesN = llvm::divideCeil(n, tn);
  MatmulLaunch launch;
  launch.block = {threads, 1, 1};
  if (persistent) {
    // The schedule verifier admits it only with cp.async, split_k = 1 and
    // a static M.
    assert(async && splitK == 1 && !dynM && "unsupported persistent kernel");
    numTiles = batch * tilesM * tilesN;
    int64_t workgroups = persistentWorkgroups(numTiles);
    buildPersistentLoop(core->initAccumulators(), llvm::divideCeil(k, tk),
                        tilesM, tilesN, workgroups);
    launch.grid = {workgroups, 1, 1};
    launch.cluster = {1, 1, 1};
  } else {
    Value dynTilesM;
    if (dynM)
      dynTilesM = arith::CeilDivUIOp::create(b, loc, dynM, c(tm));
    Value rank = mapTile(tilesM, tilesN, dynTilesM);

    int64_t numK = llvm::divideCeil(k, tk) / splitK;
    if (splitK > 1)
      kBegin = mul(rank, numK);
    SmallVector<Value> acc = core->initAccumulators();
    Value zero = c(0), one = c(1);
    acc = async ? buildAsyncKLoop(acc, numK, zero, one)
                : buildPrefetchKLoop(acc, numK, zero, one);

    if (splitK > 1 && splitKWorkspace)
      reduceThroughWorkspaceAndStore(
          acc, rank, [&](ArrayRef<Value> sums) { storeResults(sums); });
    else if (splitK > 1)
      reduceAcrossClusterAndStore(
          acc, rank, [&](ArrayRef<Value> sums) { storeResults(sums); });
    else
      storeResults(acc);
    launch.grid = {tilesM * tilesN * splitK, 1, batch};
    if (dynM)
      launch.gridX = {1, tm, tilesN * splitK};
    launch.cluster = {splitKWorkspace ? 1 : splitK, 1, 1};
  }
  // Last, so that the stores read the results of the remainder loop the
  // unrolling may add.
  if (failed(unrollKLoop(kLoop)))
    return failure();
  rewriteEpilogueMath();
  return launch;
}
