//===- RandomInputs.h - seeded random inputs for kernel checks --*- C++ -*-===//
//
// Fresh, seeded, never-zero inputs for each operand of an hkg op, in ranges
// that suit the op (logits for softmax and sampling, positive values for
// bodies that take logarithms or roots, real cos/sin tables for RoPE...),
// given by the op's KernelModel.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_RANDOMINPUTS_H
#define HKG_RUNTIME_RANDOMINPUTS_H

#include "hkg/Runtime/HostTensor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace hkg::rt {

/// A small deterministic generator (SplitMix64); the same seed gives the
/// same numbers on every platform.
class RandomStream {
public:
  explicit RandomStream(uint64_t seed) : state(seed) {}
  uint64_t next();
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi);
  /// Normal with `mean` and `stddev` (Box-Muller over two uniform draws).
  double normal(double mean, double stddev);

private:
  uint64_t state;
};

/// Fills `tensor` with values uniform in [lo, hi), rounded to its dtype
/// (in parallel; the values depend only on `stream`'s state).
void fillUniform(HostTensor &tensor, RandomStream &stream, double lo,
                 double hi);

/// Fills `tensor` with normal values (`mean`, `stddev`), rounded to its
/// dtype, as fillUniform does.
void fillNormal(HostTensor &tensor, RandomStream &stream, double mean,
                double stddev);

struct KernelModel;

/// One random tensor per operand of `op` (in operand order), in the ranges
/// its KernelModel gives (default uniform [-1, 1)). An op without a model is
/// an error naming it. For an operand read through a slice view the tensor
/// is the kernel's input, the view's root (getKernelInputType; evaluate the
/// operand with evaluateOperands), drawn in the operand's range.
llvm::Expected<llvm::SmallVector<HostTensor>>
makeRandomInputs(mlir::Operation *op, uint64_t seed);
/// The same through `model` (which need not be registered).
llvm::Expected<llvm::SmallVector<HostTensor>>
makeRandomInputs(const KernelModel &model, mlir::Operation *op, uint64_t seed);

} // namespace hkg::rt

#endif // HKG_RUNTIME_RANDOMINPUTS_H
