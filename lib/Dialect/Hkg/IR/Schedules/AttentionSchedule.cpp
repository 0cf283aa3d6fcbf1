//===- AttentionSchedule.cpp - schedule of hkg.attention ------------------===//
//
// Flash-attention style: a workgroup owns `tile_q` query rows of one head and
// streams key/value blocks of `tile_kv` rows through LDS (`stages` buffers),
// keeping an online softmax; `waves` waves split the query rows in groups
// of 16 (lib/Conversion/HkgToGPU/Attention.cpp). Lengths the tiles do not
// divide are guarded in the kernel (a partial last query tile or key/value
// block), so that decode steps (1..15 queries) and odd key lengths run.
//
// Decode (flash-decoding, issue 28): `kv_split` workgroups share a query
// tile, each over 1 / kv_split of the key/value blocks, and the last to
// finish combines their partials (AttentionSplitKv.cpp); `pack_gqa` makes
// the query heads of a GQA group the rows of one tile, so that a key/value
// block is read once per key/value head.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/Schedules/AttentionSchedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// The matrix instructions the attention kernel is written for: mma.sync
/// m16n8k16 on NVIDIA, MFMA 16x16x16 (CDNA) and WMMA 16x16x16 (RDNA 3 / 4)
/// on AMD, and sm_90a's warpgroup MMA under one keyword, wgmma_64x128x16:
/// its instructions are m64nNk16 with N = tile_kv for S = Q K^T and N = Dv
/// for O = P V (AttentionWgmma.cpp), whatever the keyword's 128.
static bool attentionSupportsMma(const MmaInstruction &mma) {
  if (mma.family == MmaFamily::MmaSync)
    return mma.m == 16 && mma.n == 8 && mma.k == 16;
  if (mma.family == MmaFamily::Wgmma)
    return mma.m == 64 && mma.n == 128 && mma.k == 16;
  if (mma.family == MmaFamily::Mfma || mma.family == MmaFamily::Wmma)
    return mma.m == 16 && mma.n == 16 && mma.k == 16;
  return false;
}

/// Whether the kernel keeps V transposed in LDS: the AMD matrix cores'
/// products run transposed (O^T = V^T P^T; Attention.cpp).
static bool transposesValues(const MmaInstruction &mma) {
  return mma.family == MmaFamily::Mfma || mma.family == MmaFamily::Wmma;
}

/// The wgmma kernel: rows of its swizzled LDS panels (128 bytes of 16-bit
/// elements: D and Dv are multiples of it), the largest instruction N (Dv),
/// the query rows of a warpgroup, and the registers a thread needs besides
/// S's tile_kv / 2 and O's Dv / 2 accumulators and P's tile_kv / 4 packed
/// pairs (addresses, descriptors, the softmax's m and l and temporaries).
static constexpr int64_t kWgmmaPanel = 64;
static constexpr int64_t kWgmmaMaxN = 256;
static constexpr int64_t kWgmmaRows = 64;
static constexpr int64_t kAttentionWgmmaRegisterReserve = 40;

/// Registers per thread of the wgmma kernel's accumulators and P.
static int64_t wgmmaRegisters(int64_t tileKv, int64_t dv) {
  return tileKv / 2 + dv / 2 + tileKv / 4 + kAttentionWgmmaRegisterReserve;
}

/// The smallest query and key/value tiles: the kernel's 16-row groups.
static constexpr int64_t kMinAttentionTile = 16;
/// The largest default tiles.
static constexpr int64_t kMaxDefaultAttentionTile = 64;
/// The largest kv_split.
static constexpr int64_t kMaxKvSplit = 64;
/// The default kv_split gives each split at least this many key/value
/// blocks, and stops growing at this many workgroups per compute unit.
static constexpr int64_t kMinDefaultBlocksPerSplit = 4;
static constexpr int64_t kDefaultWorkgroupsPerCU = 16;
/// The largest workspace a kv_split schedule may ask for (as split-K's).
static constexpr int64_t kMaxKvSplitWorkspaceBytes = int64_t(256) << 20;
/// pack_gqa is the default for query lengths up to this (decode steps).
static constexpr int64_t kMaxDefaultPackedQueryLength = 16;

