//===- MatmulSchedule.cpp - schedule of hkg.matmul ------------------------===//
//
// A workgroup computes a tile_m x tile_n block of the result, stepping
// through K by tile_k with operands staged in LDS over `stages` buffers
// (rows padded by lds_pad elements, 16-byte chunks XOR-swizzled with
// lds_swizzle); waves_m x waves_n waves split the tile, each issuing `mma`
// matrix-core instructions (or plain FMAs with `mma = none`); A and B are
// read from global memory in vector_width-element chunks; `split_k`
// workgroups of a cluster share an output tile (sm_90); `wgmma_pending`
// keeps warpgroup MMAs in flight across K steps. The kernel is built by
// lib/Conversion/HkgToGPU/MatmulTilePipeline.cpp and one file per
// instruction family; docs/Matmul.md explains the defaults.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// The shallowest K step (tile_k), and the smallest tile_m and tile_n.
static constexpr int64_t kMinTileK = 16;
static constexpr int64_t kMinTile = 16;

/// Most f32 accumulators one thread may hold.
static constexpr int64_t kMaxAccumulatorsPerThread = 128;

/// 32-bit registers of an NVIDIA workgroup (sm_80, sm_90: 64 K per block).
static constexpr int64_t kNvidiaRegistersPerWorkgroup = 64 * 1024;

/// Registers a wgmma thread needs besides the instruction's accumulators,
/// which must all be live at once (ptxas cannot spill them): 128
/// accumulators (256 x 256 tiles of wgmma_64x256x16 over 4 warpgroups) need
/// 154 registers, more than the 128 that 512 threads leave each, and ptxas
/// refuses them ("Insufficient registers (128) to compile instruction").
static constexpr int64_t kWgmmaRegisterReserve = 26;

MmaInstruction MmaInstruction::parse(StringRef keyword) {
  MmaInstruction instr;
  // Spelled <family>_<M>x<N>x<K>[_<operands>].
  auto [prefix, rest] = keyword.split('_');
  auto [dims, suffix] = rest.split('_');
  MmaFamily family = llvm::StringSwitch<MmaFamily>(prefix)
                         .Case("mma", MmaFamily::MmaSync)
                         .Case("wgmma", MmaFamily::Wgmma)
                         .Case("mfma", MmaFamily::Mfma)
                         .Case("wmma", MmaFamily::Wmma)
                         .Default(MmaFamily::None);
  std::optional<MmaOperands> operands = MmaOperands::Native;
  if (dims.size() != rest.size())
    operands = llvm::StringSwitch<std::optional<MmaOperands>>(suffix)
                   .Case("tf32x3", MmaOperands::Tf32x3)
                   .Default(std::nullopt);
  SmallVector<StringRef, 3> parts;
  dims.split(parts, 'x');
  int64_t m, n, k;
  if (family == MmaFamily::None || !operands || parts.size() != 3 ||
      parts[0].getAsInteger(10, m) || parts[1].getAsInteger(10, n) ||
      parts[2].getAsInteger(10, k))
    return instr;
  instr.family = family;
  instr.m = m;
  instr.n = n;
  instr.k = k;
  instr.operands = *operands;
  instr.name = keyword.str();
  return instr;
}

static bool isHalfType(Type t) { return t.isF16() || t.isBF16(); }

/// The 8-bit float format of `t`, or Fp8Format::None.
static Fp8Format fp8FormatOf(Type t) {
  if (isa<Float8E4M3FNType, Float8E5M2Type>(t))
    return Fp8Format::OCP;
  if (isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t))
    return Fp8Format::FNUZ;
  return Fp8Format::None;
}

/// Whether `target` multiplies operands of `elem` if they are 8-bit floats:
/// a chip with an 8-bit float format takes only that one; a chip without
/// computes any of them with FMAs.
static bool takesFp8Format(Type elem, const TargetInfo &target) {
  Fp8Format format = fp8FormatOf(elem);
  return format == Fp8Format::None || target.fp8Format == Fp8Format::None ||
         format == target.fp8Format;
}

/// M or N at most this is a matrix-vector product (decode batches).
static constexpr int64_t kMaxVectorDim = 16;

/// The widest split_k, and the largest workspace a schedule may take.
static constexpr int64_t kMaxSplitK = 256;
static constexpr int64_t kMaxWorkspaceBytes = int64_t(256) << 20;

/// K steps each workgroup of a matrix-vector default's split keeps at least
/// (the K pipeline fills `stages` steps before it streams).
static constexpr int64_t kMinStepsPerSplit = 8;

/// Workgroups per compute unit the matrix-vector default aims for: a
/// memory-bound kernel needs enough bytes in flight on every CU (Little's
/// law), and several waves of workgroups keep the last wave's tail short.
static constexpr int64_t kMatrixVectorWorkgroupsPerCU = 8;

/// The matrix-vector default's split of K: the smallest power of two that
/// gives every compute unit kMatrixVectorWorkgroupsPerCU workgroups, while
/// each keeps kMinStepsPerSplit K steps and the split divides the steps.
static int64_t defaultMatrixVectorSplit(int64_t tiles, int64_t steps,
                                        const TargetInfo &target) {
  int64_t want = kMatrixVectorWorkgroupsPerCU * target.computeUnits;
  int64_t split = 1;
  while (2 * split <= kMaxSplitK && tiles * split < want &&
         steps % (2 * split) == 0 && steps / (2 * split) >= kMinStepsPerSplit)
    split *= 2;
  return split;
}

/// Whether the kernel builder lowers `mma` on `target`: it emits WMMA only
/// in the 16x16x16 operand layouts of gfx11 and gfx12, and gfx1250's f16/bf16
/// WMMA is 16x16x32, so matmuls there use FMAs.
static bool isUsableMma(StringRef mma, const TargetInfo &target) {
  return !(MmaInstruction::parse(mma).family == MmaFamily::Wmma &&
           target.chip == "gfx1250");
}

