//===- MatmulSchedule.cpp - schedule of hkg.matmul ------------------------===//
//
// A workgroup computes a tile_m x tile_n block of the result, stepping
// through K by tile_k with operands staged in LDS over `stages` buffers;
// waves_m x waves_n waves split the tile, each issuing `mma` matrix-core
// instructions (or plain FMAs with `mma = none`). `split_k` splits K across
// workgroups.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::detail;

/// Most f32 accumulators one thread may hold.
static constexpr int64_t kMaxAccumulatorsPerThread = 128;

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

ScheduleSpace MatmulOp::getScheduleSpace(const TargetInfo &target) {
  Type elem = getLhs().getType().getElementType();
  int64_t bytes = elementBytes(elem);
  SmallVector<StringRef> mmas = {"none"};
  for (StringRef m : target.mmaIntrinsics)
    mmas.push_back(m);
  // A K shorter than one instruction's K step (gfx1250's WMMA steps by 32)
  // cannot use matrix cores.
  bool useMma = isHalfType(elem) && !target.mmaIntrinsics.empty() &&
                getK() >= getMmaShape(target.mmaIntrinsics.front()).k;
  StringRef mma = useMma ? StringRef(target.mmaIntrinsics.front()) : "none";
  int64_t m = getM();
  bool decode = m <= 16;

  int64_t tileM = decode ? 16 : (useMma ? 128 : 64);
  int64_t tileN = decode ? 64 : (useMma ? 128 : 64);
  int64_t tileK = useMma ? 32 : 16;
  int64_t wavesM = decode ? 1 : 2, wavesN = decode ? 4 : 2;
  if (!useMma && target.waveSize == 32) {
    // 4 waves of 32 lanes: 8 x 16 accumulators per thread at 64x64.
    wavesM = 2;
    wavesN = 2;
  }
  // The default must pass verifyScheduleConstraints: no K step deeper than
  // K (while staying a multiple of the mma K), and a vector width with which
  // the workgroup's threads evenly cover the A and B tiles (decode tiles are
  // small).
  int64_t mmaK = getMmaShape(mma).k;
  while (tileK > 16 && tileK / 2 % mmaK == 0 && tileK > getK())
    tileK /= 2;
  int64_t threads = wavesM * wavesN * target.waveSize;
  int64_t vw = widestVector(bytes);
  while (vw > 1 && ((tileM * tileK) % (threads * vw) != 0 ||
                    (tileN * tileK) % (threads * vw) != 0))
    vw /= 2;
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
  space.addInt("stages", {1, 2, 3, 4}, 2,
               "LDS buffers in the K pipeline (2 = double buffering)");
  space.addInt("vector_width", vectorWidths(bytes), vw,
               "elements per global load of A and B");
  space.addInt("lds_pad", {0, 4, 8}, target.isAMD() ? 8 : 0,
               "elements of padding per LDS row against bank conflicts");
  space.addInt("split_k", {1, 2, 4, 8}, 1, "workgroups sharing one K range");
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
  int64_t threads = wavesM * wavesN * target.waveSize;
  if (threads > target.maxThreadsPerWorkgroup)
    return emitError() << "schedule knobs 'waves_m' x 'waves_n' = "
                       << wavesM * wavesN << " waves of " << target.waveSize
                       << " threads exceed the workgroup limit of "
                       << target.maxThreadsPerWorkgroup << " on "
                       << target.chip;
  if (tileM % (wavesM * shape.m) != 0)
    return emitError() << "schedule knob 'tile_m' = " << tileM
                       << " must be a multiple of waves_m x the mma M ("
                       << wavesM << " x " << shape.m << ")";
  if (tileN % (wavesN * shape.n) != 0)
    return emitError() << "schedule knob 'tile_n' = " << tileN
                       << " must be a multiple of waves_n x the mma N ("
                       << wavesN << " x " << shape.n << ")";
  if (tileK % shape.k != 0)
    return emitError() << "schedule knob 'tile_k' = " << tileK
                       << " must be a multiple of the mma K (" << shape.k
                       << ")";
  int64_t pad = s.getInt("lds_pad");
  int64_t lds = s.getInt("stages") * (tileM + tileN) * (tileK + pad) * bytes;
  if (lds > target.ldsBytesPerWorkgroup)
    return emitError() << "schedule needs " << lds
                       << " bytes of LDS (stages x (tile_m + tile_n) x "
                          "(tile_k + lds_pad) x "
                       << bytes << " bytes); " << target.chip << " has "
                       << target.ldsBytesPerWorkgroup;
  int64_t acc = tileM * tileN / threads;
  if (acc > kMaxAccumulatorsPerThread)
    return emitError() << "schedule needs " << acc
                       << " f32 accumulators per thread (tile_m x tile_n / "
                       << threads << " threads); expected at most "
                       << kMaxAccumulatorsPerThread;
  int64_t splitK = s.getInt("split_k");
  if (splitK * tileK > getK())
    return emitError() << "schedule knob 'split_k' = " << splitK
                       << " with tile_k = " << tileK << " exceeds K = "
                       << getK();
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