/// The query rows the tiles cover per (batch, key/value head) with
/// pack_gqa, per (batch, query head) without.
static int64_t queryRows(const AttentionOp::Shape &shape, bool pack) {
  return pack ? shape.qLen * (shape.qHeads / shape.kvHeads) : shape.qLen;
}

/// Query tiles of the grid: one per `tileQ` rows of each (batch, head).
static int64_t queryTiles(const AttentionOp::Shape &shape, bool pack,
                          int64_t tileQ) {
  return shape.batch * (pack ? shape.kvHeads : shape.qHeads) *
         llvm::divideCeil(queryRows(shape, pack), tileQ);
}

/// The default tile over a sequence of `length` rows: the largest of 64, 32
/// and 16 that divides it, or, where none does, the smallest that covers it
/// (at most 64; the kernel guards the partial last tile).
static int64_t defaultTile(int64_t length) {
  for (int64_t t = kMaxDefaultAttentionTile; t >= kMinAttentionTile; t /= 2)
    if (length % t == 0)
      return t;
  return std::clamp<int64_t>(llvm::bit_ceil(static_cast<uint64_t>(length)),
                             kMinAttentionTile, kMaxDefaultAttentionTile);
}

/// Head dims each kernel takes: the mma kernel steps through D and Dv in
/// 16-element fragments; the FMA kernel keeps O in 8-column tiles (the last
/// one partial for a Dv that 8 does not divide) and stages Q, K and V in LDS
/// in 16-byte chunks (D and Dv multiples of 16 bytes), which stages = 0 does
/// without.
static bool mmaFitsHeadDims(int64_t d, int64_t dv) {
  return d % 16 == 0 && dv % 16 == 0;
}
static bool chunksFitHeadDims(int64_t d, int64_t dv, int64_t bytes) {
  int64_t chunk = 16 / bytes;
  return d % chunk == 0 && dv % chunk == 0;
}

/// LDS bytes of a schedule: the query tile, `stages` key and value blocks
/// (rows padded by 16 bytes against ldmatrix bank conflicts; V transposed,
/// Dv rows of tile_kv + pad, on AMD matrix cores) and, for the FMA kernel,
/// the f32 P tile. With stages = 0 only P: the operands are read from
/// global memory. kv_split > 1 adds a 16-byte slot for the arrival flag
/// (AttentionSplitKv.cpp); a pipelined key loop (wgmma_pipeline) one more
/// value block.
static int64_t attentionLdsBytes(int64_t tileQ, int64_t tileKv, int64_t stages,
                                 const MmaInstruction &mma, int64_t d,
                                 int64_t dv, int64_t bytes, bool split,
                                 bool pipelined = false) {
  // wgmma: the 128-byte swizzle needs no padding.
  int64_t pad = mma.family == MmaFamily::Wgmma ? 0 : 16 / bytes;
  int64_t p = (mma.isNone() ? tileQ * tileKv * 4 : 0) + (split ? 16 : 0);
  if (stages == 0)
    return p;
  int64_t values =
      transposesValues(mma) ? dv * (tileKv + pad) : tileKv * (dv + pad);
  int64_t valueStages = stages + (pipelined ? 1 : 0);
  return (tileQ * (d + pad) + stages * tileKv * (d + pad) +
          valueStages * values) *
             bytes +
         p;
}

