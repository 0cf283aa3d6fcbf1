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
// lib/Conversion/HkgToGPU/Matmul.cpp; docs/Matmul.md explains
// the defaults.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// Most f32 accumulators one thread may hold.
static constexpr int64_t kMaxAccumulatorsPerThread = 128;

/// 32-bit registers of an NVIDIA workgroup (sm_80, sm_90: 64 K per block).
static constexpr int64_t kNvidiaRegistersPerWorkgroup = 64 * 1024;

/// Registers a wgmma thread needs besides the instruction's accumulators,
/// which must all be live at once (ptxas cannot spill them): ptxas 12.x
/// asked for 154 registers for 128 accumulators (256 x 256 tiles of
/// wgmma_64x256x16 over 4 warpgroups, capped at 128 by 512 threads; H200
/// tuning 2026-12-03: "Insufficient registers (128) to compile
/// instruction").
static constexpr int64_t kWgmmaRegisterReserve = 26;

namespace {
struct MmaShape {
  int64_t m, n, k;
};
} // namespace

/// The M x N x K of one matrix-core instruction (1x1x1 for `none`).
static MmaShape getMmaShape(StringRef mma) {
  int64_t m = 1, n = 1, k = 1;
  if (mma != "none") {
    // Spelled <family>_<M>x<N>x<K>.
    StringRef dims = mma.split('_').second;
    SmallVector<StringRef, 3> parts;
    dims.split(parts, 'x');
    if (parts.size() == 3) {
      parts[0].getAsInteger(10, m);
      parts[1].getAsInteger(10, n);
      parts[2].getAsInteger(10, k);
    }
  }
  return {m, n, k};
}

static bool isHalfType(Type t) { return t.isF16() || t.isBF16(); }

/// Waves that issue one `mma` together: a warpgroup (4 warps) for Hopper's
/// wgmma, whose M x N is the warpgroup's; one wave otherwise.
static int64_t wavesPerMma(StringRef mma) {
  return mma.starts_with("wgmma") ? 4 : 1;
}

/// Whether the kernel builder lowers `mma` on `target`: it emits WMMA only
/// in the 16x16x16 operand layouts of gfx11 and gfx12, and gfx1250's f16/bf16
/// WMMA is 16x16x32, so matmuls there use FMAs.
static bool isUsableMma(StringRef mma, const TargetInfo &target) {
  return !(mma.starts_with("wmma") && target.chip == "gfx1250");
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
  int64_t a = op.getTransposeA() ? op.getM() : op.getK();
  int64_t b = op.getTransposeB() ? op.getK() : op.getN();
  while (vw > 1 && (a % vw != 0 || b % vw != 0))
    vw /= 2;
  return vw;
}