/// The target's 3xTF32 instructions (f32 operands as three tf32 MMAs).
static SmallVector<StringRef> tf32x3Mmas(const TargetInfo &target) {
  SmallVector<StringRef> out;
  for (StringRef m : target.mmaIntrinsics)
    if (MmaInstruction::parse(m).isTf32x3())
      out.push_back(m);
  return out;
}

/// The target's first 3xTF32 instruction (mma.sync's, the default's), or an
/// empty string.
static StringRef tf32x3Mma(const TargetInfo &target) {
  SmallVector<StringRef> all = tf32x3Mmas(target);
  return all.empty() ? StringRef() : all.front();
}

/// The chip's shared memory per workgroup: on NVIDIA the kernel takes what
/// is above 48 KiB as dynamic shared memory (LowerToGPU.cpp).
static int64_t ldsLimit(const TargetInfo &target) {
  return target.ldsBytesPerWorkgroup;
}

/// Lanes of a wave as rows x columns of FMA micro-tiles (mma = none).
static std::pair<int64_t, int64_t> fmaLaneGrid(int64_t waveSize) {
  return waveSize == 64 ? std::make_pair<int64_t, int64_t>(8, 8)
                        : std::make_pair<int64_t, int64_t>(4, 8);
}

/// The widest power of two <= `vw` dividing the contiguous dims of both
/// operands in global memory.
static int64_t widestDividing(MatmulOp op, int64_t vw) {
  int64_t a = op.readsLhsTransposed() ? op.getM() : op.getK();
  int64_t b = op.readsRhsTransposed() ? op.getK() : op.getN();
  while (vw > 1 && (a % vw != 0 || b % vw != 0))
    vw /= 2;
  return vw;
}

/// Sketches of a matmul (ScheduleSketch): every tile shape of the default's
/// instruction family with its waves, at the deepest pipeline (at most 4
/// stages) its LDS allows, and for wgmma each also with the MMAs left in
/// flight across K steps (wgmma_pending = 1). These knobs pay together or
/// not at all: on the H200, 128 x 256 tiles (wgmma_64x256x16) over 4 stages
/// with pending 1 beat the default on large squares, while the same tiles
/// without pending, or pending on the default's tiles, are slower than the
/// default (docs/perf): an evolutionary step through either is discarded.
static void addTileSketches(ScheduleSpace &space, StringRef mma,
                            ArrayRef<StringRef> mmas, int64_t wavesM,
                            int64_t wavesN, int64_t tileK, int64_t pad,
                            int64_t bytes, const TargetInfo &target) {
  auto deepest = [&](int64_t tm, int64_t tn, int64_t least) -> int64_t {
    for (int64_t stages = 4; stages >= least; --stages)
      if (stages * (tm + tn) * (tileK + pad) * bytes <= ldsLimit(target))
        return stages;
    return 0;
  };
  auto add = [&](int64_t tm, int64_t tn, int64_t wm, int64_t wn,
                 StringRef instr, int64_t stages, int64_t pending) {
    ScheduleSketch sketch;
    sketch.knobs = {{kTileM.name.str(), tm},
                    {kTileN.name.str(), tn},
                    {kWavesM.name.str(), wm},
                    {kWavesN.name.str(), wn},
                    {kMma.name.str(), instr.str()},
                    {kStages.name.str(), stages},
                    {kWgmmaPending.name.str(), pending}};
    space.addSketch(std::move(sketch));
  };
  static constexpr int64_t kTiles[] = {64, 128, 256};
  if (MmaInstruction::parse(mma).family != MmaFamily::Wgmma) {
    for (int64_t tm : kTiles)
      for (int64_t tn : kTiles)
        if (int64_t stages = deepest(tm, tn, 2))
          add(tm, tn, wavesM, wavesN, mma, stages, 0);
    return;
  }
  // With wgmma a warpgroup computes one 64 x N instruction tile.
  static constexpr std::pair<int64_t, int64_t> kWarpgroups[] = {
      {1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}};
  for (StringRef instr : mmas) {
    MmaInstruction shape = MmaInstruction::parse(instr);
    if (shape.family != MmaFamily::Wgmma || shape.isTf32x3())
      continue;
    int64_t n = shape.n, m = shape.m;
    for (auto [wm, wn] : kWarpgroups) {
      int64_t tm = wm * m, tn = wn * n;
      if (!llvm::is_contained(kTiles, tm) || !llvm::is_contained(kTiles, tn))
        continue;
      for (int64_t pending : {0, 1})
        if (int64_t stages = deepest(tm, tn, pending ? 3 : 2))
          add(tm, tn, wm, wn, instr, stages, pending);
    }
  }
}

/// Whether the default of `op` takes 128 x 256 tiles: a problem with such a
/// tile for every SM, whose space's defaults (`base`) are the warpgroup-MMA
/// kernel of 128 x 128 tiles without a K split, on a target with
/// wgmma_64x256x16.
/// The warpgroup MMAs of N = 128 and 256 for operands of `bytes` bytes
/// (K = 32 for 8-bit operands, 16 for 16-bit ones).
static std::pair<StringRef, StringRef> wgmmaNames(int64_t bytes) {
  if (bytes == 1)
    return {"wgmma_64x128x32", "wgmma_64x256x32"};
  return {"wgmma_64x128x16", "wgmma_64x256x16"};
}

static bool takesWideTiles(MatmulOp op, const ResolvedSchedule &base,
                           const TargetInfo &target) {
  Type elem = op.getLhs().getType().getElementType();
  int64_t bytes = elementBytes(elem);
  auto [narrow, wide] = wgmmaNames(bytes);
  ArrayRef<StringLiteral> instrs =
      bytes == 1 ? target.mmaIntrinsicsFor8Bit(elem.isInteger(8))
                 : target.mmaIntrinsics;
  if (base.get(kMma) != narrow || base.get(kSplitK) != 1 || op.isDynamicM() ||
      !llvm::is_contained(instrs, wide) || !isUsableMma(wide, target))
    return false;
  int64_t m = op.getM(), n = op.getN();
  int64_t tiles =
      op.getBatchSize() * llvm::divideCeil(m, 128) * llvm::divideCeil(n, 256);
  int64_t lds = 4 * (128 + 256) * base.get(kTileK) * bytes;
  return n >= 256 && tiles >= static_cast<int64_t>(target.computeUnits) &&
         lds <= ldsLimit(target);
}

