//===- Compositions.h - torch's decompositions back to hkg ops -*- C++ -*-===//
//
// Some ops reach linalg only as the decomposition torch.export made of them:
// RoPE as x * cos + rotate_half(x) * sin, scaled dot-product attention as two
// batch matmuls around a masked softmax. hkg-raise-linalg recognizes them on
// the generalized linalg, before elementwise fusion reshapes the steps, and
// builds the hkg op (one kernel) in their place. The steps are matched one
// linalg.generic at a time with the helpers below.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_LINALGTOHKG_COMPOSITIONS_H
#define HKG_LIB_CONVERSION_LINALGTOHKG_COMPOSITIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::hkg::raise {

/// Rewrites each `x * cos + rotate_half(x) * sin` over [B, S, H, D] tokens
/// (or their [B, H, S, D] transpose) into hkg.rope. Returns how many.
int recognizeRope(RewriterBase &rewriter, Operation *root);

/// Rewrites each decomposed scaled dot-product attention (torch.export's
/// math decomposition: q k^T scaled, an optional causal mask, a softmax with
/// its fully-masked-row guard, times v, grouped-query heads broadcast) into
/// hkg.attention. Returns how many; a composition that is recognizably
/// attention but cannot be expressed gets a remark saying why.
int recognizeAttention(RewriterBase &rewriter, Operation *root);

/// Rewrites each F.cross_entropy (mean over the rows not ignored, torch's
/// decomposition: log_softmax, a gather at the targets, a masked sum and a
/// count) into two hkg.reduce: the per-row loss from the logits
/// (logsumexp minus the target's logit), then the masked mean. Returns
/// how many.
int recognizeCrossEntropy(RewriterBase &rewriter, Operation *root);

//===----------------------------------------------------------------------===//
// Matching one step
//===----------------------------------------------------------------------===//

/// One elementwise step of a composition: a linalg.generic whose loops are
/// all parallel, with one result written at the identity, that yields one
/// payload op (every other op of its body computes a constant).
struct MapStep {
  linalg::GenericOp generic;
  Operation *op = nullptr;

  explicit operator bool() const { return op != nullptr; }
  /// The generic input payload operand `i` reads, or null when it is a
  /// constant or not a block argument of an input.
  OpOperand *input(unsigned i) const;
  /// That input's indexing map.
  AffineMap map(unsigned i) const;
  /// Payload operand `i` as a constant: a scalar (getScalarConstant), or
  /// an input that is a splat constant tensor (a float, an integer; i1 as
  /// 0 or 1).
  std::optional<double> constant(unsigned i) const;
};

/// The step `v` is the result of, if it is one.
MapStep getMapStep(Value v);

/// The step of `v` if its payload op is an `OpTy` whose operands are all
/// inputs read at the identity; `inputs` receives them in operand order.
template <typename OpTy>
MapStep matchMapOf(Value v, SmallVectorImpl<Value> &inputs) {
  MapStep step = getMapStep(v);
  if (!step || !isa<OpTy>(step.op))
    return {};
  inputs.clear();
  for (unsigned i = 0, e = step.op->getNumOperands(); i < e; ++i) {
    OpOperand *in = step.input(i);
    if (!in || !step.map(i).isIdentity())
      return {};
    inputs.push_back(in->get());
  }
  return step;
}

/// A generic that only moves elements of its one input (a transpose or a
/// broadcast, as generalized from linalg.transpose / linalg.broadcast):
/// the input and its map (the output's map is the identity).
std::optional<std::pair<Value, AffineMap>> matchDataMovement(Value v);

/// The reduction over the last loop that `v` (one of its results) is, every
/// other loop parallel, its input read at the identity, `v` written at the
/// other loops in order (kept as a size-1 last dim or dropped), with
/// combiner `combine` (an op name, e.g. "arith.addf") of the input and that
/// result's accumulator filled with `init`: its input, else null.
Value matchLastDimReduction(Value v, StringRef combine, double init);

/// The scalar `v` is (an arith.constant, perhaps through truncf / extf,
/// each rounding applied; an integer's value, i1 as 0 or 1), if it is
/// one.
std::optional<double> getScalarConstant(Value v);

/// Whether `g` reads and writes every operand at the identity: the same
/// element of each.
bool hasIdentityMaps(linalg::GenericOp g);

/// Whether `m` reads a row's reduced value back at every element of the
/// row: (d0, ..., dn-2, 0) over n loops.
bool isRowBroadcast(AffineMap m);

/// Verifies `op` without reporting: on failure `message` is its first
/// diagnostic.
LogicalResult verifyQuietly(Operation *op, std::string &message);

/// `v` seen through any tensor.expand_shape / collapse_shape.
Value skipReshapes(Value v);

} // namespace mlir::hkg::raise

#endif // HKG_LIB_CONVERSION_LINALGTOHKG_COMPOSITIONS_H
