//===- RandomInputs.cpp - seeded random inputs for kernel checks ----------===//

#include "hkg/Runtime/RandomInputs.h"
#include "hkg/Runtime/ScalarInterpreter.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cmath>

using namespace hkg::rt;
using mlir::Operation;

uint64_t RandomStream::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double RandomStream::uniform(double lo, double hi) {
  double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * unit;
}

double RandomStream::normal(double mean, double stddev) {
  // u1 in (0, 1]: log(u1) is finite.
  double u1 = 1.0 - uniform(0.0, 1.0), u2 = uniform(0.0, 1.0);
  constexpr double kTwoPi = 6.283185307179586;
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

/// Fills `tensor` from `draw` in chunks of 64K elements, each with its own
/// stream derived from one draw of `stream`: the same numbers whatever the
/// number of threads.
static void fillWith(HostTensor &tensor, RandomStream &stream,
                     llvm::function_ref<double(RandomStream &)> draw) {
  constexpr int64_t chunk = 1 << 16;
  int64_t n = tensor.getNumElements();
  uint64_t base = stream.next();
  llvm::parallelFor(0, (n + chunk - 1) / chunk, [&](size_t c) {
    RandomStream local(base + c * 0xd1b54a32d192ed03ull);
    for (int64_t i = c * chunk, e = std::min(n, i + chunk); i < e; ++i)
      tensor.set(i, draw(local));
  });
}

void hkg::rt::fillUniform(HostTensor &tensor, RandomStream &stream, double lo,
                          double hi) {
  fillWith(tensor, stream, [&](RandomStream &s) { return s.uniform(lo, hi); });
}

void hkg::rt::fillNormal(HostTensor &tensor, RandomStream &stream, double mean,
                         double stddev) {
  fillWith(tensor, stream,
           [&](RandomStream &s) { return s.normal(mean, stddev); });
}

namespace {
/// The value range of one operand: uniform in [lo, hi), or with `normal`
/// normal with mean lo and standard deviation hi.
struct Range {
  double lo, hi;
  bool normal = false;
};
} // namespace

/// Fills `cos` / `sin` with real RoPE tables (base 10000).
static void fillRopeTable(HostTensor &table, bool isSin) {
  int64_t rows = table.getShape()[0], half = table.getShape()[1];
  for (int64_t pos = 0; pos < rows; ++pos)
    for (int64_t i = 0; i < half; ++i) {
      double angle = pos * std::pow(10000.0, -static_cast<double>(i) / half);
      table.set(pos * half + i, isSin ? std::sin(angle) : std::cos(angle));
    }
}

llvm::Expected<llvm::SmallVector<HostTensor>>
hkg::rt::makeRandomInputs(Operation *op, uint64_t seed) {
  // Default range, then per-op overrides by operand index.
  llvm::SmallVector<Range> ranges(op->getNumOperands(), Range{-1.0, 1.0});
  bool ropeTables = false;
  llvm::Error error = llvm::Error::success();
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](mlir::hkg::ElementwiseOp e) {
        llvm::Expected<ScalarProgram> program =
            ScalarProgram::compile(e.getBody().front());
        if (!program) {
          error = program.takeError();
          return;
        }
        Range r =
            program->needsPositiveInputs() ? Range{0.1, 4.0} : Range{-3.0, 3.0};
        std::fill(ranges.begin(), ranges.end(), r);
      })
      .Case([&](mlir::hkg::ReduceOp r) {
        if (r.getKind() == mlir::hkg::ReduceKind::Prod)
          ranges[0] = {0.99, 1.01};
      })
      .Case([&](mlir::hkg::SoftmaxOp) {
        ranges[0] = {-6.0, 6.0};
      })
      .Case([&](mlir::hkg::LayerNormOp l) {
        ranges[0] = {-1.5, 2.5};
        unsigned next = 1;
        if (l.getWeight())
          ranges[next++] = {0.5, 1.5};
        if (l.getBias())
          ranges[next++] = {-0.5, 0.5};
      })
      .Case([&](mlir::hkg::RMSNormOp) {
        ranges[0] = {-2.0, 2.0};
        ranges[1] = {0.5, 1.5};
      })
      .Case([&](mlir::hkg::RopeOp) { ropeTables = true; })
      .Case([&](mlir::hkg::TopPSampleOp t) {
        // Peaked logits, like a language model's and like the benchmark's
        // (utils/bench/bench.py: randn * 4): normal with standard deviation
        // 4, so that over a 128256-token vocabulary the nucleus at p = 0.9
        // holds a few hundred tokens. A sampler's speed depends on that
        // (bin_cache, light_tokens); uniform [-6, 6) logits put a fifth of
        // the vocabulary in the nucleus.
        ranges[0] = {0.0, 4.0, /*normal=*/true};
        if (t.getUniform())
          ranges[1] = {0.0, 1.0};
      });
  if (error)
    return std::move(error);

  llvm::SmallVector<HostTensor> inputs;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = mlir::dyn_cast<mlir::RankedTensorType>(operand.getType());
    if (!type || !type.hasStaticShape())
      return llvm::createStringError(
          llvm::formatv("operand #{0} of '{1}' is not a static-shape tensor", i,
                        op->getName()));
    std::optional<DType> dtype = getDTypeFor(type.getElementType());
    if (!dtype)
      return llvm::createStringError(llvm::formatv(
          "operand #{0} of '{1}' has an element type the runtime does not "
          "handle (expected f32, f16, bf16 or i32)",
          i, op->getName()));
    HostTensor t(*dtype, type.getShape());
    if (ropeTables && i > 0) {
      fillRopeTable(t, /*isSin=*/i == 2);
    } else {
      RandomStream stream(seed * 0x100000001b3ull + i + 1);
      if (ranges[i].normal)
        fillNormal(t, stream, ranges[i].lo, ranges[i].hi);
      else
        fillUniform(t, stream, ranges[i].lo, ranges[i].hi);
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}
