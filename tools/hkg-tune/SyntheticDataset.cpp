//===- SyntheticDataset.cpp - analytic cost model for test data -----------===//
//
// SYNTHETIC: see SyntheticDataset.h and docs/Tuning.md. Every constant below
// is a plausible guess, not a measurement.
//
//===----------------------------------------------------------------------===//

#include "SyntheticDataset.h"

#include "hkg/Dialect/Hkg/IR/Schedules/MatmulSchedule.h"
#include "hkg/Tuner/Search.h"

#include "mlir/Parser/Parser.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

namespace {
struct OpCase {
  std::string kind; // softmax | layernorm | rmsnorm | matmul
  std::string type; // f32 | bf16
  llvm::SmallVector<int64_t> dims;
};
} // namespace

static std::string moduleText(const OpCase &c) {
  const std::string &t = c.type;
  if (c.kind == "matmul") {
    auto a = llvm::formatv("tensor<{0}x{1}x{2}>", c.dims[0], c.dims[2], t);
    auto b = llvm::formatv("tensor<{0}x{1}x{2}>", c.dims[2], c.dims[1], t);
    auto r = llvm::formatv("tensor<{0}x{1}x{2}>", c.dims[0], c.dims[1], t);
    return llvm::formatv("func.func @f(%a: {0}, %b: {1}) -> {2} {\n"
                         "  %0 = hkg.matmul %a, %b : {0}, {1} -> {2}\n"
                         "  return %0 : {2}\n}\n",
                         a, b, r)
        .str();
  }
  std::string x = llvm::formatv("tensor<{0}x{1}x{2}>", c.dims[0], c.dims[1], t);
  std::string w = llvm::formatv("tensor<{0}x{1}>", c.dims[1], t);
  if (c.kind == "softmax")
    return llvm::formatv("func.func @f(%x: {0}) -> {0} {\n"
                         "  %0 = hkg.softmax %x axis(1) : {0} -> {0}\n"
                         "  return %0 : {0}\n}\n",
                         x)
        .str();
  if (c.kind == "rmsnorm")
    return llvm::formatv("func.func @f(%x: {0}, %w: {1}) -> {0} {\n"
                         "  %0 = hkg.rmsnorm %x weight(%w : {1}) eps(1.0e-06) "
                         ": {0} -> {0}\n  return %0 : {0}\n}\n",
                         x, w)
        .str();
  return llvm::formatv(
             "func.func @f(%x: {0}, %w: {1}, %b: {1}) -> {0} {\n"
             "  %0 = hkg.layernorm %x weight(%w : {1}) bias(%b : {1}) "
             "eps(1.0e-05) : {0} -> {0}\n  return %0 : {0}\n}\n",
             x, w)
      .str();
}

static std::vector<OpCase> getCases() {
  std::vector<OpCase> cases;
  const int64_t rowShapes[][2] = {{1024, 1024}, {4096, 4096}, {8192, 8192},
                                  {64, 32768},  {16384, 512}, {2048, 8192},
                                  {32, 128256}, {8192, 2048}};
  for (const char *kind : {"softmax", "layernorm", "rmsnorm"})
    for (const char *type : {"bf16", "f32"})
      for (const auto &s : rowShapes)
        cases.push_back({kind, type, {s[0], s[1]}});
  const int64_t mmShapes[][3] = {{4096, 4096, 4096},  {16, 4096, 4096},
                                 {8192, 12288, 4096}, {1024, 1024, 1024},
                                 {2048, 512, 8192},   {128, 11008, 4096}};
  for (const auto &s : mmShapes)
    cases.push_back({"matmul", "bf16", {s[0], s[1], s[2]}});
  return cases;
}

static int64_t getInt(const KnobMap &k, StringRef name) {
  return std::get<int64_t>(k.at(name.str()));
}
static StringRef getKeyword(const KnobMap &k, StringRef name) {
  return std::get<std::string>(k.at(name.str()));
}

/// Deterministic noise in [-1, 1) from the op and schedule.
static double noise(StringRef signature, const KnobMap &k, StringRef chip) {
  uint64_t h = llvm::hash_combine(signature, formatKnobs(k), chip);
  h ^= h >> 29;
  return static_cast<double>(h % 20001) / 10000.0 - 1.0;
}

/// Bytes per microsecond of DRAM bandwidth.
static double bytesPerUs(const TargetInfo &t) {
  return t.peakBandwidthGBs * 1e3;
}

/// Register file per CU (SM), in 32-bit registers per lane x lanes.
static double registerFile(const TargetInfo &t) {
  return t.isAMD() ? 512.0 * 64 * 4 : 65536.0;
}

