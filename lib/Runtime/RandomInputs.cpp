//===- RandomInputs.cpp - seeded random inputs for kernel checks ----------===//
//
// The generator and the fills; which range each operand is drawn from is
// its op's business (KernelModel::inputs).
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/RandomInputs.h"
#include "hkg/Runtime/KernelModel.h"
#include "hkg/Runtime/Reference.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
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

llvm::Expected<llvm::SmallVector<HostTensor>>
hkg::rt::makeRandomInputs(Operation *op, uint64_t seed) {
  llvm::Expected<const KernelModel &> model = getKernelModel(op);
  if (!model)
    return model.takeError();
  return makeRandomInputs(*model, op, seed);
}

llvm::Expected<llvm::SmallVector<HostTensor>>
hkg::rt::makeRandomInputs(const KernelModel &model, Operation *op,
                          uint64_t seed) {
  llvm::SmallVector<InputRange> ranges(op->getNumOperands(),
                                       InputRange::uniform(-1.0, 1.0));
  if (model.inputs)
    if (llvm::Error error = model.inputs(op, ranges))
      return std::move(error);

  // One per kernel input: an operand, or the tensor it is a slice view of,
  // drawn in the operand's range.
  llvm::SmallVector<HostTensor> inputs;
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    auto type =
        mlir::dyn_cast<mlir::RankedTensorType>(getKernelInputType(op, i));
    if (!type || !type.hasStaticShape())
      return llvm::createStringError(
          llvm::formatv("operand #{0} of '{1}' is not a static-shape tensor", i,
                        op->getName()));
    std::optional<DType> dtype = getDTypeFor(type.getElementType());
    if (!dtype)
      return llvm::createStringError(llvm::formatv(
          "operand #{0} of '{1}' has an element type the runtime does not "
          "handle (expected f32, f16, bf16, f64, i64, i32, i8, i1 or an 8-bit "
          "float)",
          i, op->getName()));
    HostTensor t(*dtype, type.getShape());
    const InputRange &range = ranges[i];
    // Each operand's stream depends on the seed and its index alone.
    RandomStream stream(seed * 0x100000001b3ull + i + 1);
    switch (range.kind) {
    case InputRange::Kind::Uniform:
      fillUniform(t, stream, range.a, range.b);
      break;
    case InputRange::Kind::Normal:
      fillNormal(t, stream, range.a, range.b);
      break;
    case InputRange::Kind::Custom:
      // A custom fill (RoPE's tables) is written for the operand's shape:
      // the tensor a slice view reads through is drawn uniformly instead.
      if (type != op->getOperand(i).getType()) {
        fillUniform(t, stream, -1.0, 1.0);
        break;
      }
      range.fill(t);
      break;
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}
