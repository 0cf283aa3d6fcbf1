//===- GPUBuildingBlocks.h - pieces every hkg kernel is built from -C++ -*-===//
//
// The kernel being built (KernelContext) and the building blocks the op
// families share: constants and thread ids, flat memref views, vectorized
// global/LDS accesses with explicit alignment, f32 conversions, and subgroup
// (gpu.shuffle butterfly) and workgroup (subgroup + LDS) reductions and scans.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_GPUBUILDINGBLOCKS_H
#define HKG_LIB_CONVERSION_HKGTOGPU_GPUBUILDINGBLOCKS_H

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/ScheduleSpace.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <functional>

namespace mlir::hkg {

/// Adds a static LDS buffer of `shape` x `elementType` to `func` (a
/// workgroup attribution) aligned to `align` bytes (16: 16-byte vector
/// accesses) and returns it.
Value addWorkgroupBuffer(OpBuilder &b, Location loc, gpu::GPUFuncOp func,
                         ArrayRef<int64_t> shape, Type elementType,
                         int64_t align = 16);

/// The kernel being built for one hkg op. The family lowering fills the body
/// of `func` through `b` (positioned before its gpu.return) and sets the
/// launch dims.
struct KernelContext {
  OpBuilder &b;
  Location loc;
  gpu::GPUFuncOp func;
  const TargetInfo &target;
  const ResolvedSchedule &schedule;
  /// The kernel's memref arguments: inputs, then outputs.
  SmallVector<Value> args;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// Workgroups per cluster (NVIDIA sm_90 thread-block clusters), set as
  /// the kernel's known_cluster_size (PTX .reqnctapercluster: an ordinary
  /// launch runs the grid as clusters); {1, 1, 1} = none.
  std::array<int64_t, 3> cluster = {1, 1, 1};

  /// Kernels of ops with dynamic dims (DynamicDims.h, docs/ABI.md): the size
  /// parameters (index values), one per dynamic dim of the result, in
  /// order; empty for a static kernel. `args` are then memrefs with those
  /// dims dynamic.
  SmallVector<Value> sizes = {};
  /// Per argument, per dim: the size parameter the dim is, or -1.
  SmallVector<SmallVector<int64_t>> argSizes = {};
  /// With sizes: the grid's x at launch is ceil(N * mul / div) * times for
  /// N the product of the sizes ([mul, div, times], set by setGridX).
  std::optional<std::array<int64_t, 3>> gridX = std::nullopt;

  bool hasSizes() const { return !sizes.empty(); }
  /// The product of dims [begin, end) of argument `arg`: a constant when
  /// they are static, else an index value.
  OpFoldResult extent(unsigned arg, int64_t begin, int64_t end);
  /// The static dims among [begin, end) of argument `arg`, multiplied.
  int64_t staticExtent(unsigned arg, int64_t begin, int64_t end) const;
  /// A kernel with sizes launches ceil(N * mul / div) * times workgroups
  /// along x, N the product of all its sizes: the family's count of work
  /// items is N * mul, `div` per workgroup, `times` workgroups each.
  void setGridX(int64_t mul, int64_t div, int64_t times = 1);