/// Whether the default of `op` multiplies its f32 operands on tf32 tensor
/// cores as 3xTF32 (the target's tf32x3 instruction): an f32 GEMM with both
/// M and N at least a 128 x 128 tile and at least one K step of 16
/// (matrix-vector shapes stay FMA: they read their weights once either
/// way). mma.sync's 3xTF32 ran 4096^3 1.22x / 1.11x (B as [K, N] / [N, K])
/// faster than cuBLAS FP32 on an H100, the FMA kernel 0.83x / 0.46x; the
/// warpgroup form (wgmmaTf32x3Mma, where getDefaultSchedule can take it)
/// faster still (docs/perf, "Matmul").
static bool takesTf32x3(MatmulOp op, const ResolvedSchedule &base,
                        const TargetInfo &target) {
  if (!op.getLhs().getType().getElementType().isF32() ||
      tf32x3Mma(target).empty() || base.get(kSplitK) != 1)
    return false;
  return op.getM() >= 128 && op.getN() >= 128 && op.getK() >= kMinTileK;
}

/// The target's warpgroup 3xTF32 instruction (sm_90a), or an empty string.
static StringRef wgmmaTf32x3Mma(const TargetInfo &target) {
  for (StringRef m : tf32x3Mmas(target))
    if (MmaInstruction::parse(m).family == MmaFamily::Wgmma)
      return m;
  return StringRef();
}

/// The space's defaults, and for large problems on sm_90 128 x 256 tiles
/// (wgmma_64x256x16 per warpgroup) over 4 stages with one MMA group in
/// flight across K steps and the results staged in LDS: one workgroup fills
/// an SM, and the knobs pay together (addTileSketches). On an H100 the decoder
/// layer's and the MLP's GEMMs run 1.16-1.18x faster so (docs/perf). They are
/// not the space's defaults, which a partial schedule falls back to: a schedule
/// naming another instruction keeps wgmma_pending = 0 and 128 x 128.
ScheduleAttr MatmulOp::getDefaultSchedule(const TargetInfo &target) {
  ResolvedSchedule schedule(getScheduleSpace(target), nullptr);
  if (takesTf32x3(*this, schedule, target)) {
    // wgmma reads A K-major in 16-byte pieces (the verifier's rules).
    StringRef wgmma = wgmmaTf32x3Mma(target);
    if (!wgmma.empty() && getK() >= 32 && !readsLhsTransposed() &&
        widestDividing(*this, 4) == 4) {
      // Warpgroup MMA (sm_90a): 128 x 128 tiles over 2 warpgroups, 32-deep
      // K steps in 4 stages, one step's MMAs in flight and each step summed
      // apart and added in f32 (the tensor cores' truncated sums lose the
      // small terms without it). On an H100 4096^3 ran 1.53x / 1.84x
      // cuBLAS FP32 (B as [K, N] / [N, K]), erring 4.0e-7 against float64
      // where cuBLAS errs 1.1e-6 (docs/perf, "Matmul").
      schedule.set(kMma.name, wgmma.str());
      schedule.set(kTf32Split.name, stringifyEnum(Tf32Split::Trunc).str());
      schedule.set(kTileK.name, int64_t(32));
      schedule.set(kWavesN.name, int64_t(1));
      schedule.set(kStages.name, int64_t(4));
      schedule.set(kWgmmaPending.name, int64_t(1));
      schedule.set(kWgmmaPromote.name, int64_t(1));
      schedule.set(kUnroll.name, int64_t(2));
    } else {
      // mma.sync: 2 x 4 warps of 64 x 32, 16-deep K steps in 3 stages (48
      // KiB).
      schedule.set(kMma.name, tf32x3Mma(target).str());
      schedule.set(kTf32Split.name, stringifyEnum(Tf32Split::Fast).str());
      schedule.set(kTileK.name, int64_t(16));
      schedule.set(kWavesN.name, int64_t(4));
      schedule.set(kStages.name, int64_t(3));
    }
    schedule.set(kTileM.name, int64_t(128));
    schedule.set(kTileN.name, int64_t(128));
    schedule.set(kWavesM.name, int64_t(2));
    schedule.set(kLdsPad.name, int64_t(0));
    schedule.set(kLdsSwizzle.name, int64_t(1));
  }
  if (takesWideTiles(*this, schedule, target)) {
    int64_t bytes = elementBytes(getLhs().getType().getElementType());
    schedule.set(kMma.name, wgmmaNames(bytes).second.str());
    schedule.set(kTileN.name, int64_t(256));
    schedule.set(kStages.name, int64_t(4));
    schedule.set(kWgmmaPending.name, int64_t(1));
    // The f32 tile (128 KiB) fits B's four stages (128 KiB): 16-byte,
    // coalesced epilogue loads and stores, 1.08-1.13x on the decoder's and
    // MLP's GEMMs and 4096^3 (H100, docs/perf). It stages f32 only (not
    // i8's i32 sums).
    if (getAccumulatorType().isF32())
      schedule.set(kEpilogueLds.name, int64_t(1));
  }
  return schedule.toAttr(getContext());
}