/// Sketches of a warpgroup-MMA attention (ScheduleSketch): the tile shapes
/// of one and two warpgroups (tile_q and waves change together), each with
/// the softmax under the MMAs by block halves (wgmma_overlap) and by the
/// pipelined key loop (wgmma_pipeline), double-buffered and unsplit. On
/// the H100 the best of these differs by head dim (64 x 64 tiles at D64,
/// 128 x 128 at D128, tile_kv 64 at D256: docs/perf), and none is one
/// knob from another: waves must follow tile_q, and the pipeline needs
/// stages = 2 and kv_split = 1.
static void addWgmmaSketches(ScheduleSpace &space) {
  struct Tiles {
    int64_t tileQ, tileKv;
  };
  static constexpr Tiles kTiles[] = {
      {128, 128}, {128, 64}, {64, 64}, {64, 128}};
  for (Tiles t : kTiles)
    for (int64_t variant = 0; variant < 3; ++variant) {
      ScheduleSketch sketch;
      sketch.knobs = {{kTileQ.name.str(), t.tileQ},
                      {kWaves.name.str(), t.tileQ / 16},
                      {kTileKv.name.str(), t.tileKv},
                      {kMma.name.str(), std::string("wgmma_64x128x16")},
                      {kStages.name.str(), int64_t(2)},
                      {kKvSplit.name.str(), int64_t(1)},
                      {kWgmmaOverlap.name.str(), int64_t(variant == 1)},
                      {kWgmmaPipeline.name.str(), int64_t(variant == 2)}};
      space.addSketch(std::move(sketch));
    }
}

