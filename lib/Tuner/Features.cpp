//===- Features.cpp - features of ops, targets, schedules and stats -------===//

#include "hkg/Tuner/Features.h"
#include "hkg/Tuner/Signature.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

static double log2OrZero(double v) { return v > 0 ? std::log2(v) : 0.0; }

static std::string typeName(Type t) {
  if (!t)
    return "none";
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

void mlir::hkg::tuner::addOpFeatures(FeatureMap &f, StringRef opName,
                                     const CostFeatures &cost) {
  f["op=" + opName.str()] = 1;
  f["op.log2_flops"] = log2OrZero(cost.flops);
  f["op.log2_bytes"] = log2OrZero(cost.bytes);
  f["op.log2_intensity"] =
      cost.bytes > 0 ? log2OrZero(cost.flops / cost.bytes) : 0;
  f["op.rank"] = static_cast<double>(cost.shape.size());
  double elements = 1;
  for (auto [i, d] : llvm::enumerate(cost.shape)) {
    f["op.log2_dim" + std::to_string(i)] = log2OrZero(static_cast<double>(d));
    elements *= static_cast<double>(d);
  }
  f["op.log2_elements"] = log2OrZero(elements);
  if (!cost.shape.empty())
    f["op.log2_last_dim"] = log2OrZero(static_cast<double>(cost.shape.back()));
  f["op.dtype=" + typeName(cost.elementType)] = 1;
  if (cost.elementType && cost.elementType.isIntOrFloat())
    f["op.dtype_bits"] = cost.elementType.getIntOrFloatBitWidth();
}

void mlir::hkg::tuner::addTargetFeatures(FeatureMap &f, const TargetInfo &t) {
  f["target.amd"] = t.isAMD() ? 1 : 0;
  f["target.wave_size"] = t.waveSize;
  f["target.log2_lds_bytes"] = log2OrZero(t.ldsBytesPerWorkgroup);
  f["target.compute_units"] = t.computeUnits;
  f["target.max_registers"] = t.maxRegistersPerThread;
  f["target.max_threads"] = t.maxThreadsPerWorkgroup;
  f["target.max_waves_per_cu"] = t.maxWavesPerCU;
  f["target.matrix_core"] = static_cast<double>(t.matrixCore);
  f["target.peak_bandwidth_gbs"] = t.peakBandwidthGBs;
  f["target.peak_fp32_tflops"] = t.peakFp32Tflops;
  f["target.peak_bf16_tflops"] = t.peakBf16Tflops;
}

void mlir::hkg::tuner::addScheduleFeatures(FeatureMap &f,
                                           const ScheduleSpace &space,
                                           const KnobMap &knobs) {
  for (const KnobSpec &spec : space.knobs) {
    auto it = knobs.find(spec.name);
    const KnobValue &value = it == knobs.end() ? spec.defaultValue : it->second;
    if (const int64_t *i = std::get_if<int64_t>(&value)) {
      f["knob." + spec.name] = *i > 0 ? std::log2(static_cast<double>(*i)) : -1;
      continue;
    }
    // One-hot over the knob's legal values.
    const std::string &chosen = std::get<std::string>(value);
    for (const KnobValue &legal : spec.legalValues)
      if (const std::string *s = std::get_if<std::string>(&legal))
        f["knob." + spec.name + "=" + *s] = *s == chosen ? 1 : 0;
  }
}

void mlir::hkg::tuner::addStatFeatures(FeatureMap &f, const StatMap &stats) {
  for (const auto &[name, value] : stats)
    f["stat." + name] = value;
}

/// Whether every legal value of `spec` is a positive integer: a size or a
/// count (threads, vector width, rows per workgroup...), which multiplies
/// into the work a thread or a workgroup does, rather than a flag or an
/// offset that may be 0 -- unless the space says the knob only orders the
/// work (KnobSpec::sizesWork). The mix features below grow as 3^sizes.
static bool isSizeKnob(const KnobSpec &spec) {
  if (!spec.sizesWork)
    return false;
  return llvm::all_of(spec.legalValues, [](const KnobValue &v) {
    const int64_t *i = std::get_if<int64_t>(&v);
    return i && *i > 0;
  });
}

/// The op's element count against every product and ratio of its size
/// knobs: log2(elements) + sum of c_k log2(knob k), c_k in {-1, 0, +1}, over
/// every non-zero choice of c. Among them are the quantities that decide a
/// memory-bound kernel whatever the op: elements per thread (elements /
/// (vector width x unroll x ...)), workgroups launched (elements / the work
/// of one workgroup), the parallelism a small shape leaves (elements /
/// (threads x vector width)) -- products of three or more terms that trees
/// over single log2 features cannot form. Which combination means what is
/// left to the model: nothing here knows what a knob does.
static void addElementsPerKnobFeatures(
    FeatureMap &f, const ScheduleSpace &space, const CostFeatures &cost,
    llvm::ArrayRef<std::pair<std::string, double>> ints) {
  llvm::SmallVector<std::pair<std::string, double>> sizes;
  for (const auto &knob : ints)
    if (const KnobSpec *spec = space.lookup(knob.first); isSizeKnob(*spec))
      sizes.push_back(knob);
  double elements = 0;
  for (int64_t d : cost.shape)
    elements += log2OrZero(static_cast<double>(d));
  size_t combinations = 1;
  for (size_t i = 0; i < sizes.size(); ++i)
    combinations *= 3;
  // Combination c: digit k of c in base 3 is c_k + 1.
  for (size_t c = 1; c < combinations; ++c) {
    if (c == (combinations - 1) / 2)
      continue; // every c_k = 0: the element count itself
    std::string name = "mix.elements";
    double value = elements;
    size_t code = c;
    for (const auto &[knob, log2Value] : sizes) {
      int coefficient = static_cast<int>(code % 3) - 1;
      code /= 3;
      if (coefficient == 0)
        continue;
      name += (coefficient > 0 ? "+" : "-") + knob;
      value += coefficient * log2Value;
    }
    f[name] = value;
  }
}

/// Generic interactions a tree model cannot form from log2 values alone:
/// sums and differences of integer knobs (products and ratios: threads per
/// row, tile per wave...) and each integer knob against each op dim
/// (elements per thread, tiles per dim). Op-agnostic on purpose.
static void addInteractionFeatures(FeatureMap &f, const ScheduleSpace &space,
                                   const CostFeatures &cost) {
  llvm::SmallVector<std::pair<std::string, double>> ints;
  for (const KnobSpec &spec : space.knobs) {
    auto it = f.find("knob." + spec.name);
    if (it != f.end())
      ints.push_back({spec.name, it->second});
  }
  for (size_t i = 0; i < ints.size(); ++i) {
    for (size_t j = i + 1; j < ints.size(); ++j) {
      f["mix." + ints[i].first + "+" + ints[j].first] =
          ints[i].second + ints[j].second;
      f["mix." + ints[i].first + "-" + ints[j].first] =
          ints[i].second - ints[j].second;
    }
    for (auto [d, dim] : llvm::enumerate(cost.shape))
      f["mix.dim" + std::to_string(d) + "-" + ints[i].first] =
          log2OrZero(static_cast<double>(dim)) - ints[i].second;
  }
  addElementsPerKnobFeatures(f, space, cost, ints);
  // The last dim against pairs of knobs (elements per thread of a row:
  // row length / (vector width x threads per row)).
  if (cost.shape.empty())
    return;
  double last = log2OrZero(static_cast<double>(cost.shape.back()));
  for (size_t i = 0; i < ints.size(); ++i)
    for (size_t j = 0; j < ints.size(); ++j) {
      if (i == j)
        continue;
      f["mix.last-" + ints[i].first + "-" + ints[j].first] =
          last - ints[i].second - ints[j].second;
      f["mix.last-" + ints[i].first + "+" + ints[j].first] =
          last - ints[i].second + ints[j].second;
    }
}

/// Each knob against the op's default schedule: for integer knobs the log2
/// ratio to the default (+1: twice the default), for keyword knobs whether
/// it is the default's value; and how many knobs differ. The default
/// schedule is the op's own heuristic for the shape and target, so these let
/// the model learn corrections to it rather than absolute knob values.
static void addDefaultRelativeFeatures(FeatureMap &f,
                                       const ScheduleSpace &space,
                                       const KnobMap &defaults,
                                       const KnobMap &knobs) {
  if (defaults.empty())
    return;
  unsigned differing = 0;
  for (const KnobSpec &spec : space.knobs) {
    auto d = defaults.find(spec.name);
    if (d == defaults.end())
      continue;
    auto it = knobs.find(spec.name);
    const KnobValue &value = it == knobs.end() ? spec.defaultValue : it->second;
    differing += value != d->second;
    const int64_t *i = std::get_if<int64_t>(&value);
    const int64_t *di = std::get_if<int64_t>(&d->second);
    if (i && di) {
      auto lg = [](int64_t v) {
        return v > 0 ? std::log2(static_cast<double>(v)) : -1.0;
      };
      f["dflt." + spec.name] = lg(*i) - lg(*di);
      continue;
    }
    f["dflt.same_" + spec.name] = value == d->second ? 1 : 0;
  }
  f["dflt.differing_knobs"] = differing;
}

OpContext OpContext::get(HkgKernelOpInterface op, const TargetInfo &target) {
  OpContext c;
  c.opName = op->getName().getStringRef().str();
  c.cost = op.getCostFeatures();
  c.space = op.getScheduleSpace(target);
  if (ScheduleAttr defaults = op.getDefaultSchedule(target))
    c.defaultKnobs = resolveKnobs(c.space, knobsFromAttr(defaults));
  c.target = &target;
  return c;
}

FeatureMap OpContext::getFeatures(const KnobMap &knobs,
                                  const StatMap *stats) const {
  FeatureMap f;
  addOpFeatures(f, opName, cost);
  addTargetFeatures(f, *target);
  addScheduleFeatures(f, space, knobs);
  addInteractionFeatures(f, space, cost);
  addDefaultRelativeFeatures(f, space, defaultKnobs, knobs);
  if (stats)
    addStatFeatures(f, *stats);
  return f;
}