ScheduleSpace MatmulOp::getScheduleSpace(const TargetInfo &target) {
  Type elem = getLhs().getType().getElementType();
  int64_t bytes = elementBytes(elem);
  // 8-bit operands take the target's 8-bit instructions, and only in the
  // 8-bit float format of the chip (checked by verifyScheduleConstraints).
  bool eightBit = bytes == 1;
  SmallVector<StringRef> mmas = {"none"};
  if (!eightBit || takesFp8Format(elem, target))
    for (StringRef m : eightBit ? target.mmaIntrinsicsFor8Bit(elem.isInteger(8))
                                : target.mmaIntrinsics)
      if (isUsableMma(m, target))
        mmas.push_back(m);
  // No K step deeper than K (16, the shallowest, is the floor); the
  // instruction must fit one K step.
  int64_t maxTileK = 128;
  while (maxTileK > kMinTileK && maxTileK > getK())
    maxTileK /= 2;
  StringRef mma = "none";
  if (isHalfType(elem) || eightBit) {
    for (StringRef instr : llvm::drop_begin(mmas)) {
      MmaInstruction parsed = MmaInstruction::parse(instr);
      if (!parsed.isTf32x3() && parsed.k <= maxTileK) {
        mma = instr;
        break;
      }
    }
    // CDNA4's double-rate 16x16x32 form when there is one.
    if (!eightBit && llvm::is_contained(mmas, "mfma_16x16x32") &&
        MmaInstruction::parse("mfma_16x16x32").k <= maxTileK)
      mma = "mfma_16x16x32";
  }
  bool useMma = mma != "none";
  MmaInstruction shape = MmaInstruction::parse(mma);
  int64_t m = getM(), n = getN();
  // Matrix-vector shapes: M (decode) or N at most 16, so that the other
  // operand (the weights) is read once and the kernel is bound by reading
  // it (docs/Matmul.md, "Matrix-vector products").
  bool decode = m <= kMaxVectorDim;
  bool skinnyN = !decode && n <= kMaxVectorDim;
  bool nvidia = target.isNVIDIA();
  // Hopper with A as [M, K] (B either way for 16-bit operands; as [N, K]
  // for 8-bit ones, which wgmma reads K-major only) and 16-byte vectors:
  // warpgroup MMA, two warpgroups of 64 x 128 over 128-byte K rows, 3
  // stages (96 KiB of dynamic shared memory): on the H200 the fastest of
  // the tile shapes and instructions measured, with B as [N, K] and as
  // [K, N], and well ahead of mma.sync (docs/perf).
  StringRef wgmmaNarrow = wgmmaNames(bytes).first;
  bool wgmma = useMma && !decode && llvm::is_contained(mmas, wgmmaNarrow) &&
               !skinnyN && !readsLhsTransposed() &&
               (!eightBit || readsRhsTransposed()) && maxTileK * bytes >= 128 &&
               widestDividing(*this, 16 / bytes) == 16 / bytes;
  // 8-bit operands on NVIDIA have only wgmma: elsewhere FMAs.
  if (eightBit && shape.family == MmaFamily::Wgmma && !wgmma) {
    mma = "none";
    useMma = false;
    shape = MmaInstruction::parse(mma);
  }

  int64_t tileM = 64, tileN = 64, tileK = 16, wavesM = 2, wavesN = 2;
  int64_t stages = 2;
  bool swizzle = false;
  int64_t pad = 16 / bytes;
  if (useMma) {
    // 128x128 tiles, 64x64 (NVIDIA, CDNA) or 64x32 (RDNA) per wave.
    tileM = 128;
    tileN = 128;
    // 64 bytes of K per row: 32 16-bit or 64 8-bit elements.
    tileK = eightBit ? 64 : 32;
    // CDNA4's double-rate 8-bit float MFMA (16x16x128) steps K by 128.
    tileK = std::max(tileK, shape.k);
    wavesN = target.matrixCore == MatrixCoreKind::WMMA ? 4 : 2;
    swizzle = true;
    pad = 0;
    // 3 x 16 KiB of cp.async stages fit the 48 KiB of static shared memory.
    stages = nvidia ? 3 : 2;
  }
  if (wgmma) {
    mma = wgmmaNarrow;
    shape = MmaInstruction::parse(mma);
    tileK = 128 / bytes;
    wavesM = 2;
    wavesN = 1;
  }
  if (decode) {
    // GEMV-like: one row of mma tiles, waves spread along N, long K steps
    // of 16-byte weight loads.
    tileM = 16;
    tileN = useMma ? std::max<int64_t>(32, 4 * shape.n) : 64;
    tileK = useMma ? 128 : 32;
    wavesM = 1;
    wavesN = 4;
    stages = nvidia && useMma ? 4 : 2;
    // Weights as [K, N]: a K row of B's tile is tile_n elements, and 32 of
    // them are 64-byte pieces of each row; 128 columns over 64-deep steps
    // read 256 bytes a row. On an H100, 1 x 2048 x 1M went from 68% of the
    // weight-read floor to 99% so, and 4 x 4096 x 16K 1.16x faster
    // (docs/perf, "Matrix-vector products").
    if (useMma && !readsRhsTransposed() && n >= 128 && shape.k <= 64) {
      tileN = 128;
      tileK = 64;
    }
  }
  if (skinnyN) {
    // The mirror of decode: one column of mma tiles, waves spread along M.
    tileN = 16;
    tileM = useMma ? std::max<int64_t>(32, 4 * shape.m) : 64;
    tileK = useMma ? 128 : 32;
    wavesM = 4;
    wavesN = 1;
    stages = nvidia && useMma ? 4 : 2;
  }
  tileK = std::min(tileK, maxTileK);
  // No tile twice as large as its dim (N = 1, a 13-row GEMM): the halves
  // past the dim would only multiply zeros. The waves follow the tile
  // (each must own at least one instruction tile). Warpgroup MMA tiles are
  // fixed by the instruction.
  if (!wgmma) {
    auto [unitM, unitN] = useMma ? std::make_pair(shape.m, shape.n)
                                 : fmaLaneGrid(target.waveSize);
    auto fit = [](int64_t &tile, int64_t &waves, int64_t dim, int64_t unit) {
      while (tile > kMinTile && tile / 2 >= dim)
        tile /= 2;
      while (waves > 1 && tile % (waves * unit) != 0)
        waves /= 2;
    };
    fit(tileM, wavesM, m, unitM);
    fit(tileN, wavesN, n, unitN);
  }
  int64_t splitK = 1;
  if (decode || skinnyN)
    splitK =
        defaultMatrixVectorSplit(getBatchSize() * llvm::divideCeil(m, tileM) *
                                     llvm::divideCeil(n, tileN),
                                 llvm::divideCeil(getK(), tileK), target);
  // A dynamic M has no static tile count to size a workspace by: its splits
  // meet in a thread-block cluster where there are clusters (at most 8),
  // and there is no split elsewhere.
  // i32 partial sums have no split-K reduction (its partials are f32).
  if (getAccumulatorType().isInteger(32))
    splitK = 1;
  bool dynamicM = isDynamicM();
  if (dynamicM)
    splitK = target.hasClusters() ? std::min<int64_t>(splitK, 8) : 1;
  ScheduleSpace space;
  space.add(kTileM, {kMinTile, 32, 64, 128, 256}, tileM,
            "rows of the result per workgroup");
  space.add(kTileN, {kMinTile, 32, 64, 128, 256}, tileN,
            "columns of the result per workgroup");
  space.add(kTileK, {kMinTileK, 32, 64, 128}, tileK,
            "depth of one K step staged in LDS");
  space.add(kWavesM, {1, 2, 4, 8}, wavesM, "waves along M");
  space.add(kWavesN, {1, 2, 4, 8}, wavesN, "waves along N");
  space.add(kMma, mmas, mma, "matrix-core instruction, or none for FMAs");
  space.add(kStages, {1, 2, 3, 4}, stages,
            "LDS buffers in the K pipeline (2 = double buffering)");
  int64_t vw = widestVector(bytes);
  space.add(kVectorWidth, vectorWidths(bytes), widestDividing(*this, vw),
            "elements per global load of A and B");
  space.add(kLdsPad, {0, 16 / bytes, 32 / bytes}, pad,
            "elements of padding per LDS row against bank conflicts");
  space.add(kLdsSwizzle, swizzle, "XOR-swizzle the 16-byte chunks of LDS rows");
  space.add(kUnroll, {1, 2, 4}, 1, "unroll factor of the K loop");
  space.add(kGroupM, {1, 4, 8, 16}, 8,
            "rows of tiles visited together, so that concurrently running "
            "workgroups share B (and A) in L2 (1: row after row)",
            /*sizesWork=*/false);
  // Partial sums meet in a global workspace on every target, or within a
  // thread-block cluster (sm_90, at most 8 workgroups).
  SmallVector<int64_t> splits;
  for (int64_t sk = 1; sk <= kMaxSplitK; sk *= 2)
    splits.push_back(sk);
  SmallVector<StringRef> reduces = {"workspace"};
  if (target.hasClusters())
    reduces.insert(reduces.begin(), "cluster");
  // 0 by default: with the default's 128 x 128 tiles two workgroups share
  // an SM and already overlap each other, and 1 is slower; it pays with
  // tiles that leave one workgroup per SM (128 x 256 over 4 stages, a
  // sketch): a knob for the tuner.
  space.add(kWgmmaPending, {0, 1}, 0,
            "warpgroup-MMA groups left in flight across K steps "
            "(wgmma.wait_group N): 1 overlaps a step's MMAs with the next "
            "step's wait, barrier and copies (mma = wgmma_*, stages >= 3; "
            "0 elsewhere)");
  // Persistent workgroups need the cp.async pipeline (NVIDIA), whose next
  // tile's copies are issued during this tile's last K steps.
  StringRef persistentHelp =
      "persistent workgroups (as many as the chip keeps resident) walk the "
      "output tiles in turn, the K pipeline running on from one tile into "
      "the next so that a tile's first copies overlap the last one's "
      "epilogue (NVIDIA, split_k = 1, static M)";
  if (target.isNVIDIA())
    space.add(kPersistent, false, persistentHelp);
  else
    space.addFixed(kPersistent, false, persistentHelp);
  // Staging the results in LDS is built for wgmma's fragments (sm_90).
  StringRef epilogueLdsHelp =
      "results to global memory through LDS: the f32 tile staged in B's LDS "
      "buffers, then read back row-contiguous, so the epilogue's loads and "
      "the stores are 16-byte and coalesced (mma = wgmma_*, split_k = 1, "
      "persistent = 0, tile_m x tile_n x 4 bytes within B's buffers)";
  if (llvm::any_of(mmas, [](StringRef m) {
        return MmaInstruction::parse(m).family == MmaFamily::Wgmma;
      }))
    space.add(kEpilogueLds, false, epilogueLdsHelp);
  else
    space.addFixed(kEpilogueLds, false, epilogueLdsHelp);
  // 3xTF32's split where its instruction can take the operands (the
  // default of large f32 GEMMs: getDefaultSchedule).
  StringRef tf32x3 = tf32x3Mma(target);
  if (elem.isF32() && !tf32x3.empty())
    space.add(kTf32Split, {Tf32Split::Rna, Tf32Split::Fast, Tf32Split::Trunc},
              Tf32Split::Rna,
              "3xTF32's split of f32 operands into two tf32 terms (mma = "
              "*_tf32x3): rna rounds both with cvt.rna.tf32.f32; fast rounds "
              "the big term with an integer add and mask and truncates "
              "the small one (4 instructions an element instead of 9); "
              "trunc truncates the big term and rounds the small one (the "
              "split of wgmma_*_tf32x3, which reads the big terms from the "
              "staged tiles)");
  else
    space.addUnavailable(kTf32Split.name,
                         "3xTF32 takes f32 operands on NVIDIA sm_80+");
  // fp8 warpgroup MMA's per-step promotion to f32, where it exists.
  if (llvm::any_of(mmas, [&](StringRef m) {
        MmaInstruction parsed = MmaInstruction::parse(m);
        return parsed.family == MmaFamily::Wgmma &&
               (eightBit ? !elem.isInteger(8)
                         : elem.isF32() && parsed.isTf32x3());
      }))
    space.add(kWgmmaPromote, false,
              "fp8 and tf32x3 wgmma: each K step's MMAs from zero into their "
              "own accumulators, added to the running f32 ones after the "
              "step (twice the accumulator registers; three with "
              "wgmma_pending = 1)");
  space.add(kSplitK, splits, splitK,
            "workgroups sharing an output tile, each over 1/split_k of K, "
            "their f32 partial sums added as split_k_reduce says");
  // The cluster where there are clusters, except for the matrix-vector
  // defaults' wide splits.
  space.add(kSplitKReduce, reduces,
            splitK > 1 && !dynamicM ? StringRef("workspace") : reduces.front(),
            "where split_k's partial sums meet: cluster (distributed shared "
            "memory of a thread-block cluster, sm_90, split_k <= 8) or "
            "workspace (a global f32 workspace, the last workgroup of each "
            "group of 16 to arrive adds the group's, every target)");
  if (!decode && !skinnyN)
    addTileSketches(space, mma, mmas, wavesM, wavesN, tileK, pad, bytes,
                    target);
  return space;
}