ScheduleSpace AttentionOp::getScheduleSpace(const TargetInfo &target) {
  Type elem = getQuery().getType().getElementType();
  bool half = elem.isF16() || elem.isBF16();
  SmallVector<StringRef> mmas = {"none"};
  for (StringRef m : target.mmaIntrinsics)
    if (attentionSupportsMma(MmaInstruction::parse(m)))
      mmas.push_back(m);
  Shape shape = getShape();
  int64_t d = shape.headDim, dv = shape.valueDim;
  int64_t bytes = elementBytes(elem);
  StringRef mma =
      half && mmas.size() > 1 && mmaFitsHeadDims(d, dv) ? mmas[1] : "none";
  // The default: 64 x 64 tiles, four waves of 16 rows, two stages; smaller
  // tiles where the sequence lengths need them, and then within the LDS
  // (see verifyScheduleConstraints): large head dims give up double
  // buffering first, then shrink the key/value block, then the query tile;
  // where even 16 x 16 tiles do not fit (D = 1024 on 64 KiB chips), the FMA
  // kernel reads its operands from global memory (stages = 0).
  int64_t sq = shape.qLen, skv = shape.kvLen;
  // Decode steps with grouped heads: the group's heads fill the query tile.
  bool pack =
      shape.qHeads > shape.kvHeads && sq <= kMaxDefaultPackedQueryLength;
  int64_t rows = queryRows(shape, pack);
  int64_t tileQ = defaultTile(rows), tileKv = defaultTile(skv), stages = 2;
  auto ldsBytes = [&] {
    return attentionLdsBytes(tileQ, tileKv, stages, MmaInstruction::parse(mma),
                             d, dv, bytes, /*split=*/false);
  };
  while (ldsBytes() > target.ldsBytesPerWorkgroup) {
    if (stages > 1)
      stages = 1;
    else if (tileKv > kMinAttentionTile)
      tileKv /= 2;
    else if (tileQ > kMinAttentionTile)
      tileQ /= 2;
    else
      break;
  }
  // Head dims the 16-byte copies do not divide (D = 36 bf16) are read from
  // global memory too.
  if (ldsBytes() > target.ldsBytesPerWorkgroup ||
      !chunksFitHeadDims(d, dv, bytes)) {
    mma = "none";
    stages = 0;
    tileQ = defaultTile(rows);
  }
  int64_t waves = std::min<int64_t>(4, tileQ / 16);
  // sm_90: warpgroup MMA for 16-bit prefill whose head dims are whole
  // 128-byte panels, up to wgmma's N of 256: 128 query rows (two
  // warpgroups of 64, eight waves of 16), key/value blocks of 128 (64 where
  // Dv = 256 would leave too few registers), two stages. Head dims of 64
  // take 64 x 64 tiles of one warpgroup: half the work per block, twice the
  // workgroups (1.15x over 128 x 128 at D64, docs/perf "wgmma attention").
  if (half && !pack && sq > kMaxDefaultPackedQueryLength &&
      llvm::is_contained(mmas, "wgmma_64x128x16") && d % kWgmmaPanel == 0 &&
      dv % kWgmmaPanel == 0 && d <= kWgmmaMaxN && dv <= kWgmmaMaxN) {
    bool narrow = std::max(d, dv) <= kWgmmaPanel;
    int64_t wgTileQ =
        rows > kWgmmaRows && !narrow ? 2 * kWgmmaRows : kWgmmaRows;
    int64_t wgTileKv = std::max(d, dv) > 128 || narrow ? 64 : 128;
    wgTileKv = std::min<int64_t>(
        wgTileKv,
        std::max<int64_t>(kMinAttentionTile,
                          llvm::bit_ceil(static_cast<uint64_t>(skv))));
    auto wg = MmaInstruction::parse("wgmma_64x128x16");
    int64_t wgThreads = wgTileQ / 16 * target.waveSize;
    if (attentionLdsBytes(wgTileQ, wgTileKv, 2, wg, d, dv, bytes,
                          /*split=*/false) <= target.ldsBytesPerWorkgroup &&
        wgmmaRegisters(wgTileKv, dv) <=
            std::min<int64_t>(255, 65536 / wgThreads)) {
      mma = "wgmma_64x128x16";
      tileQ = wgTileQ;
      tileKv = wgTileKv;
      stages = 2;
      waves = wgTileQ / 16;
    }
  }
  // Flash-decoding: where one query tile holds a head's (or with pack_gqa
  // a group's) queries, a decode step, and the tiles leave the compute
  // units idle, split the key/value blocks over more workgroups, while each
  // split keeps kMinDefaultBlocksPerSplit blocks and the grid stays within
  // kDefaultWorkgroupsPerCU workgroups per compute unit. Prefill (several
  // query tiles per head) keeps 1.
  int64_t tiles = queryTiles(shape, pack, tileQ);
  int64_t blocks = llvm::divideCeil(skv, tileKv);
  int64_t maxWorkgroups =
      kDefaultWorkgroupsPerCU * static_cast<int64_t>(target.computeUnits);
  int64_t kvSplit = 1;
  while (rows <= tileQ && 2 * kvSplit <= kMaxKvSplit &&
         tiles * 2 * kvSplit <= maxWorkgroups &&
         blocks / (2 * kvSplit) >= kMinDefaultBlocksPerSplit)
    kvSplit *= 2;
  // (Its arrival flag takes 16 bytes of LDS.)
  if (attentionLdsBytes(tileQ, tileKv, stages, MmaInstruction::parse(mma), d,
                        dv, bytes,
                        /*split=*/true) > target.ldsBytesPerWorkgroup)
    kvSplit = 1;
  // sm_90 prefill on two warpgroups (128-row query tiles): the key loop
  // pipelined across blocks where the third value buffer fits, 1.03-1.08x
  // at D128 and D256 on the H100; one warpgroup (D64's 64 x 64 tiles) keeps the
  // plain loop, which the pipeline's extra registers and barriers slow by 2%
  // (docs/perf "Attention"). Key lengths the blocks do not divide keep it
  // too: the masked last block beside the pipeline's registers spills
  // (ptxas: 300 bytes at D128). A schedule that leaves the knob out gets
  // the same rule applied to the knobs it gives.
  auto pipelines = [=, ldsLimit = target.ldsBytesPerWorkgroup](
                       StringRef m, int64_t tq, int64_t tkv, int64_t st,
                       int64_t split, bool overlap) {
    return m == "wgmma_64x128x16" && tq == 2 * kWgmmaRows && st == 2 &&
           split == 1 && !overlap && skv % tkv == 0 &&
           attentionLdsBytes(tq, tkv, st, MmaInstruction::parse(m), d, dv,
                             bytes, /*split=*/false,
                             /*pipelined=*/true) <= ldsLimit;
  };
  bool pipelined = pipelines(mma, tileQ, tileKv, stages, kvSplit, false);
  ScheduleSpace space;
  space.add(kTileQ, {16, 32, 64, 128}, tileQ, "query rows per workgroup");
  space.add(kTileKv, {16, 32, 64, 128}, tileKv, "key/value rows per step");
  space.add(kWaves, {1, 2, 4, 8}, waves,
            "waves per workgroup (each owns tile_q / waves query rows)");
  space.add(kMma, mmas, mma, "matrix-core instruction, or none for FMAs");
  space.add(kStages, {0, 1, 2}, stages,
            "LDS buffers for key/value blocks (0: no LDS staging, the "
            "operands read from global memory; mma = none only)");
  space.add(kKvSplit, {1, 2, 4, 8, 16, 32, 64}, kvSplit,
            "workgroups per query tile, each over 1 / kv_split of the "
            "key/value blocks, combined through a global workspace by the "
            "last to finish (flash-decoding)");
  // Warpgroup MMA's two ways of overlapping the softmax with the MMAs,
  // where wgmma is.
  if (half && llvm::is_contained(mmas, "wgmma_64x128x16")) {
    space.add(kWgmmaOverlap, false,
              "wgmma: S of each key/value block in two wgmma groups, the "
              "first half's softmax under the second half's MMAs, the "
              "second's under the first half's P V (tile_kv >= 32)");
    space.add(kWgmmaPipeline, pipelined,
              "wgmma: the key loop pipelined across blocks, block kb's "
              "exponentials under block kb - 1's P V (one more LDS buffer of "
              "V; stages = 2, kv_split = 1)");
    space.deriveDefault(kWgmmaPipeline, [=](KnobSpec::Lookup knob) {
      auto num = [&](IntKnob k) { return std::get<int64_t>(*knob(k.name)); };
      return pipelines(std::get<std::string>(*knob(kMma.name)), num(kTileQ),
                       num(kTileKv), num(kStages), num(kKvSplit),
                       std::get<int64_t>(*knob(kWgmmaOverlap.name)) != 0);
    });
  } else {
    for (StringRef knob : {kWgmmaOverlap.name, kWgmmaPipeline.name})
      space.addUnavailable(knob,
                           "warpgroup MMA takes f16 / bf16 attention on sm_90");
  }
  space.add(kPackGqa, pack,
            "1: the Hq / Hkv query heads sharing a key/value head are the "
            "rows of one query tile (grouped-query attention only)");
  if (mma == "wgmma_64x128x16")
    addWgmmaSketches(space);
  return space;
}

