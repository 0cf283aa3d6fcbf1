//===- AttentionKernel.h - the flash-attention kernel builder ---*- C++ -*-===//
//
// The builder of hkg.attention's kernel (Attention.cpp describes it), shared
// by the files of its instruction families: Attention.cpp (the kernel, the
// mma.sync, AMD matrix core and FMA products) and AttentionWgmma.cpp
// (sm_90a's warpgroup MMA).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_ATTENTIONKERNEL_H
#define HKG_LIB_CONVERSION_HKGTOGPU_ATTENTIONKERNEL_H

#include "GPUBuildingBlocks.h"
#include "TileIndexing.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/AttentionSchedule.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

namespace mlir::hkg::attention {

class AttentionKernelBuilder : IndexArith {
public:
  AttentionKernelBuilder(AttentionOp op, KernelContext &kc)
      : IndexArith(kc.b, op.getLoc()), kc(kc), op(op) {
    AttentionSchedule s = AttentionSchedule::decode(kc.schedule);
    tq = s.tileQ;
    tkv = s.tileKv;
    waves = s.waves;
    stages = s.stages;
    kvSplit = s.kvSplit;
    pack = s.packGqa;
    useMma = !s.mma.isNone();
    amdCore =
        s.mma.family == MmaFamily::Mfma || s.mma.family == MmaFamily::Wmma;
    wgmmaCore = s.mma.family == MmaFamily::Wgmma;
    wgmmaOverlap = s.wgmmaOverlap;
    wgmmaPipeline = s.wgmmaPipeline;
    vStages = s.valueStages();
    mfma = s.mma.family == MmaFamily::Mfma;
    waveSize = kc.waveSize();
    threads = waves * waveSize;
    AttentionOp::Shape shape = op.getShape();
    batch = shape.batch;
    hq = shape.qHeads;
    sq = shape.qLen;
    d = shape.headDim;
    hkv = shape.kvHeads;
    skv = shape.kvLen;
    dv = shape.valueDim;
    tileN = amdCore ? 16 : 8;
    nd = llvm::divideCeil(dv, tileN);
    partialDv = dv % tileN != 0;
    seqMajor = op.getLayoutOrDefault() == AttentionLayout::Bshd;
    elemT = op.getQuery().getType().getElementType();
    elemBytes = elemT.getIntOrFloatBitWidth() / 8;
    vw = 16 / elemBytes;
    pad = vw;
    causal = op.getCausal();
    hasMask = static_cast<bool>(op.getMask());
    offset = skv - sq;
    scaleLog2 = op.getEffectiveScale() / std::log(2.0);
    rowGroups = tq / waves / 16;
    perTile = (amdCore ? 256 : 128) / waveSize;
    rowsPerLane = amdCore ? 1 : perTile / 2;
    perRow = perTile / rowsPerLane;
    gfx11 = amdCore && !mfma && kc.target.chip.starts_with("gfx11");
    kPer = mfma ? 4 : gfx11 ? 16 : 8;
    // A wave that owns one row group holds its Q fragments in registers
    // across the key loop, unless they would crowd out O and S (D = 256 on
    // NVIDIA: 64 registers of Q beside 128 of O spilled). wgmma reads Q
    // from LDS.
    int64_t qRegisters = (d / 16) * (amdCore ? kPer / 2 : 4);
    holdQ = useMma && !wgmmaCore && rowGroups == 1 && qRegisters <= 32;
    rowStep = waveSize / 4;
    asyncCopy = kc.target.isNVIDIA();
    group = hq / hkv;
    qRows = pack ? sq * group : sq;
    partialQ = qRows % tq != 0;
    fromGlobal = stages == 0;
    partialKv = skv % tkv != 0;
  }

  LogicalResult build();

private:
  Value f(double v) { return constF32(b, loc, v); }
  Value extract(Value v, int64_t i) {
    return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{i});
  }
  Value vec(ArrayRef<Value> elems) {
    auto t = VectorType::get({static_cast<int64_t>(elems.size())},
                             elems.front().getType());
    return vector::FromElementsOp::create(b, loc, t, elems);
  }

  /// The indices of element (batch bIdx, head `h`, sequence row `row`,
  /// column `col`) of a global operand or the result: {bIdx, h, row, col}
  /// in the bhsd layout, {bIdx, row, h, col} in bshd.
  SmallVector<Value, 4> globalIndices(Value h, Value row, Value col) {
    if (seqMajor)
      return {bIdx, row, h, col};
    return {bIdx, h, row, col};
  }