LogicalResult MatmulOp::verifyScheduleConstraints(
    const ResolvedSchedule &resolved, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  Type elem = getLhs().getType().getElementType();
  int64_t bytes = elementBytes(elem);
  MatmulSchedule s = MatmulSchedule::decode(resolved);
  const MmaInstruction &mma = s.mma;
  bool wgmma = mma.family == MmaFamily::Wgmma;
  int64_t tileM = s.tileM, tileN = s.tileN, tileK = s.tileK;
  int64_t wavesM = s.wavesM, wavesN = s.wavesN;
  if (mma.isTf32x3() && !elem.isF32())
    return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                       << " needs f32 operands (each split into two tf32 "
                          "terms), got "
                       << elem << "; expected mma = none or an instruction "
                       << "on 16-bit operands";
  if (!takesFp8Format(elem, target)) {
    bool ocp = target.fp8Format == Fp8Format::OCP;
    return emitError() << elem << " operands are " << (ocp ? "FNUZ" : "OCP")
                       << " fp8, which " << target.chip
                       << " does not multiply; its fp8 is "
                       << (ocp ? "OCP (f8E4M3FN, f8E5M2)"
                               : "FNUZ (f8E4M3FNUZ, f8E5M2FNUZ)")
                       << ": expected operands of those types";
  }
  bool eightBit = bytes == 1;
  if (elem.isInteger(8) && s.splitK > 1)
    return emitError() << "schedule knob '" << kSplitK.name
                       << "' = " << s.splitK
                       << " is not implemented for i8 operands (split-K adds "
                          "f32 partial sums, i8 products accumulate in i32); "
                          "expected split_k = 1";
  if (!mma.isNone() && !mma.isTf32x3() && !isHalfType(elem) && !eightBit) {
    InFlightDiagnostic diag = emitError() << "schedule knob '" << kMma.name
                                          << "' = " << mma.name
                                          << " needs f16 or bf16 operands, got "
                                          << elem << "; expected mma = none";
    // f32 operands on tf32 tensor cores where the target has them.
    if (StringRef tf32x3 = tf32x3Mma(target); elem.isF32() && !tf32x3.empty())
      diag << " or " << tf32x3;
    return diag;
  }
  // With wgmma, waves_m x waves_n count warpgroups.
  int64_t perInstr = mma.wavesPerInstruction();
  int64_t threads = wavesM * wavesN * perInstr * target.waveSize;
  if (threads > target.maxThreadsPerWorkgroup)
    return emitError() << "schedule knobs '" << kWavesM.name << "' x '"
                       << kWavesN.name << "' = " << wavesM * wavesN
                       << (perInstr > 1 ? " warpgroups of " : " waves of ")
                       << perInstr * target.waveSize
                       << " threads exceed the workgroup limit of "
                       << target.maxThreadsPerWorkgroup << " on "
                       << target.chip;
  int64_t shapeM = mma.m, shapeN = mma.n;
  if (mma.isNone())
    std::tie(shapeM, shapeN) = fmaLaneGrid(target.waveSize);
  if (tileM % (wavesM * shapeM) != 0)
    return emitError() << "schedule knob '" << kTileM.name << "' = " << tileM
                       << " must be a multiple of waves_m x "
                       << (mma.isNone() ? "the lane rows" : "the mma M") << " ("
                       << wavesM << " x " << shapeM << ")";
  if (tileN % (wavesN * shapeN) != 0)
    return emitError() << "schedule knob '" << kTileN.name << "' = " << tileN
                       << " must be a multiple of waves_n x "
                       << (mma.isNone() ? "the lane columns" : "the mma N")
                       << " (" << wavesN << " x " << shapeN << ")";
  if (tileK % mma.k != 0)
    return emitError() << "schedule knob '" << kTileK.name << "' = " << tileK
                       << " must be a multiple of the mma K (" << mma.k << ")";
  if (wgmma) {
    // The kernel reads both operands from LDS through wgmma's matrix
    // descriptors in 128-byte-swizzle layouts: A K-major, B K-major ([N, K])
    // or MN-major ([K, N], in 64-column panels) (MatmulWgmma.cpp).
    if (readsLhsTransposed())
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs K contiguous in A (transpose_a = false)";
    // PTX's 8-bit wgmma (.e4m3, .e5m2, .s8) reads both operands K-major.
    if (eightBit && !readsRhsTransposed())
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs K contiguous in B for " << elem
                         << " operands (wgmma reads 8-bit operands K-major "
                            "only), got B as [K, N]; expected the weights as "
                            "[N, K] with transpose_b, or mma = none";
    if (tileK * bytes != 128)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs tile_k x element bytes = 128 (tile_k = "
                         << 128 / bytes << "), got tile_k = " << tileK;
    // Each warpgroup computes one 64 x N instruction tile.
    if (tileM != wavesM * mma.m)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs tile_m = waves_m x " << mma.m
                         << " (one wgmma M per warpgroup), got " << tileM;
    if (tileN != wavesN * mma.n)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs tile_n = waves_n x " << mma.n
                         << " (one wgmma N per warpgroup), got " << tileN;
    if (!s.ldsSwizzle || s.ldsPad != 0 || s.stages < 2 ||
        s.vectorWidth * bytes != 16)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs lds_swizzle = 1, lds_pad = 0, stages >= "
                            "2 and 16-byte vectors (vector_width = "
                         << 16 / bytes << ")";
  }
  if (s.tf32Split != Tf32Split::Rna && !mma.isTf32x3())
    return emitError() << "schedule knob '" << kTf32Split.name
                       << "' = " << stringifyEnum(s.tf32Split)
                       << " needs mma = "
                       << llvm::join(tf32x3Mmas(target), " or ")
                       << ", got mma = " << mma.name
                       << "; expected tf32_split = rna";
  if (wgmma && mma.isTf32x3()) {
    // The big terms are the staged tiles, which the tensor cores truncate.
    if (s.tf32Split != Tf32Split::Trunc)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs tf32_split = trunc (its big terms are "
                            "the staged f32 tiles, truncated by the tensor "
                            "cores), got tf32_split = "
                         << stringifyEnum(s.tf32Split);
    if (s.persistent)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " is not implemented with persistent = 1; "
                            "expected persistent = 0";
    // Summed on the tensor cores across K steps, each step's small terms
    // fall to their truncated additions: 12x cuBLAS FP32's error at 4096^3
    // on an H100 (docs/perf, "Matmul"), no longer f32's accuracy.
    if (!s.wgmmaPromote)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs wgmma_promote = 1 (the tensor cores' "
                            "truncated sums across K steps lose the small "
                            "terms), got wgmma_promote = 0";
  }
  if (s.wgmmaPromote) {
    if (!wgmma)
      return emitError() << "schedule knob '" << kWgmmaPromote.name
                         << "' = 1 needs mma = wgmma_*, got mma = " << mma.name
                         << "; expected wgmma_promote = 0";
    // The step's sum is added after the step's MMAs completed (in the
    // next step with wgmma_pending = 1); the persistent loop has no place
    // for it.
    if (s.persistent)
      return emitError() << "schedule knob '" << kWgmmaPromote.name
                         << "' = 1 needs persistent = 0, got persistent = "
                         << s.persistent;
    // Each unrolled trip's last step waits for all its MMAs
    // (MatmulWgmma.cpp): unrolled once, none would stay in flight.
    if (s.wgmmaPending == 1 && s.unroll < 2)
      return emitError() << "schedule knob '" << kWgmmaPromote.name
                         << "' = 1 with wgmma_pending = 1 needs unroll >= 2 "
                            "(each unrolled trip's last step waits for all "
                            "its MMAs), got unroll = "
                         << s.unroll;
  }
  if (int64_t pending = s.wgmmaPending) {
    if (!wgmma)
      return emitError() << "schedule knob '" << kWgmmaPending.name
                         << "' = " << pending
                         << " needs mma = wgmma_*, got mma = " << mma.name
                         << "; expected wgmma_pending = 0";
    // The refill of step kt writes the stage of step kt - 2: a third stage
    // holds the tile whose MMAs are still in flight.
    if (s.stages < 3)
      return emitError() << "schedule knob '" << kWgmmaPending.name
                         << "' = " << pending
                         << " needs stages >= 3 (a stage for the MMAs in "
                            "flight), got stages = "
                         << s.stages;
  }
  int64_t lds = s.stages * (tileM + tileN) * (tileK + s.ldsPad) * bytes;
  // wgmma's 3xTF32 writes the small terms (and a B as [K, N] transposed)
  // into two slots of tiles (MatmulWgmmaTf32x3.cpp).
  int64_t splitTiles = 0;
  if (wgmma && mma.isTf32x3())
    splitTiles = 2 * (tileM + tileN + (readsRhsTransposed() ? 0 : tileN)) *
                 tileK * bytes;
  lds += splitTiles;
  if (lds > ldsLimit(target))
    return emitError() << "schedule needs " << lds
                       << " bytes of LDS (stages x (tile_m + tile_n) x "
                          "(tile_k + lds_pad) x "
                       << bytes << " bytes"
                       << (splitTiles ? ", and " + std::to_string(splitTiles) +
                                            " for 3xTF32's split tiles"
                                      : std::string())
                       << "); " << target.chip << " allows " << ldsLimit(target)
                       << (target.isNVIDIA()
                               ? " bytes of shared memory (above " +
                                     std::to_string(
                                         kNvidiaStaticSharedMemoryBytes) +
                                     " as dynamic shared memory)"
                               : "")
                       << " per workgroup";
  int64_t acc = tileM * tileN / threads;
  if (acc > kMaxAccumulatorsPerThread)
    return emitError() << "schedule needs " << acc
                       << " f32 accumulators per thread (tile_m x tile_n / "
                       << threads << " threads); expected at most "
                       << kMaxAccumulatorsPerThread;
  if (wgmma && target.isNVIDIA()) {
    int64_t budget =
        std::min<int64_t>(target.maxRegistersPerThread,
                          kNvidiaRegistersPerWorkgroup / threads);
    // wgmma_promote holds a step's accumulators beside the running ones,
    // with wgmma_pending = 1 two steps' (one in flight, one being added).
    if (s.wgmmaPromote)
      acc *= 2 + s.wgmmaPending;
    if (acc + kWgmmaRegisterReserve > budget)
      return emitError() << "schedule knob '" << kMma.name << "' = " << mma.name
                         << " needs " << acc + kWgmmaRegisterReserve
                         << " registers per thread (" << acc
                         << " accumulators live at once and "
                         << kWgmmaRegisterReserve << " more); " << threads
                         << " threads have at most " << budget;
  }
  int64_t vw = s.vectorWidth;
  if (tileK % vw != 0 || tileM % vw != 0 || tileN % vw != 0)
    return emitError() << "schedule knob '" << kVectorWidth.name << "' = " << vw
                       << " must divide tile_m, tile_n and tile_k (" << tileM
                       << ", " << tileN << ", " << tileK << ")";
  if (widestDividing(*this, vw) != vw)
    return emitError() << "schedule knob '" << kVectorWidth.name << "' = " << vw
                       << " must divide the contiguous dims of lhs and rhs "
                          "(expected at most "
                       << widestDividing(*this, vw) << ")";
  int64_t splitK = s.splitK;
  if (s.persistent) {
    auto refuse = [&](StringRef why) {
      return emitError() << "schedule knob '" << kPersistent.name << "' = 1 "
                         << why;
    };
    if (!target.isNVIDIA() || vw * bytes < 4)
      return refuse("needs the cp.async pipeline (NVIDIA, vector_width x "
                    "element bytes >= 4); expected persistent = 0");
    if (splitK > 1)
      return refuse("needs split_k = 1 (one workgroup per output tile), got "
                    "split_k = ")
             << splitK;
    if (isDynamicM())
      return refuse("needs a static M (the workgroups are as many as the "
                    "chip keeps resident, up to the tiles); M is dynamic");
    // The pipeline runs `stages` - 1 - wgmma_pending steps ahead, from one
    // tile's K steps into the next one's.
    int64_t steps = llvm::divideCeil(getK(), tileK);
    if (s.stages < 2 || steps < s.stages)
      return refuse("needs stages >= 2 and at least `stages` K steps "
                    "(ceil(K / tile_k) = ")
             << steps << ", stages = " << s.stages << ")";
  }
  if (s.epilogueLds) {
    auto refuse = [&](StringRef why) {
      return emitError() << "schedule knob '" << kEpilogueLds.name << "' = 1 "
                         << why;
    };
    if (!wgmma)
      return refuse("needs mma = wgmma_* (its result fragments are what it "
                    "stages), got mma = ")
             << mma.name;
    if (!getAccumulatorType().isF32())
      return refuse("needs f32 accumulators (it stages f32 tiles), got ")
             << getAccumulatorType() << " for " << elem << " operands";
    if (splitK > 1 || s.persistent)
      return refuse("needs split_k = 1 and persistent = 0 (the LDS must be "
                    "free after the K loop)");
    // Rows of 8-float chunks, XOR-swizzled by row % 8 within the row.
    if (tileN % 64 != 0)
      return refuse("needs tile_n a multiple of 64 (rows of at least 8 "
                    "chunks of 8 floats for the swizzle), got tile_n = ")
             << tileN;
    int64_t staged = tileM * tileN * 4;
    int64_t bBytes = s.stages * tileK * tileN * bytes;
    if (staged > bBytes)
      return refuse("needs the f32 tile (tile_m x tile_n x 4 = ")
             << staged << " bytes) within B's LDS buffers (stages x tile_k x "
             << "tile_n x " << bytes << " = " << bBytes << " bytes)";
  }
  // A K step deeper than K only wastes LDS, except the shallowest one: with
  // K < 16 (down to K = 1) one zero-filled step of 16 is the whole loop
  // (the copies mask the columns past K, MatmulTilePipeline.cpp).
  bool oneShallowStep = splitK == 1 && tileK == kMinTileK;
  if (splitK * tileK > getK() && !oneShallowStep)
    return emitError() << "schedule knobs '" << kSplitK.name << "' x '"
                       << kTileK.name << "' = " << splitK << " x " << tileK
                       << " exceed K = " << getK();
  if (splitK > 1) {
    if (wgmma)
      return emitError() << "schedule knob '" << kSplitK.name
                         << "' = " << splitK
                         << " is not implemented with mma = " << mma.name
                         << "; expected split_k = 1";
    int64_t steps = llvm::divideCeil(getK(), tileK);
    if (steps % splitK != 0)
      return emitError() << "schedule knob '" << kSplitK.name
                         << "' = " << splitK
                         << " must divide the K steps (ceil(K / tile_k) = "
                         << steps << ")";
    if (s.splitKWorkspace && isDynamicM())
      return emitError() << "schedule knob '" << kSplitKReduce.name
                         << "' = workspace needs a static M (the workspace "
                            "has a slot per output tile); M is dynamic";
    if (s.splitKWorkspace) {
      int64_t tiles = getBatchSize() * llvm::divideCeil(getM(), tileM) *
                      llvm::divideCeil(getN(), tileN);
      int64_t bytes =
          tiles * MatmulSchedule::workspaceSlots(splitK) * tileM * tileN * 4;
      if (bytes > kMaxWorkspaceBytes)
        return emitError() << "schedule knobs '" << kSplitK.name
                           << "' = " << splitK << " with " << kSplitKReduce.name
                           << " = workspace need " << bytes
                           << " bytes of workspace (tiles x partials x tile_m "
                              "x tile_n x 4); expected at most "
                           << kMaxWorkspaceBytes;
      return success();
    }
    if (splitK > 8)
      return emitError() << "schedule knob '" << kSplitK.name
                         << "' = " << splitK << " with " << kSplitKReduce.name
                         << " = cluster exceeds the 8 workgroups of a portable "
                            "cluster; expected split_k_reduce = workspace";
    // Each thread's accumulators, published for the cluster's reduction.
    int64_t partials = tileM * tileN * 4;
    if (lds + partials > ldsLimit(target))
      return emitError() << "schedule needs " << lds + partials
                         << " bytes of LDS (the K pipeline's " << lds
                         << " and tile_m x tile_n x 4 for split_k's partial "
                            "sums); "
                         << target.chip << " allows " << ldsLimit(target)
                         << " per workgroup";
  }
  return success();
}

CostFeatures MatmulOp::getCostFeatures() {
  CostFeatures c;
  c.flops = 2.0 * getBatchSize() * getM() * getN() * getK();
  c.bytes = tensorBytes(*this, getLhs()) + tensorBytes(*this, getRhs()) +
            tensorBytes(*this, getResult());
  for (Value v : getEpilogueInputs())
    c.bytes += tensorBytes(*this, v);
  c.shape = {getBatchSize(), getM(), getN(), getK()};
  c.elementType = getLhs().getType().getElementType();
  return c;
}