/// Sketches of a matmul (ScheduleSketch): every tile shape of the default's
/// instruction family with its waves, at the deepest pipeline (at most 4
/// stages) its LDS allows, and for wgmma each also with the MMAs left in
/// flight across K steps (wgmma_pending = 1). These knobs pay together or
/// not at all: on the H200 (docs/perf 2026-12-03) 128 x 256 tiles
/// (wgmma_64x256x16) over 4 stages with pending 1 ran 1.11x faster than the
/// default on 4096^3 and 8192^3, while the same tiles without pending were
/// 1.16x slower than the default on 8192^3 and pending on the default's
/// tiles 1.11x slower on 4096^3: an evolutionary step through either is
/// discarded.
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
    sketch.knobs = {{"tile_m", tm},         {"tile_n", tn},
                    {"waves_m", wm},        {"waves_n", wn},
                    {"mma", instr.str()},   {"stages", stages},
                    {"wgmma_pending", pending}};
    space.addSketch(std::move(sketch));
  };
  static constexpr int64_t kTiles[] = {64, 128, 256};
  if (!mma.starts_with("wgmma")) {
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
    if (!instr.starts_with("wgmma"))
      continue;
    int64_t n = getMmaShape(instr).n, m = getMmaShape(instr).m;
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

ScheduleSpace MatmulOp::getScheduleSpace(const TargetInfo &target) {
  Type elem = getLhs().getType().getElementType();
  int64_t bytes = elementBytes(elem);
  SmallVector<StringRef> mmas = {"none"};
  for (StringRef m : target.mmaIntrinsics)
    if (isUsableMma(m, target))
      mmas.push_back(m);
  // No K step deeper than K (16, the shallowest, is the floor); the
  // instruction must fit one K step.
  int64_t maxTileK = 128;
  while (maxTileK > 16 && maxTileK > getK())
    maxTileK /= 2;
  StringRef mma = "none";
  if (isHalfType(elem)) {
    for (StringRef m : llvm::drop_begin(mmas)) {
      if (getMmaShape(m).k <= maxTileK) {
        mma = m;
        break;
      }
    }
    // CDNA4's double-rate 16x16x32 form when there is one.
    if (llvm::is_contained(mmas, "mfma_16x16x32") &&
        getMmaShape("mfma_16x16x32").k <= maxTileK)
      mma = "mfma_16x16x32";
  }
  bool useMma = mma != "none";
  MmaShape shape = getMmaShape(mma);
  int64_t m = getM();
  bool decode = m <= 16;
  bool nvidia = target.isNVIDIA();

  int64_t tileM = 64, tileN = 64, tileK = 16, wavesM = 2, wavesN = 2;
  int64_t stages = 2, swizzle = 0;
  int64_t pad = 16 / bytes;
  if (useMma) {
    // 128x128 tiles, 64x64 (NVIDIA, CDNA) or 64x32 (RDNA) per wave.
    tileM = 128;
    tileN = 128;
    tileK = 32;
    wavesN = target.matrixCore == MatrixCoreKind::WMMA ? 4 : 2;
    swizzle = 1;
    pad = 0;
    // 3 x 16 KiB of cp.async stages fit the 48 KiB of static shared memory.
    stages = nvidia ? 3 : 2;
  }
  // Hopper with A as [M, K] (B either way) and 16-byte vectors: warpgroup
  // MMA, two warpgroups of 64 x 128 over 128-byte K rows, 3 stages (96 KiB
  // of dynamic shared memory). H200 (docs/perf 2026-12-02): qkv_proj
  // 8192x12288x4096 bf16 (B as [N, K]) 1564 us against 2351 with mma.sync
  // (128 x 256 over 4 stages 1569, 256 x 128 1659); 4096^3 (B as [K, N])
  // 226.6 us against 334.0 (the others 263-270).
  bool wgmma = useMma && !decode && llvm::is_contained(mmas, "wgmma_64x128x16") &&
               !getTransposeA() && maxTileK * bytes >= 128 &&
               widestDividing(*this, 16 / bytes) == 16 / bytes;
  if (wgmma) {
    mma = "wgmma_64x128x16";
    shape = getMmaShape(mma);
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
  }
  tileK = std::min(tileK, maxTileK);
  ScheduleSpace space;
  space.addInt("tile_m", {16, 32, 64, 128, 256}, tileM,
               "rows of the result per workgroup");
  space.addInt("tile_n", {16, 32, 64, 128, 256}, tileN,
               "columns of the result per workgroup");
  space.addInt("tile_k", {16, 32, 64, 128}, tileK,
               "depth of one K step staged in LDS");
  space.addInt("waves_m", {1, 2, 4, 8}, wavesM, "waves along M");
  space.addInt("waves_n", {1, 2, 4, 8}, wavesN, "waves along N");
  space.addKeyword("mma", mmas, mma,
                   "matrix-core instruction, or none for FMAs");
  space.addInt("stages", {1, 2, 3, 4}, stages,
               "LDS buffers in the K pipeline (2 = double buffering)");
  int64_t vw = widestVector(bytes);
  space.addInt("vector_width", vectorWidths(bytes),
               widestDividing(*this, vw),
               "elements per global load of A and B");
  space.addInt("lds_pad", {0, 16 / bytes, 32 / bytes}, pad,
               "elements of padding per LDS row against bank conflicts");
  space.addInt("lds_swizzle", {0, 1}, swizzle,
               "XOR-swizzle the 16-byte chunks of LDS rows");
  space.addInt("unroll", {1, 2, 4}, 1, "unroll factor of the K loop");
  space.addInt("group_m", {1, 4, 8, 16}, 8,
               "rows of tiles visited together, so that concurrently running "
               "workgroups share B (and A) in L2 (1: row after row)",
               /*sizesWork=*/false);
  // split_k > 1 needs thread-block clusters (sm_90): the partial sums meet
  // in distributed shared memory.
  SmallVector<int64_t> splits = {1};
  if (target.hasClusters())
    splits = {1, 2, 4, 8};
  // 0 by default. H200 (docs/perf 2026-12-03): 1 is 11% slower with the
  // default's 128 x 128 tiles (two workgroups share an SM and overlap each
  // other already) and 1.11-1.12x faster than the default with 128 x 256
  // tiles over 4 stages (one workgroup per SM) on 4096^3 and 8192^3: a
  // knob for the tuner.
  space.addInt("wgmma_pending", {0, 1}, 0,
               "warpgroup-MMA groups left in flight across K steps "
               "(wgmma.wait_group N): 1 overlaps a step's MMAs with the next "
               "step's wait, barrier and copies (mma = wgmma_*, stages >= 3; "
               "0 elsewhere)");
  space.addInt("split_k", splits, 1,
               "workgroups of one cluster sharing an output tile, each over "
               "1/split_k of K, summed through distributed shared memory "
               "(sm_90; 1 elsewhere)");
  if (!decode)
    addTileSketches(space, mma, mmas, wavesM, wavesN, tileK, pad, bytes,
                    target);
  return space;
}

LogicalResult MatmulOp::verifyScheduleConstraints(
    const ResolvedSchedule &s, const TargetInfo &target,
    function_ref<InFlightDiagnostic()> emitError) {
  Type elem = getLhs().getType().getElementType();
  int64_t bytes = elementBytes(elem);
  StringRef mma = s.getKeyword("mma");
  MmaShape shape = getMmaShape(mma);
  int64_t tileM = s.getInt("tile_m"), tileN = s.getInt("tile_n"),
          tileK = s.getInt("tile_k");
  int64_t wavesM = s.getInt("waves_m"), wavesN = s.getInt("waves_n");
  if (mma != "none" && !isHalfType(elem))
    return emitError() << "schedule knob 'mma' = " << mma
                       << " needs f16 or bf16 operands, got " << elem
                       << "; expected mma = none";
  // With wgmma, waves_m x waves_n count warpgroups.
  int64_t threads = wavesM * wavesN * wavesPerMma(mma) * target.waveSize;
  if (threads > target.maxThreadsPerWorkgroup)
    return emitError() << "schedule knobs 'waves_m' x 'waves_n' = "
                       << wavesM * wavesN
                       << (wavesPerMma(mma) > 1 ? " warpgroups of " : " waves of ")
                       << wavesPerMma(mma) * target.waveSize
                       << " threads exceed the workgroup limit of "
                       << target.maxThreadsPerWorkgroup << " on "
                       << target.chip;
  if (mma == "none") {
    auto [ly, lx] = fmaLaneGrid(target.waveSize);
    shape = {ly, lx, 1};
  }
  if (tileM % (wavesM * shape.m) != 0)
    return emitError() << "schedule knob 'tile_m' = " << tileM
                       << " must be a multiple of waves_m x "
                       << (mma == "none" ? "the lane rows" : "the mma M")
                       << " (" << wavesM << " x " << shape.m << ")";
  if (tileN % (wavesN * shape.n) != 0)
    return emitError() << "schedule knob 'tile_n' = " << tileN
                       << " must be a multiple of waves_n x "
                       << (mma == "none" ? "the lane columns" : "the mma N")
                       << " (" << wavesN << " x " << shape.n << ")";
  if (tileK % shape.k != 0)
    return emitError() << "schedule knob 'tile_k' = " << tileK
                       << " must be a multiple of the mma K (" << shape.k
                       << ")";
  if (mma.starts_with("wgmma")) {
    // The kernel reads both operands from LDS through wgmma's matrix
    // descriptors in 128-byte-swizzle layouts: A K-major, B K-major ([N, K])
    // or MN-major ([K, N], in 64-column panels) (Matmul.cpp).
    if (getTransposeA())
      return emitError() << "schedule knob 'mma' = " << mma
                         << " needs K contiguous in A (transpose_a = false)";
    if (tileK * bytes != 128)
      return emitError() << "schedule knob 'mma' = " << mma
                         << " needs tile_k x element bytes = 128 (tile_k = "
                         << 128 / bytes << "), got tile_k = " << tileK;
    // Each warpgroup computes one 64 x N instruction tile (Matmul.cpp).
    if (tileM != wavesM * shape.m)
      return emitError() << "schedule knob 'mma' = " << mma
                         << " needs tile_m = waves_m x " << shape.m
                         << " (one wgmma M per warpgroup), got " << tileM;
    if (tileN != wavesN * shape.n)
      return emitError() << "schedule knob 'mma' = " << mma
                         << " needs tile_n = waves_n x " << shape.n
                         << " (one wgmma N per warpgroup), got " << tileN;
    if (s.getInt("lds_swizzle") != 1 || s.getInt("lds_pad") != 0 ||
        s.getInt("stages") < 2 || s.getInt("vector_width") * bytes != 16)
      return emitError() << "schedule knob 'mma' = " << mma
                         << " needs lds_swizzle = 1, lds_pad = 0, stages >= "
                            "2 and 16-byte vectors (vector_width = "
                         << 16 / bytes << ")";
  }
  if (int64_t pending = s.getInt("wgmma_pending")) {
    if (!mma.starts_with("wgmma"))
      return emitError() << "schedule knob 'wgmma_pending' = " << pending
                         << " needs mma = wgmma_*, got mma = " << mma
                         << "; expected wgmma_pending = 0";
    // The refill of step kt writes the stage of step kt - 2: a third stage
    // holds the tile whose MMAs are still in flight.
    if (s.getInt("stages") < 3)
      return emitError() << "schedule knob 'wgmma_pending' = " << pending
                         << " needs stages >= 3 (a stage for the MMAs in "
                            "flight), got stages = "
                         << s.getInt("stages");
  }
  int64_t pad = s.getInt("lds_pad");
  int64_t lds = s.getInt("stages") * (tileM + tileN) * (tileK + pad) * bytes;
  if (lds > ldsLimit(target))
    return emitError() << "schedule needs " << lds
                       << " bytes of LDS (stages x (tile_m + tile_n) x "
                          "(tile_k + lds_pad) x "
                       << bytes << " bytes); " << target.chip << " allows "
                       << ldsLimit(target)
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
  if (mma.starts_with("wgmma") && target.isNVIDIA()) {
    int64_t budget =
        std::min<int64_t>(target.maxRegistersPerThread,
                          kNvidiaRegistersPerWorkgroup / threads);
    if (acc + kWgmmaRegisterReserve > budget)
      return emitError() << "schedule knob 'mma' = " << mma << " needs "
                         << acc + kWgmmaRegisterReserve
                         << " registers per thread (" << acc
                         << " accumulators live at once and "
                         << kWgmmaRegisterReserve << " more); " << threads
                         << " threads have at most " << budget;
  }
  int64_t vw = s.getInt("vector_width");
  if (tileK % vw != 0 || tileM % vw != 0 || tileN % vw != 0)
    return emitError() << "schedule knob 'vector_width' = " << vw
                       << " must divide tile_m, tile_n and tile_k (" << tileM
                       << ", " << tileN << ", " << tileK << ")";
  if (widestDividing(*this, vw) != vw)
    return emitError() << "schedule knob 'vector_width' = " << vw
                       << " must divide the contiguous dims of lhs and rhs "
                          "(expected at most "
                       << widestDividing(*this, vw) << ")";
  int64_t splitK = s.getInt("split_k");
  if (splitK * tileK > getK())
    return emitError() << "schedule knobs 'split_k' x 'tile_k' = " << splitK
                       << " x " << tileK << " exceed K = " << getK();
  if (splitK > 1) {
    if (mma.starts_with("wgmma"))
      return emitError() << "schedule knob 'split_k' = " << splitK
                         << " is not implemented with mma = " << mma
                         << "; expected split_k = 1";
    int64_t steps = llvm::divideCeil(getK(), tileK);
    if (steps % splitK != 0)
      return emitError() << "schedule knob 'split_k' = " << splitK
                         << " must divide the K steps (ceil(K / tile_k) = "
                         << steps << ")";
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
  c.bytes = tensorBytes(getLhs()) + tensorBytes(getRhs()) +
            tensorBytes(getResult());
  for (Value v : getEpilogueInputs())
    c.bytes += tensorBytes(v);
  c.shape = {getBatchSize(), getM(), getN(), getK()};
  c.elementType = getLhs().getType().getElementType();
  return c;
}
