//===- Reference.h - host reference implementations of hkg ops -*- C++ -*-===//
//
// Every hkg kernel op has a straightforward C++ reference here, accumulating
// in double. A reference takes the parsed op (usually the `source` module of
// a bundle manifest: one func holding one hkg op) and host tensors for its
// operands, in operand order, and returns the result as an f64 tensor (i32
// for top_p_sample). Element bodies and matmul epilogues run through the
// ScalarInterpreter.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_REFERENCE_H
#define HKG_RUNTIME_REFERENCE_H

#include "hkg/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
class Operation;
} // namespace mlir

namespace hkg::rt {

/// Registers the dialects a `source` module may use (hkg, func, arith, math).
void registerReferenceDialects(mlir::DialectRegistry &registry);

/// Parses a manifest `source` module.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseSourceModule(llvm::StringRef source, mlir::MLIRContext &context);

/// Returns the one hkg kernel op of `module` (error if none or several).
llvm::Expected<mlir::Operation *> findKernelOp(mlir::ModuleOp module);

struct ReferenceOptions {
  /// For matmul and attention, whose reference costs far more than the
  /// output size: an upper bound on multiply-adds. When the full reference
  /// would exceed it, only a subset of output rows is computed (evenly
  /// spread, first and last included) and the others are left unchecked.
  /// 0 means no bound.
  double maxMultiplyAdds = 0;
};

struct ReferenceResult {
  /// The expected output: f64 (i32 for top_p_sample).
  HostTensor output;
  /// Which elements were computed; empty when all were.
  std::vector<bool> computed;
  /// Per-element scale of the error a correct kernel may make (attention:
  /// sum_j p_ij |v_jc|, see getOpTolerance); empty when the op has none.
  std::vector<double> errorScale;

  bool isComputed(int64_t i) const { return computed.empty() || computed[i]; }
};

/// Evaluates `op` on `inputs` (one per operand, in operand order, shapes as
/// the op's operand types).
llvm::Expected<ReferenceResult>
evaluateReference(mlir::Operation *op, llvm::ArrayRef<HostTensor> inputs,
                  const ReferenceOptions &options = {});

//===----------------------------------------------------------------------===//
// top-p sampling helpers
//===----------------------------------------------------------------------===//

/// softmax(logits / temperature) restricted to the nucleus (the smallest set
/// of most likely tokens whose mass reaches `p`; ties broken by lower token
/// id) and renormalised; zero outside the nucleus.
std::vector<double> computeNucleusProbabilities(llvm::ArrayRef<double> logits,
                                                double p, double temperature);

/// The token whose renormalised nucleus CDF, accumulated in vocabulary
/// (token id) order, first exceeds `u` in [0, 1).
int64_t sampleFromNucleus(llvm::ArrayRef<double> nucleusProbs, double u);

} // namespace hkg::rt

#endif // HKG_RUNTIME_REFERENCE_H