LogicalResult AttentionOp::verifyScheduleConstraints(
    const ResolvedSchedule &resolved, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  Type elem = getQuery().getType().getElementType();
  AttentionSchedule s = AttentionSchedule::decode(resolved);
  bool fma = s.mma.isNone();
  if (!fma && !(elem.isF16() || elem.isBF16()))
    return emitError() << "schedule knob '" << kMma.name << "' = " << s.mma.name
                       << " needs f16 or bf16 operands, got " << elem
                       << "; expected mma = none";
  int64_t waves = s.waves, tileQ = s.tileQ, tileKv = s.tileKv;
  if (tileQ % (16 * waves) != 0)
    return emitError() << "schedule knob '" << kTileQ.name << "' = " << tileQ
                       << " must be a multiple of 16 x '" << kWaves.name
                       << "' = " << 16 * waves
                       << " (each wave owns 16-row groups)";
  Shape shape = getShape();
  int64_t d = shape.headDim, dv = shape.valueDim;
  int64_t bytes = elementBytes(elem);
  if (!fma && !mmaFitsHeadDims(d, dv))
    return emitError() << "schedule knob '" << kMma.name << "' = " << s.mma.name
                       << " needs head dims that are multiples of 16, got D = "
                       << d << " and Dv = " << dv << "; expected mma = none";
  if (s.stages > 0 && !chunksFitHeadDims(d, dv, bytes))
    return emitError() << "schedule knob '" << kStages.name
                       << "' = " << s.stages
                       << " copies rows of D and Dv elements in 16-byte chunks "
                          "(multiples of "
                       << 16 / bytes << "), got D = " << d << " and Dv = " << dv
                       << "; expected stages = 0";
  if (s.stages == 0 && !fma)
    return emitError() << "schedule knob '" << kStages.name
                       << "' = 0 needs mma = none (the " << s.mma.name
                       << " kernel reads its fragments from LDS), got mma = "
                       << s.mma.name;
  if (s.mma.family == MmaFamily::Wgmma) {
    // AttentionWgmma.cpp: a warp per 16 rows, a warpgroup per 64; Q, K and
    // V in swizzled panels of 64 columns; Dv is one instruction's N.
    if (tileQ % kWgmmaRows != 0 || waves != tileQ / 16)
      return emitError()
             << "schedule knob '" << kMma.name << "' = " << s.mma.name
             << " needs '" << kTileQ.name << "' a multiple of " << kWgmmaRows
             << " (warpgroups of 64 rows) and '" << kWaves.name
             << "' = tile_q / 16 (a wave per 16 rows), got tile_q = " << tileQ
             << " and waves = " << waves;
    if (d % kWgmmaPanel != 0 || dv % kWgmmaPanel != 0 || dv > kWgmmaMaxN)
      return emitError() << "schedule knob '" << kMma.name
                         << "' = " << s.mma.name
                         << " needs D and Dv multiples of 64 (128-byte "
                            "swizzled rows) and Dv <= 256 (one instruction's "
                            "N), got D = "
                         << d << " and Dv = " << dv;
    int64_t threads = waves * target.waveSize;
    int64_t budget = std::min<int64_t>(255, 65536 / threads);
    if (wgmmaRegisters(tileKv, dv) > budget)
      return emitError() << "schedule knob '" << kMma.name
                         << "' = " << s.mma.name << " needs "
                         << wgmmaRegisters(tileKv, dv)
                         << " registers per thread (tile_kv / 2 + Dv / 2 "
                            "accumulators + tile_kv / 4 for P + "
                         << kAttentionWgmmaRegisterReserve
                         << "), more than the " << budget << " of " << threads
                         << " threads; expected a smaller tile_kv";
  }
  if (s.wgmmaOverlap && s.mma.family != MmaFamily::Wgmma)
    return emitError() << "schedule knob '" << kWgmmaOverlap.name
                       << "' = 1 needs warpgroup MMA, got mma = " << s.mma.name
                       << "; expected wgmma_overlap = 0";
  if (s.wgmmaOverlap && tileKv % 32 != 0)
    return emitError() << "schedule knob '" << kWgmmaOverlap.name
                       << "' = 1 splits a key/value block in halves of whole "
                          "16-key steps, got tile_kv = "
                       << tileKv << "; expected a multiple of 32";
  if (s.wgmmaPipeline) {
    if (s.mma.family != MmaFamily::Wgmma)
      return emitError() << "schedule knob '" << kWgmmaPipeline.name
                         << "' = 1 needs warpgroup MMA, got mma = "
                         << s.mma.name << "; expected wgmma_pipeline = 0";
    if (s.wgmmaOverlap)
      return emitError() << "schedule knobs '" << kWgmmaPipeline.name
                         << "' = 1 and '" << kWgmmaOverlap.name
                         << "' = 1 are two ways of overlapping the softmax "
                            "with the MMAs; expected one of them";
    if (s.stages != 2 || s.kvSplit != 1)
      return emitError() << "schedule knob '" << kWgmmaPipeline.name
                         << "' = 1 needs stages = 2 and kv_split = 1 (the "
                            "key loop of one workgroup, double-buffered), "
                            "got stages = "
                         << s.stages << " and kv_split = " << s.kvSplit;
  }
  int64_t lds = attentionLdsBytes(tileQ, tileKv, s.stages, s.mma, d, dv, bytes,
                                  s.kvSplit > 1, s.wgmmaPipeline);
  if (lds > target.ldsBytesPerWorkgroup)
    return emitError() << "schedule needs " << lds << " bytes of LDS ("
                       << (s.mma.family == MmaFamily::Wgmma
                               ? (s.wgmmaPipeline
                                      ? "tile_q x D + stages x tile_kv x D + "
                                        "(stages + 1) x tile_kv x Dv, "
                                        "unpadded"
                                      : "tile_q x D + stages x tile_kv x (D "
                                        "+ Dv), unpadded")
                           : transposesValues(s.mma)
                               ? "tile_q x (D + pad) + stages x (tile_kv x "
                                 "(D + pad) + Dv x (tile_kv + pad))"
                               : "tile_q x (D + pad) + stages x tile_kv x (D "
                                 "+ Dv + 2 pad)")
                       << " elements"
                       << (fma ? ", + tile_q x tile_kv f32 for P" : "")
                       << (s.kvSplit > 1 ? ", + 16 for kv_split's flag" : "")
                       << "); " << target.chip << " has "
                       << target.ldsBytesPerWorkgroup;
  if (s.packGqa && shape.qHeads == shape.kvHeads)
    return emitError() << "schedule knob '" << kPackGqa.name
                       << "' = 1 needs grouped-query heads (Hq > Hkv), got "
                          "Hq = Hkv = "
                       << shape.qHeads << "; expected pack_gqa = 0";
  if (s.kvSplit > 1) {
    int64_t blocks = llvm::divideCeil(shape.kvLen, tileKv);
    if (s.kvSplit > blocks)
      return emitError() << "schedule knob '" << kKvSplit.name
                         << "' = " << s.kvSplit << " exceeds the " << blocks
                         << " key/value blocks of tile_kv = " << tileKv
                         << " over Skv = " << shape.kvLen
                         << " (each split walks at least one block)";
    int64_t workspace = queryTiles(shape, s.packGqa, tileQ) * s.kvSplit *
                        AttentionSchedule::partialBytes(tileQ, dv);
    if (workspace > kMaxKvSplitWorkspaceBytes)
      return emitError() << "schedule knob '" << kKvSplit.name
                         << "' = " << s.kvSplit << " needs " << workspace
                         << " bytes of workspace (query tiles x kv_split x "
                            "tile_q x (Dv rounded up to 8 + 8) x 4); expected "
                            "at most "
                         << kMaxKvSplitWorkspaceBytes;
  }
  return success();
}

CostFeatures AttentionOp::getCostFeatures() {
  CostFeatures c;
  Shape shape = getShape();
  int64_t b = shape.batch, h = shape.qHeads, sq = shape.qLen, skv = shape.kvLen,
          d = shape.headDim, dv = shape.valueDim;
  double pairs = static_cast<double>(sq) * skv;
  // With `causal`, query i sees keys j <= i + (skv - sq).
  if (getCausal())
    pairs = static_cast<double>(sq) * (skv - sq + 1) +
            static_cast<double>(sq) * (sq - 1) / 2.0;
  c.flops = 2.0 * b * h * pairs * (d + dv);
  c.bytes = tensorBytes(*this, getQuery()) + tensorBytes(*this, getKey()) +
            tensorBytes(*this, getValue()) + tensorBytes(*this, getResult());
  if (Value mask = getMask())
    c.bytes += tensorBytes(*this, mask);
  c.shape = {b, h, sq, skv, d, dv};
  c.elementType = getQuery().getType().getElementType();
  return c;
}