static void rowModel(const OpCase &c, const CostFeatures &cost,
                     const TargetInfo &t, const KnobMap &k, Measurement &m) {
  double rows = cost.shape[0], len = cost.shape[1];
  double e = c.type == "bf16" ? 2 : 4;
  double vw = getInt(k, "vector_width"), threads = getInt(k, "threads");
  double rpb = getInt(k, "rows_per_block"), unroll = getInt(k, "unroll");
  StringRef cache = getKeyword(k, "row_cache");
  bool online = k.count("online") && getInt(k, "online") == 1;
  double tpr = threads / rpb;
  // Input passes: re-read from DRAM when not cached (half price when a row
  // fits in L2-friendly sizes).
  double passes = cache != "none"       ? 1
                  : c.kind == "softmax" ? (online ? 2 : 3)
                                        : 2;
  double reread = len * e <= 65536 ? 0.5 : 1.0;
  double bytes = cost.bytes + (passes - 1) * reread * rows * len * e;
  // Vector accesses: 16 bytes per lane is full speed.
  double vectorEff = std::min(1.0, 0.4 + 0.15 * std::log2(vw * e));
  // Registers and occupancy.
  double vectorsPerThread = std::ceil(len / (vw * tpr));
  double regs = 28 + unroll * vw * e / 4 * 2 +
                (cache == "registers" ? vectorsPerThread * vw * e / 4 : 0);
  bool spills = regs > t.maxRegistersPerThread;
  regs = std::min<double>(regs, t.maxRegistersPerThread);
  double lds = 256 + (cache == "lds" ? rpb * len * e : 0);
  double wavesPerBlock = threads / t.waveSize;
  double blocksPerCU = std::floor(std::min(
      {registerFile(t) / (regs * threads), t.ldsBytesPerWorkgroup / lds,
       t.maxWavesPerCU / wavesPerBlock, 32.0}));
  if (blocksPerCU < 1) {
    m.status = MeasureStatus::CompileError;
    m.message = "synthetic: does not fit on a CU";
    return;
  }
  double occupancy = blocksPerCU * wavesPerBlock / t.maxWavesPerCU;
  // Bytes in flight per CU against what DRAM latency needs.
  double activeFraction = std::min(1.0, len / (vw * tpr));
  double inflight = blocksPerCU * threads * activeFraction * unroll * vw * e;
  double mlpEff = std::pow(std::min(1.0, inflight / 40000.0), 0.6);
  // Wave quantization of the grid.
  double blocks = std::ceil(rows / rpb);
  double slots = t.computeUnits * blocksPerCU;
  double gridWaves = std::ceil(blocks / slots);
  double util = blocks / (gridWaves * slots);
  util = std::max(util, std::min(1.0, blocks / t.computeUnits) * 0.9);
  util = std::min(util, std::min(1.0, blocks * threads * activeFraction /
                                          (t.computeUnits * 1024.0)));
  double memUs = bytes / (bytesPerUs(t) * 0.92 * vectorEff * mlpEff *
                          std::max(util, 0.02));
  double computeUs =
      cost.flops / (t.peakFp32Tflops * 1e6 * std::max(occupancy, 0.1) * util);
  // Block reductions: one or two per row, cross-wave ones cost a barrier.
  double reductions = c.kind == "rmsnorm"   ? 1
                      : c.kind == "softmax" ? (online ? 1 : 2)
                                            : 2;
  double perRow = tpr > t.waveSize ? 0.35 : 0.06 * std::log2(tpr + 1);
  double reduceUs = gridWaves * reductions * perRow * std::max(1.0, rpb / 8);
  double us = std::max(memUs, computeUs) + reduceUs + 2.0;
  if (cache == "lds")
    us *= 1.04;
  if (spills)
    us *= 2.5;
  m.medianUs = us;
  m.stats["registers"] = std::round(regs);
  m.stats["shared_bytes"] = lds;
  m.stats["spill_bytes"] = spills ? 64 : 0;
  m.stats["occupancy"] = occupancy;
}