  /// The indices of element `col` of query tile row `v` (of the qRows rows
  /// per grid row): with pack_gqa, token v % Sq of query head
  /// kvHead x Hq / Hkv + v / Sq; without, token v of `head`.
  SmallVector<Value, 4> queryIndices(Value v, Value col) {
    if (!pack)
      return globalIndices(head, v, col);
    return globalIndices(add(mul(kvHead, group), div(v, sq)), rem(v, sq), col);
  }
  /// The query token (sequence position) of tile row `v`.
  Value queryToken(Value v) { return pack ? rem(v, sq) : v; }

  /// Copies rows [row0, row0 + rows) of a sequence of `length` rows into
  /// `lds` at indices prefix ++ (r, c), reading row `row`'s column `col` of
  /// the global `g` at at(row, col); rows at or past `length` read row
  /// length - 1 instead. cp.async appends its tokens to `tokens`.
  void copyTile(Value g, function_ref<SmallVector<Value, 4>(Value, Value)> at,
                Value row0, int64_t rows, int64_t cols, int64_t length,
                Value lds, ValueRange prefix, SmallVectorImpl<Value> &tokens);
  /// Copies key/value block `kb` into LDS: K into stage `kStage`, V into
  /// `vStage`.
  void copyKvBlock(Value kb, Value kStage, Value vStage,
                   SmallVectorImpl<Value> &tokens);
  /// Brings key/value block `kb` into LDS for the block's compute (the
  /// wait, barriers and prefetch of the next block that `stages` asks
  /// for); returns its K stage.
  Value bringBlock(Value kb);
  Value commit(ArrayRef<Value> tokens);
  /// Reduces each value over the lanes that hold one row: the 4 lanes of
  /// a quad (the m16n8 layout), or on AMD matrix cores lanes l, l ^ 16
  /// (, l ^ 32).
  SmallVector<Value> rowReduce(ArrayRef<Value> values,
                               const Combiner &combine) {
    SmallVector<Value> out;
    for (Value v : values) {
      if (!amdCore) {
        out.push_back(subgroupReduce(b, loc, v, combine, 4, waveSize).front());
        continue;
      }
      for (int64_t offset = 16; offset < waveSize; offset *= 2) {
        Value other = gpu::ShuffleOp::create(b, loc, v, offset, waveSize,
                                             gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        v = combine(b, loc, v, other).front();
      }
      out.push_back(v);
    }
    return out;
  }
  void waitAll();

  /// The query row (in the tile) and key column (in the block; for O the
  /// column along Dv) of element `e` of tile `j` (tileN columns) in row
  /// group `i` of this lane.
  Value rowOf(int64_t i, int64_t e) {
    if (amdCore)
      return add(add(waveRow, 16 * i), lq);
    return add(add(waveRow, 16 * i + rowStep * (e / 2)), g);
  }
  Value colOf(int64_t j, int64_t e) {
    if (!amdCore)
      return add(mul(t4, 2), 8 * j + e % 2);
    // The accumulator rows of S^T (keys) and O^T (columns of Dv).
    if (gfx11)
      return add(lg, 16 * j + 2 * e);
    return add(mul(lg, perTile), 16 * j + e);
  }

  /// Q fragments of row group i and K step kk (ldmatrix.x4).
  Value loadQFragment(int64_t i, int64_t kk);
  /// S of row group `i` for the block in `stage`, one vector<perTile> per
  /// n8 tile.
  SmallVector<Value> scoresMma(int64_t i, Value stage);
  SmallVector<SmallVector<Value>> scoresFma(Value stage, Value kv0);
  /// AMD matrix cores: one instruction (MFMA or WMMA 16 x 16 x 16).
  Value amdMma(Value a, Value bOperand, Value acc) {
    if (mfma)
      return amdgpu::MFMAOp::create(b, loc, acc.getType(), 16, 16, 16,
                                    /*blocks=*/1, a, bOperand, acc);
    return amdgpu::WMMAOp::create(b, loc, acc.getType(), 16, 16, 16, a,
                                  bOperand, acc);
  }
  /// The kPer elements along K that this lane holds of an AMD operand
  /// fragment whose row `row` of `lds` (at `prefix`) has K contiguous, K
  /// step kk.
  Value loadAmdFragment(Value lds, ValueRange prefix, Value row, int64_t kk);
  /// S^T of row group `i` (AMD matrix cores), one vector<perTile> per 16
  /// keys.
  SmallVector<Value> scoresAmd(int64_t i, Value stage);
  void accumulateAmd(ArrayRef<SmallVector<Value>> p, Value stage,
                     SmallVectorImpl<Value> &o);
  /// sm_90a's warpgroup MMA (AttentionWgmma.cpp). Allocates the swizzled
  /// LDS panels of Q, K and V.
  void allocateWgmmaLds();
  /// The LDS indices of element (row `r`, column `col`, a multiple of 8) of
  /// a tile kept in 128-byte-swizzled panels: prefix ++ (col / 64, r,
  /// ((col % 64) / 8 XOR r % 8) x 8 + col % 8).
  SmallVector<Value> swizzledIndices(ValueRange prefix, Value r, Value col);
  /// S of this wave's 16 rows (its warpgroup's 64 by one wgmma per 16 of
  /// D), one vector<4> per n8 tile as scoresMma's.
  SmallVector<Value> scoresWgmma(Value stage);
  /// O += P V by wgmma, P (the m16n8 accumulators) as A fragments in
  /// registers.
  void accumulateWgmma(ArrayRef<SmallVector<Value>> p, Value stage,
                       SmallVectorImpl<Value> &o);
  /// Issues (commits, does not wait for) S = Q K^T for the keys of the
  /// block in `stage` from key0 on, as many as `acc` (zeroed, fenced
  /// accumulators) has columns.
  Value issueScoresWgmma(Value stage, int64_t key0, Value acc);
  /// Issues (commits, does not wait for) O += P V for keys [key0, key0 +
  /// 16 x p.size() / 2) of the block in `stage`: fences O's struct `o`
  /// and P's registers, then one wgmma per 16 keys. `p`: P's n8 tiles of
  /// those keys (vector<4> each).
  Value issueValuesWgmma(ArrayRef<Value> p, Value stage, int64_t key0, Value o);
  /// The same with P already packed (packProbabilities) and V in LDS
  /// stage `vStage`.
  Value issueValuesWgmmaPacked(ArrayRef<Value> regs, Value vStage, int64_t key0,
                               Value o);
  /// P's n8 tiles as wgmma A fragments: per 16 keys, 4 b32 registers of
  /// 16-bit pairs.
  SmallVector<Value> packProbabilities(ArrayRef<Value> p);
  /// wgmma_pipeline = 1 (AttentionWgmma.cpp). The state carries, after O,
  /// m and l, the previous block's P (packProbabilities' tile_kv / 4
  /// registers). firstPipelinedBlock: block kb's S and softmax, no P V.
  /// pipelinedWgmmaBlock: block kb's S and row maxima, then block kb - 1's
  /// P V issued and kb's exponentials under it, then O rescaled.
  /// drainPipeline: the last block's P V (its V in `vStage`).
  void firstPipelinedBlock(Value kb, bool masked,
                           SmallVectorImpl<Value> &state);
  void pipelinedWgmmaBlock(Value kb, Value stage, Value kv0, bool masked,
                           SmallVectorImpl<Value> &state);
  void drainPipeline(Value vStage, SmallVectorImpl<Value> &state);
  /// O's n8 tiles (vector<4> each) as wgmma's accumulator struct, and back.
  Value packAccumulators(ArrayRef<Value> tiles);
  SmallVector<Value> unpackAccumulators(Value acc, int64_t tiles);
  /// wgmma_overlap = 1: one key/value block with S in two wgmma groups
  /// (the block's halves), the first half's softmax while the second's
  /// MMAs run and the second's while the first half's P V runs.
  void overlappedWgmmaBlock(Value stage, Value kv0, bool masked,
                            SmallVectorImpl<Value> &state);
  /// O += P V.
  void accumulateMma(ArrayRef<SmallVector<Value>> p, Value stage,
                     SmallVectorImpl<Value> &o);
  void accumulateFma(ArrayRef<SmallVector<Value>> p, Value stage, Value kv0,
                     SmallVectorImpl<Value> &o);
  /// The FMA kernel's operand reads: from LDS, or with stages = 0 from
  /// global memory. `row` is the query row in the tile, `key` the key row in
  /// the block starting at key `kv0`; V is read two columns at a time.
  Value loadQuery(Value row, Value k);
  Value loadKey(Value stage, Value kv0, Value key, Value k);
  Value loadValuePair(Value stage, Value kv0, Value key, Value col);
  /// Global row `row` of a sequence of `length` rows, clamped to the last
  /// row where `partial` tiles may run past it.
  Value clampRow(Value row, int64_t length, bool partial) {
    return partial
               ? arith::MinUIOp::create(b, loc, row, c(length - 1)).getResult()
               : row;
  }

  /// The additive mask's loads for S's tile jj (tileN keys, from key kv0)
  /// in row group i: aligned pairs of adjacent keys (vector<2>) where the
  /// layout and Skv allow, else one element each, in the mask's type.
  SmallVector<Value> loadMaskTile(int64_t i, int64_t jj, Value kv0);
  /// Every tile's loads of the block from key kv0 ([i x tiles + jj]),
  /// issued ahead of the products that hide their latency; empty without
  /// a mask.
  using MaskBlock = SmallVector<SmallVector<Value>>;
  MaskBlock loadMaskBlock(Value kv0);
  /// A tile's loads as f32, one per accumulator element.
  SmallVector<Value> maskTerms(ArrayRef<Value> loads);
  /// Scales S's tiles [j0, j1) (of tileN keys, from key kv0) of every row
  /// group to the log2 domain (with an additive mask: adds it, the scores
  /// kept in natural units up to exp2's argument), masks them
  /// (`masked`: causal and keys past Skv), updates the online
  /// softmax's m and l in `state` with them and replaces them by P =
  /// exp2(S - m). Returns, per row group, the factor exp2(m_old - m_new) by
  /// which the caller rescales O (one vector<perTile>).
  /// `maskBlock`: the block's mask loads (loadMaskBlock), or empty to
  /// load the mask here. `afterMax`, when given, is called once every
  /// row's max is known and before the exponentials (no cross-lane work
  /// follows it).
  SmallVector<Value> softmaxUpdate(SmallVectorImpl<SmallVector<Value>> &s,
                                   int64_t j0, int64_t j1, Value kv0,
                                   bool masked, SmallVectorImpl<Value> &state,
                                   const MaskBlock &maskBlock = {},
                                   function_ref<void()> afterMax = nullptr);
  /// The loop over key/value blocks [begin, end): the state is O (rowGroups
  /// x nd vectors), then m and l (rowGroups x perTile / 2 scalars each).
  SmallVector<Value> buildLoop(Value begin, Value end, ValueRange state,
                               bool masked);
  SmallVector<Value> buildBlock(Value kb, ValueRange state, bool masked);

  KernelContext &kc;
  AttentionOp op;

  int64_t tq, tkv, waves, stages, waveSize, threads;
  /// Workgroups per query tile (each over its share of the key/value
  /// blocks), and whether a GQA group's heads share the query tiles.
  int64_t kvSplit;
  bool pack;
  /// Query heads per key/value head; query rows per grid row (Sq, or
  /// Sq x group with pack_gqa).
  int64_t group, qRows;
  bool useMma, causal, asyncCopy;
  /// The op has an additive mask (kc.args[3]).
  bool hasMask;
  /// AMD matrix cores (the transposed products), MFMA (else WMMA), and
  /// gfx11's WMMA operand layout.
  bool amdCore, mfma, gfx11;
  /// Whether the Q fragments stay in registers for the whole key loop.
  bool holdQ;
  /// sm_90a's warpgroup MMA: Q, K and V in swizzled LDS panels read by
  /// wgmma, waves of 16 rows in warpgroups of 64.
  bool wgmmaCore;
  /// wgmma_overlap: S of a block in two halves, softmax under the MMAs.
  bool wgmmaOverlap;
  /// wgmma_pipeline: block kb's exponentials under block kb - 1's P V;
  /// V's LDS buffers (stages, or stages + 1 when pipelined).
  bool wgmmaPipeline;
  int64_t vStages;
  /// Columns per accumulator tile (8: m16n8; 16 on AMD) and the K values
  /// per lane of an AMD operand fragment.
  int64_t tileN, kPer;
  /// The bshd layout: the sequence dim before the heads in global memory.
  bool seqMajor;
  /// stages = 0: operands read from global memory.
  bool fromGlobal;
  /// Whether the last query tile / key-value block is partial.
  bool partialQ, partialKv;
  int64_t batch, hq, hkv, sq, skv, d, dv, elemBytes, vw, pad, offset;
  /// Tiles of O along Dv: ceil(Dv / tileN). The last one is partial when
  /// Dv is not a multiple of 8 (the FMA kernel only): its columns past Dv
  /// read a clamped column of V and are not stored.
  int64_t nd;
  bool partialDv;
  double scaleLog2;
  Type elemT;
  /// 16-row groups per wave; accumulator elements per lane and tile; the
  /// rows they belong to and the elements of each (elements
  /// [r perRow, (r + 1) perRow) are row r's); rows between a lane's two
  /// rows of an m16n8 tile (8 on wave32, 16 on wave64).
  int64_t rowGroups, perTile, rowsPerLane, perRow, rowStep;

  /// lq, lg: lane % 16 and lane / 16 (AMD matrix cores).
  Value tid, lane, wave, g, t4, lq, lg, waveRow, q0, bIdx, head, kvHead, numKv;
  /// The last key/value block this workgroup walks (the prefetch's clamp).
  Value lastKv;
  Value qLds, kLds, vLds, pLds;
  SmallVector<Value> qFrags;
  /// The first group's token (the waits' operand).
  Value lastToken;
};

} // namespace mlir::hkg::attention

#endif // HKG_LIB_CONVERSION_HKGTOGPU_ATTENTIONKERNEL_H