  /// Adds a static LDS buffer (a workgroup attribution) aligned to `align`
  /// bytes (16: 16-byte vector accesses) and returns it.
  Value addLds(ArrayRef<int64_t> shape, Type elementType, int64_t align = 16);
  int64_t waveSize() const { return target.waveSize; }
};

/// When the kernel's LDS buffers (workgroup attributions) exceed
/// `staticLimit` bytes, places them in one dynamic shared memory buffer
/// instead (gpu.dynamic_shared_memory and a memref.view per buffer, at
/// 16-byte aligned offsets), removes the attributions and returns the
/// dynamic bytes the launch must ask for; returns 0 and changes nothing
/// otherwise. NVIDIA caps static shared memory at 48 KiB per workgroup;
/// more needs a dynamic allocation and, above 48 KiB, an opt-in attribute
/// at launch (the runtime sets it from the manifest, docs/ABI.md). Fails,
/// with an error on the kernel, when a buffer has no static shape, identity
/// layout and integer or float elements, or when the total exceeds
/// `maxBytes`.
FailureOr<int64_t> moveLdsToDynamicSharedMemory(gpu::GPUFuncOp func,
                                                int64_t staticLimit,
                                                int64_t maxBytes);

/// Family entry points: fill the kernel for the op or emit an error on it.
LogicalResult lowerElementwise(ElementwiseOp op, KernelContext &kc);
LogicalResult lowerReduce(ReduceOp op, KernelContext &kc);
/// hkg.reduce over axes with kept dims after them, and hkg.softmax over
/// an axis that is not the last (ReductionsColumns.cpp).
LogicalResult lowerReduceColumns(ReduceOp op, KernelContext &kc);
LogicalResult lowerSoftmaxColumns(SoftmaxOp op, KernelContext &kc);
LogicalResult lowerSoftmax(SoftmaxOp op, KernelContext &kc);
LogicalResult lowerLayerNorm(LayerNormOp op, KernelContext &kc);
LogicalResult lowerRMSNorm(RMSNormOp op, KernelContext &kc);
/// hkg.layernorm and hkg.rmsnorm over one axis with kept dims after it
/// (ReductionsNormColumns.cpp).
LogicalResult lowerLayerNormColumns(LayerNormOp op, KernelContext &kc);
LogicalResult lowerRMSNormColumns(RMSNormOp op, KernelContext &kc);
LogicalResult lowerRope(RopeOp op, KernelContext &kc);
LogicalResult lowerTopPSample(TopPSampleOp op, KernelContext &kc);
LogicalResult lowerAttention(AttentionOp op, KernelContext &kc);

//===----------------------------------------------------------------------===//
// Scalars, ids, views
//===----------------------------------------------------------------------===//

Value constIndex(OpBuilder &b, Location loc, int64_t v);
Value constI32(OpBuilder &b, Location loc, int64_t v);
Value constF32(OpBuilder &b, Location loc, double v);
/// threadIdx.x / blockIdx.x as index.
Value threadIdX(OpBuilder &b, Location loc);
Value blockIdX(OpBuilder &b, Location loc);

/// Reinterprets the contiguous static memref `m` with a new static shape
/// (same element count), e.g. [B, S, H, D] as [B*S, H*D]. A memref with a
/// static strided layout (a slice view, SliceViews.h) is reshaped by
/// memref.collapse_shape and memref.expand_shape instead, which
/// canReshapeView must allow.
Value reshapeView(OpBuilder &b, Location loc, Value m, ArrayRef<int64_t> shape);
/// Whether reshapeView can give `type` the static `shape`: always for an
/// identity layout; for a strided one, where each group of dims it merges
/// follows each other in memory.
bool canReshapeView(MemRefType type, ArrayRef<int64_t> shape);
/// The same with dims that may be dynamic (index values): a contiguous
/// row-major view of `m`, static or not.
Value reshapeView(OpBuilder &b, Location loc, Value m,
                  ArrayRef<OpFoldResult> shape);

/// The contiguous memref `m` as a one-dimensional view of all its elements.
Value flatView(OpBuilder &b, Location loc, Value m);

/// The static memref `m` of any strided layout as the one-dimensional view
/// from its first element to its last (at its offset, stride 1): its element
/// i is at sum_k stride_k * i_k there. For an identity layout, flatView.
Value spanView(OpBuilder &b, Location loc, Value m);

/// Alignment in bytes that a `width`-element access at an index that is a
/// multiple of `width` has, given 16-byte aligned base pointers.
int64_t vectorAlignment(Type elementType, int64_t width);

/// Which accesses of a kernel op's streams are marked nontemporal, from its
/// discardable attributes and the target (docs/Lowering.md):
///  - `hkg.streaming_access` (All): the row / element loads and the output's
///    stores; NVVM kernels make them ld/st.global.cs, AMDGPU sets `nt`;
///  - `hkg.load_eviction = "first"` (LoadsEvictFirst): the last read of each
///    row element / full-size input element, stores plain;
///  - `hkg.load_eviction = "last"` (LoadsEvictLast): every global read of
///    the row / full-size inputs, stores plain. The default of
///    hkg.elementwise, softmax, layernorm and rmsnorm on Hopper (sm_90,
///    where it was measured: docs/Lowering.md); on AMD it is plain loads
///    (`nt`, the only hint the marker becomes there, means the opposite);
///  - `hkg.load_eviction = "normal"` or an AMD "last": None, plain loads.
/// hkg-nvvm-streaming-access gives the loads of the two `hkg.load_eviction`
/// forms L1 and L2 evict-first / evict-last cache policies (what Triton
/// emits for `eviction_policy`), from the kernel's `hkg.load_eviction`.
enum class StreamingAccess { None, All, LoadsEvictFirst, LoadsEvictLast };
StreamingAccess streamingAccessOf(Operation *op, const TargetInfo &target);

/// Loads vector<width x T> from `m` at `indices` (vector.load with the given
/// byte alignment, so that it becomes one 16-byte access when possible).
/// `nontemporal` marks a stream access for hkg-nvvm-streaming-access: NVVM
/// kernels get ld/st.global.cs, or a load cache policy in kernels marked
/// `hkg.load_eviction` (StreamingAccess above); AMDGPU sets the `nt` bit.
Value loadVector(OpBuilder &b, Location loc, Value m, ValueRange indices,
                 int64_t width, int64_t alignment, bool nontemporal = false);
void storeVector(OpBuilder &b, Location loc, Value v, Value m,
                 ValueRange indices, int64_t alignment,
                 bool nontemporal = false);

/// Converts a float scalar or vector to f32 (arith.extf; no-op for f32), and
/// back to `elementType` (arith.truncf).
Value toF32(OpBuilder &b, Location loc, Value v);
Value fromF32(OpBuilder &b, Location loc, Value v, Type elementType);

/// bf16 (scalar or vector) to f32 with integer instructions (the bits
/// shifted left by 16: exact, like arith.extf). Unlike a second arith.extf
/// of the same value it is not merged with an earlier conversion by CSE, so
/// a value kept as bf16 across a long stretch of code (a cached row) is
/// converted again where it is used instead of living as f32 in twice the
/// registers. `wordwise` (even-width vectors only) works on the i32 words
/// the pairs were loaded in (shift / mask per word); otherwise each element
/// is widened on its own. The two forms are different instructions, so a
/// third use of the same value can take the other form and not be merged
/// with the second either.
Value bf16ToF32Bits(OpBuilder &b, Location loc, Value v, bool wordwise = true);

/// Splats `scalar` to the shape of `like` when `like` is a vector.
Value splatLike(OpBuilder &b, Location loc, Value scalar, Value like);

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Combines two tuples of partial results into one.
using Combiner = std::function<SmallVector<Value>(OpBuilder &, Location,
                                                  ValueRange, ValueRange)>;

/// exp(d) for d = x - m, m at least every x of a sum of exponentials
/// (softmax, logsumexp, cross-entropy: d <= 0, or NaN): the fast
/// exponential (`afn`; sm_90: ex2.approx of d log2(e), 3 instructions
/// with the subtraction against libdevice expf's ~12; AMD: v_exp_f32). Each
/// term then errs by at most 2^-22 + |d| log2(e) 2^-24 relative (the
/// approximation, and the product's rounding, which grows with |d|), and
/// terms below 2^-126 (d < -87.3) flush to 0. Such a sum holds the term
/// exp(0) = 1 of its max, so the flushed terms move it by less than 2^-126 of
/// itself, and its relative error is the terms' averaged with weights e^d:
/// at most 2^-22 + log2(e) 2^-24 (ln n + 1) for n terms (1.2e-6 at n = 32000;
/// f32's tolerance is 1e-5, docs/Runtime.md). Triton's tl.exp is the same
/// ex2.approx form. Exponentials of user bodies keep math.exp's precise
/// lowering: only these arguments are known to be at most 0.
Value expBelowMax(OpBuilder &b, Location loc, Value d);

/// exp(a - m) (`a` scalar or vector; `m` a scalar or of a's shape, at least
/// a: expBelowMax), or 0 where m is -inf: the running max of nothing yet
/// (then a is -inf too).
Value expDiffOrZero(OpBuilder &b, Location loc, Value a, Value m);

/// Combines (max, sum of exp(x - max)) pairs: the online softmax merge.
Combiner makeOnlineSoftmaxCombiner();

/// Builds the combiner and identity of a single-value kind on f32 (sum, max,
/// min, prod; the others keep tuples: ReductionsKinds.h). The combiner
/// reduces every value of its tuples independently (x[i] with y[i]), so one
/// butterfly can reduce a tile of accumulators.
Combiner makeCombiner(ReduceKind kind);
Value reductionIdentity(OpBuilder &b, Location loc, ReduceKind kind);
/// Reduces a vector<N x f32> to a scalar with `kind` (vector.reduction).
Value reduceVector(OpBuilder &b, Location loc, Value v, ReduceKind kind);

/// Butterfly (gpu.shuffle xor) reduction of `values` across aligned clusters
/// of `clusterSize` lanes (a power of two <= the wave size); every lane of
/// the cluster gets the result.
SmallVector<Value> subgroupReduce(OpBuilder &b, Location loc, ValueRange values,
                                  const Combiner &combine, int64_t clusterSize,
                                  int64_t waveSize);

/// Reduces `values` over the `groupSize` consecutive threads of a workgroup
/// that handle one row (`group` = threadIdx / groupSize, `laneInGroup` =
/// threadIdx % groupSize, `numGroups` groups per workgroup). Within a wave it
/// is a shuffle butterfly; across waves it goes through a small LDS array
/// (allocated only then) and one barrier. Every thread of the group gets the
/// result. All threads of the workgroup must reach this call; when LDS is
/// used a trailing barrier makes the call safe inside loops.
SmallVector<Value> groupReduce(KernelContext &kc, ValueRange values,
                               const Combiner &combine, int64_t groupSize,
                               int64_t numGroups, Value group,
                               Value laneInGroup);

/// Inclusive and exclusive prefix sums of `value` (f32 or i32) over all the
/// threads of a one-dimensional workgroup, in threadIdx order, plus the
/// total. Wave scan by gpu.shuffle up, wave totals through LDS.
struct ScanResult {
  Value inclusive, exclusive, total;
};
ScanResult workgroupScan(KernelContext &kc, Value value, Value tid);

/// The row-major index of the flat index `flat` over `dims`: one index per
/// dim (a constant 0 for dims of extent 1, no remainder for the outermost).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat,
                               ArrayRef<int64_t> dims);

