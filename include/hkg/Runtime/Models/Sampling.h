//===- Sampling.h - the top-p sampling model's helpers ----------*- C++ -*-===//
//
// The pieces of hkg.top_p_sample's runtime model (lib/Runtime/Models/
// SamplingModel.cpp) that tests and tools use on their own: the nucleus, the
// reference draw, and the check of a kernel's tokens.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_MODELS_SAMPLING_H
#define HKG_RUNTIME_MODELS_SAMPLING_H

#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace hkg::rt {

/// softmax(logits / temperature) restricted to the nucleus (the smallest set
/// of most likely tokens whose mass reaches `p`; ties broken by lower token
/// id) and renormalised; zero outside the nucleus.
std::vector<double> computeNucleusProbabilities(llvm::ArrayRef<double> logits,
                                                double p, double temperature);

/// The token whose renormalised nucleus CDF, accumulated in vocabulary
/// (token id) order, first exceeds `u` in [0, 1).
int64_t sampleFromNucleus(llvm::ArrayRef<double> nucleusProbs, double u);

/// Checks the tokens of an `hkg.top_p_sample` against its inputs. With a
/// `uniform` operand each token must be the reference draw, or, when `u` lies
/// within `cdfTolerance` of a boundary of the nucleus CDF, the neighbouring
/// token the device's float32 CDF picked. With a seed, each token must lie in
/// the nucleus (or within `cdfTolerance` of its boundary).
CheckResult checkTopPSample(mlir::Operation *op,
                            llvm::ArrayRef<HostTensor> inputs,
                            const HostTensor &tokens,
                            double cdfTolerance = 1e-4);

} // namespace hkg::rt

#endif // HKG_RUNTIME_MODELS_SAMPLING_H
