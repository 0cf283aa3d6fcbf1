//===- ReductionsKinds.h - the kinds and bodies of hkg.reduce ---*- C++ -*-===//
//
// What the row kernel (Reductions.cpp) and the column kernel
// (ReductionsColumns.cpp) of hkg.reduce share: the running state of each
// reduction kind and how two states combine, how a slot of elements becomes
// a state, and the op's prologue (applied per element, reading its `ins`
// operands through their indexing maps and `hkg.index`) and epilogue.
//
// A state is a tuple of values, each a scalar or a vector of the same width
// (the column kernel keeps one lane per output):
//  - sum, prod, max, min: the value (f32);
//  - logsumexp: (m, s), the running max and the sum of exp(x - m);
//  - argmax, argmin: (v, p), the best value and its position (i32). Ties go
//    to the lower position; a NaN beats every number, the first NaN wins.
// A reduce's state is its kinds' tuples one after the other.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSKINDS_H
#define HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSKINDS_H

#include "GPUBuildingBlocks.h"

namespace mlir::hkg::reduce {

/// The kinds of one hkg.reduce and the layout of its state tuple.
class KindState {
public:
  explicit KindState(ReduceOp op);

  /// Values in the state tuple.
  unsigned size() const { return total; }
  ArrayRef<ReduceKind> getKinds() const { return kinds; }

  /// The state of nothing yet, of the shape of `like` (f32 scalar or
  /// vector).
  SmallVector<Value> identity(OpBuilder &b, Location loc, Value like) const;

  /// Merges two states (scalars or vectors, elementwise).
  Combiner combiner() const;

  /// The state of a slot of elements: `values[k]` the elements of kind k
  /// (f32, a vector over the slot's lanes, already masked: invalid lanes
  /// hold the kind's identity), `position` the position of lane 0 (i32);
  /// lanes are consecutive positions. Reduces across the lanes.
  SmallVector<Value> ofLanes(OpBuilder &b, Location loc, ArrayRef<Value> values,
                             Value position) const;

  /// `acc` (a state of scalars) with a slot of lanes folded in, as
  /// combiner()(acc, ofLanes(values, position)), except that a logsumexp
  /// takes its lanes' exponentials against the new running max directly:
  /// one exponential per lane and one for acc's sum (9 for 8 lanes, not
  /// the 10 of a slot's own max and sum merged), as the online softmax.
  SmallVector<Value> accumulateLanes(OpBuilder &b, Location loc, ValueRange acc,
                                     ArrayRef<Value> values,
                                     Value position) const;

  /// The state of one element per lane, for the column kernel: `values[k]`
  /// f32 vectors, `position` the i32 position shared by the lanes.
  SmallVector<Value> ofElements(OpBuilder &b, Location loc,
                                ArrayRef<Value> values, Value position) const;

  /// The identity of kind `k` as a double (what invalid lanes hold).
  double maskValue(unsigned k) const;

  /// Each kind's reduced value: f32, or the position as i64 (argmax,
  /// argmin), of the shape of the state's values.
  SmallVector<Value> finish(OpBuilder &b, Location loc, ValueRange state) const;

private:
  SmallVector<ReduceKind> kinds;
  SmallVector<unsigned> offsets; // of each kind's values in the tuple
  unsigned total = 0;
};

/// Where the element being mapped sits in the input: its index along each
/// input dim.
using ElementIndex = SmallVector<Value>;

/// The op's prologue, applied to single elements.
class Prologue {
public:
  /// `ins` are the kernel's memrefs of the op's `ins` operands.
  Prologue(ReduceOp op, OpBuilder &b, Location loc, ValueRange ins);

  /// The f32 values (one per kind) the prologue yields for the element
  /// `x` (in the input's element type) at `index`; without a prologue, x
  /// as f32 once per kind. Loads the `ins` operands' elements there.
  SmallVector<Value> apply(Value x, ArrayRef<Value> index);

  /// apply() on each lane of `raw` (a vector of `width` input elements),
  /// lane l at `indexOf(l)`: one f32 vector of `width` lanes per kind.
  SmallVector<Value> applyLanes(Value raw, int64_t width,
                                function_ref<ElementIndex(int64_t)> indexOf);

  /// Whether the op has a prologue (else apply() needs no index).
  bool exists() const { return body != nullptr; }

  /// An error on the op when an `ins` operand has a dynamic dim other than
  /// its outermost (its strides would be dynamic; not supported yet).
  LogicalResult checkStrides();

private:
  ReduceOp op;
  OpBuilder &b;
  Location loc;
  Block *body = nullptr;
  SmallVector<Value> ins; // flat views
  SmallVector<SmallVector<int64_t>> strides;
};

/// The input's dims split around the reduced axes; index() turns the three
/// coordinates of [outer, reduced, inner] into the index along each dim.
struct InputDims {
  /// The kernel's input dims (the outer ones may be dynamic: kc's sizes).
  InputDims(ReduceOp op, KernelContext &kc);
  ElementIndex index(OpBuilder &b, Location loc, Value o, Value r,
                     Value i) const;
  SmallVector<OpFoldResult> outerDims;
  SmallVector<int64_t> reducedDims, innerDims;
};

/// Runs the op's epilogue on the kinds' reduced values (scalars), or
/// converts the single kind's value (a scalar or a vector) to the result's
/// element type.
Value applyEpilogue(ReduceOp op, OpBuilder &b, Location loc,
                    ArrayRef<Value> reduced);

} // namespace mlir::hkg::reduce

#endif // HKG_LIB_CONVERSION_HKGTOGPU_REDUCTIONSKINDS_H