static void matmulModel(const OpCase &c, const CostFeatures &cost,
                        const TargetInfo &t, const KnobMap &k, Measurement &m) {
  double batch = cost.shape[0], mm = cost.shape[1], nn = cost.shape[2],
         kk = cost.shape[3];
  double e = 2;
  double tm = getInt(k, "tile_m"), tn = getInt(k, "tile_n"),
         tk = getInt(k, "tile_k");
  double wm = getInt(k, "waves_m"), wn = getInt(k, "waves_n");
  double stages = getInt(k, "stages"), vw = getInt(k, "vector_width");
  double pad = getInt(k, "lds_pad"), splitK = getInt(k, "split_k");
  MmaInstruction instr = MmaInstruction::parse(getKeyword(k, "mma"));
  bool mma = !instr.isNone();
  double threads = wm * wn * t.waveSize;
  // 3xTF32: three tf32 MMAs (half the 16-bit rate) per product.
  double peak = (!mma               ? t.peakFp32Tflops * 0.5
                 : instr.isTf32x3() ? t.peakBf16Tflops / 6
                                    : t.peakBf16Tflops) *
                1e6;
  double lds = stages * (tm + tn) * (tk + pad) * e;
  double regs = 40 + tm * tn / threads + (tm + tn) * tk * e / 4 / threads;
  bool spills = regs > t.maxRegistersPerThread;
  regs = std::min<double>(regs, t.maxRegistersPerThread);
  double blocksPerCU =
      std::floor(std::min({registerFile(t) / (regs * threads),
                           lds > 0 ? t.ldsBytesPerWorkgroup / lds : 32.0,
                           t.maxWavesPerCU / (wm * wn), 8.0}));
  if (blocksPerCU < 1 || lds > t.ldsBytesPerWorkgroup) {
    m.status = MeasureStatus::CompileError;
    m.message = "synthetic: LDS or registers exceed a CU";
    return;
  }
  double tilesM = std::ceil(mm / tm), tilesN = std::ceil(nn / tn);
  double tiles = tilesM * tilesN * batch * splitK;
  double slots = t.computeUnits * blocksPerCU;
  double gridWaves = std::ceil(tiles / slots);
  double util = tiles / (gridWaves * slots);
  double padded = tilesM * tm * tilesN * tn / (mm * nn);
  double warpTile = (tm / wm) * (tn / wn);
  double warpEff = std::pow(std::min(1.0, warpTile / 4096.0), mma ? 0.35 : 0.2);
  double kEff = tk / (tk + 12.0);
  static const double stageEff[] = {0.55, 0.8, 0.92, 0.95};
  double pipeEff = stageEff[static_cast<int>(stages) - 1];
  double bankEff = pad == 0 ? (t.isAMD() ? 0.82 : 0.9) : pad == 4 ? 0.97 : 0.99;
  double vectorEff = std::pow(vw * e / 16, 0.3);
  double occEff = std::min(1.0, 0.6 + 0.2 * blocksPerCU);
  double computeUs =
      cost.flops * padded /
      (peak * util * warpEff * kEff * pipeEff * bankEff * vectorEff * occEff);
  double traffic =
      batch * (mm * kk * e * tilesN + kk * nn * e * tilesM) * 0.25 +
      batch * mm * nn * (splitK > 1 ? 4 * splitK * 2 : e);
  double memUs = traffic / (bytesPerUs(t) * 0.85 * vectorEff);
  double us = std::max(computeUs, memUs) + (splitK > 1 ? 3.0 : 0) + 3.0;
  if (spills)
    us *= 3;
  m.medianUs = us;
  m.stats["registers"] = std::round(regs);
  m.stats["shared_bytes"] = lds;
  m.stats["spill_bytes"] = spills ? 256 : 0;
  m.stats["occupancy"] = blocksPerCU * wm * wn / t.maxWavesPerCU;
}

llvm::Expected<std::vector<TuningRecord>>
mlir::hkg::tuner::generateSyntheticRecords(MLIRContext &ctx,
                                           const SyntheticOptions &options) {
  std::vector<TuningRecord> records;
  for (const std::string &chip : options.chips) {
    const TargetInfo *target = lookupTarget(chip);
    if (!target)
      return llvm::createStringError("unknown chip '" + chip + "'");
    for (const OpCase &c : getCases()) {
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(moduleText(c), &ctx);
      if (!module)
        return llvm::createStringError("cannot parse synthetic " + c.kind);
      HkgKernelOpInterface op;
      module->walk([&](HkgKernelOpInterface found) { op = found; });
      std::string signature = getOpSignature(op);
      CostFeatures cost = op.getCostFeatures();
      OpCandidateSpace space(op, *target);
      Rng rng(options.seed ^ llvm::hash_value(signature));
      std::vector<KnobMap> schedules = {space.getDefault()};
      std::set<std::string> seen = {formatKnobs(schedules.front())};
      for (unsigned i = 0; i < options.schedulesPerOp * 8 &&
                           schedules.size() <= options.schedulesPerOp;
           ++i) {
        std::optional<KnobMap> k = space.sample(rng);
        if (k && seen.insert(formatKnobs(*k)).second)
          schedules.push_back(std::move(*k));
      }
      for (const KnobMap &k : schedules) {
        TuningRecord r;
        r.op = op->getName().getStringRef().str();
        r.signature = signature;
        r.target = chip;
        r.schedule = k;
        // The epoch: a valid date that no measurement has, marking the
        // record synthetic.
        r.date = "1970-01-01T00:00:00Z";
        r.hkgVersion = kHkgVersion;
        Measurement &m = r.measurement;
        m.status = MeasureStatus::Ok;
        if (c.kind == "matmul")
          matmulModel(c, cost, *target, k, m);
        else
          rowModel(c, cost, *target, k, m);
        double n = noise(signature, k, chip);
        if (m.isOk()) {
          m.medianUs *= 1.0 + 0.04 * n;
          m.spread = 0.01 + 0.01 * std::abs(n);
          m.maxRelErr = c.type == "bf16" ? 4e-3 : 1e-6;
          // About 1% of candidates "miscompile": wrong results.
          if (std::abs(n) > 0.99) {
            m.status = MeasureStatus::Wrong;
            m.maxRelErr = 0.5;
          }
        }
        if (!m.isOk())
          m.medianUs = std::numeric_limits<double>::quiet_NaN();
        if (m.status != MeasureStatus::Ok && m.status != MeasureStatus::Wrong)
          m.stats.clear();
        records.push_back(std::move(r));
      }
    }
  }
  return records;
}