/// The same over dims that may be dynamic (index values).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat,
                               ArrayRef<OpFoldResult> dims);

/// sum_j strides[j] * index[j] (terms of stride 0 left out; 0 when all are).
Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> index,
                ArrayRef<int64_t> strides);

/// Asks LLVM not to unroll `loop` (an scf.for): an `llvm.loop_annotation`
/// that convert-scf-to-cf puts on the latch and hkg-llvm-loop-annotations
/// makes LLVM read. For loops whose body already has the memory-level
/// parallelism it needs, where a full unroll of a constant trip count would
/// only hoist every iteration's loads into registers.
void disableLLVMUnroll(Operation *loop);

/// Thread-block cluster barrier (sm_90): barrier.cluster.arrive (release)
/// then wait (acquire), `.aligned`: every thread of every workgroup of the
/// cluster must reach it, and LDS written before it is visible to the
/// cluster's other workgroups after it.
void clusterBarrier(OpBuilder &b, Location loc);

/// Loads a `type` (the element type of the LDS memref `lds`, or a vector of
/// it) at flat element `index` of `lds` in the cluster's workgroup `peer`
/// (an i32 rank): mapa + ld.shared::cluster. `alignment` in bytes, 0 for
/// the type's ABI alignment.
Value loadFromPeerLds(OpBuilder &b, Location loc, Value lds, Value index,
                      Value peer, Type type, unsigned alignment = 0);

/// Combines partial states over the `clusterSize` workgroups of a
/// thread-block cluster (sm_90) through distributed shared memory. `values`
/// are 32-bit scalars or vectors of 32-bit lanes, all of one width `w`
/// (1 for scalars). The threads where `writer` holds (null: all) park them
/// in an LDS array of `slots` slots of `w` words, at slot `slot`; after a
/// cluster barrier every thread reads slot `slot` of every workgroup, rank 0
/// first (the same order everywhere: the same result in every workgroup),
/// folding them with `combine`; a second barrier keeps each workgroup's LDS
/// alive until its peers have read it. Every thread of every workgroup of
/// the cluster must reach this call. (The column ops' axis_split and the
/// row ops' row_split.)
SmallVector<Value> clusterCombine(KernelContext &kc, ValueRange values,
                                  const Combiner &combine, int64_t clusterSize,
                                  int64_t slots, Value slot, Value writer);

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

/// Emits `body` under an scf.if on `cond` (no else region), or directly
/// where `cond` is null (always true). `b` is restored after the if.
void emitIfThen(OpBuilder &b, Location loc, Value cond,
                function_ref<void()> body);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_GPUBUILDINGBLOCKS_H
