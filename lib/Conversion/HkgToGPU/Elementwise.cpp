//===- Elementwise.cpp - hkg.elementwise to a streaming kernel ------------===//
//
// The output is streamed as a flat array. A workgroup of `threads` threads
// handles `threads * vector_width * unroll` consecutive elements: in each of
// `unroll` steps, thread t moves the `vector_width` elements starting at
// step * threads * vector_width + t * vector_width (coalesced 16-byte
// accesses), and every load of the workgroup's steps is issued before the
// first compute.
//
// Each input is read through its indexing map (BroadcastMaps.h), in the
// cheapest form that map allows:
//  - the result's own layout: at the flat index;
//  - the result's trailing dims (a bias): at the flat index modulo the
//    input's size, which `vector_width` divides;
//  - any other map (a per-row scale, a transposed read, size-1 dims): at
//    sum_j stride_j * i_j of the element's result index i. There and where
//    the body reads `hkg.index`, `vector_width` divides the result's last
//    dim, so a vector covers consecutive elements of one innermost row: the
//    input is one vector load where it follows that dim contiguously, one
//    scalar broadcast where it does not follow it, a gather otherwise.
// An input that is a slice view (SliceViews.h: a strided memref in
// kc.args) is read from the one-dimensional span of its buffer, at the
// strides of its layout composed with its map, in the same three forms (the
// schedule keeps vectors within one result row, since its rows need not
// follow each other), claiming only the alignment its layout keeps.
// i1 tensors are one byte per element (docs/ABI.md) and move one element per
// access. Only the last workgroup can be partial: it checks each vector and
// finishes the elements past the last full vector one at a time.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "MathRewrites.h"
#include "SliceViews.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/ElementwiseSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::hkg;

namespace {
/// Emits the loads, body and store of `width`-element accesses.
struct ElementwiseEmitter {
  ElementwiseOp op;
  OpBuilder &b;
  Location loc;
  SmallVector<Value> inputs = {}; // flat views (spans of slice views)
  /// Per input: the most its accesses may claim aligned, in bytes (16, or
  /// what a slice view's layout keeps).
  SmallVector<int64_t> alignCaps = {};
  SmallVector<OpFoldResult> inputSizes = {};
  SmallVector<bool> fullSize = {}; // the input has the result's shape
  SmallVector<BroadcastAccess> access = {};
  SmallVector<SmallVector<int64_t>> strides =
      {}; // per result dim, Strided only
  SmallVector<OpFoldResult> resultShape = {};
  Value output = {}; // flat view
  StreamingAccess streaming = StreamingAccess::None;

  /// The result index of flat index `idx` (dims of extent 1 are 0).
  SmallVector<Value> resultIndex(Value idx) {
    return delinearize(b, loc, idx, resultShape);
  }

  /// Offset of input `i`'s element for result index `index`.
  Value stridedOffset(unsigned i, ArrayRef<Value> index) {
    return linearize(b, loc, index, strides[i]);
  }

  bool isI1(Value m) {
    return cast<MemRefType>(m.getType()).getElementType().isInteger(1);
  }

  /// A `width`-element vector of `m` from `offset` (one byte per i1
  /// element, so i1 is read by scalar loads), aligned to at most `cap`
  /// bytes.
  Value loadContiguous(Value m, Value offset, int64_t width, bool once,
                       int64_t cap = 16) {
    Type et = cast<MemRefType>(m.getType()).getElementType();
    if (isI1(m)) {
      SmallVector<Value> lanes;
      for (int64_t l = 0; l < width; ++l) {
        Value at = l == 0 ? offset
                          : arith::AddIOp::create(b, loc, offset,
                                                  constIndex(b, loc, l));
        lanes.push_back(memref::LoadOp::create(b, loc, m, at));
      }
      return vector::FromElementsOp::create(
          b, loc, VectorType::get({width}, et), lanes);
    }
    return loadVector(b, loc, m, offset, width,
                      std::min(cap, vectorAlignment(et, width)), once);
  }

  SmallVector<Value> load(Value idx, int64_t width,
                          std::optional<SmallVector<Value>> &index) {
    SmallVector<Value> vs;
    for (auto [i, in] : llvm::enumerate(inputs)) {
      Type et = cast<MemRefType>(in.getType()).getElementType();
      // Experimental `hkg.streaming_access` / `hkg.load_eviction`: full-size
      // inputs (read once) nontemporal; broadcast ones (a bias, reused) not.
      bool once = streaming != StreamingAccess::None && fullSize[i];
      int64_t cap = alignCaps[i];
      if (access[i] == BroadcastAccess::Flat) {
        vs.push_back(loadContiguous(in, idx, width, once, cap));
        continue;
      }
      if (access[i] == BroadcastAccess::Trailing) {
        Value at = arith::RemUIOp::create(
            b, loc, idx,
            getValueOrCreateConstantIndexOp(b, loc, inputSizes[i]));
        vs.push_back(loadContiguous(in, at, width, once, cap));
        continue;
      }
      if (!index)
        index = resultIndex(idx);
      Value offset = stridedOffset(i, *index);
      int64_t inner = strides[i].empty() ? 0 : strides[i].back();
      auto vt = VectorType::get({width}, et);
      if (width == 1 || inner == 1) {
        vs.push_back(loadContiguous(in, offset, width, once, cap));
      } else if (inner == 0) {
        Value scalar = loadContiguous(in, offset, 1, once, cap);
        vs.push_back(vector::BroadcastOp::create(
            b, loc, vt, vector::ExtractOp::create(b, loc, scalar, 0)));
      } else {
        SmallVector<Value> lanes;
        for (int64_t l = 0; l < width; ++l) {
          Value at = arith::AddIOp::create(b, loc, offset,
                                           constIndex(b, loc, l * inner));
          lanes.push_back(vector::ExtractOp::create(
              b, loc, loadContiguous(in, at, 1, once, cap), 0));
        }
        vs.push_back(vector::FromElementsOp::create(b, loc, vt, lanes));
      }
    }
    return vs;
  }

  /// Applies the scalar body to each lane of the loaded vectors; lane l is
  /// the element `l` past result index `index` along the last dim.
  Value compute(ArrayRef<Value> loaded, int64_t width, Value idx,
                std::optional<SmallVector<Value>> &index) {
    Block &body = op.getBody().front();
    SmallVector<Value> lanes;
    for (int64_t l = 0; l < width; ++l) {
      IRMapping map;
      for (auto [arg, v] : llvm::zip(body.getArguments(), loaded))
        map.map(arg, vector::ExtractOp::create(b, loc, v, l));
      for (Operation &inner : body.without_terminator()) {
        auto indexOp = dyn_cast<IndexOp>(inner);
        if (!indexOp) {
          b.clone(inner, map);
          continue;
        }
        if (!index)
          index = resultIndex(idx);
        unsigned dim = indexOp.getDim();
        Value v = (*index)[dim];
        if (l != 0 && dim + 1 == resultShape.size())
          v = arith::AddIOp::create(b, loc, v, constIndex(b, loc, l));
        map.map(indexOp.getResult(), v);
      }
      lanes.push_back(map.lookup(body.getTerminator()->getOperand(0)));
    }
    auto vt = VectorType::get({width}, lanes.front().getType());
    return vector::FromElementsOp::create(b, loc, vt, lanes);
  }

  void store(Value v, Value idx, int64_t width) {
    Type et = cast<MemRefType>(output.getType()).getElementType();
    if (isI1(output)) {
      for (int64_t l = 0; l < width; ++l) {
        Value at =
            l == 0 ? idx
                   : arith::AddIOp::create(b, loc, idx, constIndex(b, loc, l));
        memref::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, v, l),
                                output, at);
      }
      return;
    }
    storeVector(b, loc, v, output, idx, vectorAlignment(et, width),
                streaming == StreamingAccess::All);
  }

  /// Loads, computes and stores the `width` elements from flat index `idx`.
  void emitAccess(Value idx, int64_t width) {
    std::optional<SmallVector<Value>> index;
    SmallVector<Value> loaded = load(idx, width, index);
    store(compute(loaded, width, idx, index), idx, width);
  }
};
} // namespace

static LogicalResult emitKernel(ElementwiseOp op, KernelContext &kc) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  ElementwiseSchedule sched = ElementwiseSchedule::decode(kc.schedule);
  int64_t vw = sched.vectorWidth;
  int64_t threads = sched.threads;
  int64_t unroll = sched.unroll;
  unsigned out = kc.args.size() - 1;
  int64_t rank = op.getResult().getType().getRank();
  // numel = N * numelFactor, N the product of the sizes (1 when static).
  OpFoldResult numel = kc.extent(out, 0, rank);
  int64_t numelFactor = kc.staticExtent(out, 0, rank);
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op.getBody(), captured);
  if (!captured.empty())
    return op.emitOpError("body uses a value defined outside it (")
           << captured.front()
           << "); hkg-lower-to-gpu expects a self-contained body";

  ElementwiseEmitter e{op, b, loc};
  e.streaming = streamingAccessOf(op, kc.target);
  for (int64_t d = 0; d < rank; ++d)
    e.resultShape.push_back(kc.extent(out, d, d + 1));
  // Shapes with each dynamic dim as a stand-in extent, distinct per size
  // parameter: the access classes and the strides follow from them; a
  // stride that changes with the stand-ins depends on a dynamic extent.
  auto standIn = [&](unsigned arg, ArrayRef<int64_t> shape, int64_t base) {
    SmallVector<int64_t> r(shape);
    for (auto [d, extent] : llvm::enumerate(r))
      if (ShapedType::isDynamic(extent))
        extent = base + 2 * kc.argSizes[arg][d];
    return r;
  };
  constexpr int64_t kStandIn = 1000003, kOtherStandIn = 2000003;
  ArrayRef<int64_t> resultShape = op.getResult().getType().getShape();
  SmallVector<int64_t> result = standIn(out, resultShape, kStandIn);
  for (auto [idx, in, inputMap] :
       llvm::enumerate(op.getInputs(), op.getInputMaps())) {
    unsigned i = idx;
    AffineMap map = inputMap;
    auto type = cast<ShapedType>(in.getType());
    e.inputSizes.push_back(kc.extent(i, 0, type.getRank()));
    e.fullSize.push_back(type.getShape() == resultShape);
    auto argType = cast<MemRefType>(kc.args[i].getType());
    if (!argType.getLayout().isIdentity()) {
      // A slice view (static): its layout's strides through the map.
      SmallVector<int64_t> layoutStrides = argType.getStridesAndOffset().first;
      SmallVector<int64_t> strides(rank, 0);
      for (auto [k, expr] : llvm::enumerate(map.getResults()))
        if (auto d = dyn_cast<AffineDimExpr>(expr))
          strides[d.getPosition()] += layoutStrides[k];
      for (auto [j, extent] : llvm::enumerate(resultShape))
        if (extent == 1)
          strides[j] = 0;
      BroadcastAccess access = classifyBroadcastAccess(strides, result);
      // Flat and trailing reads index the span at (a remainder of) the flat
      // index: aligned as its start; strided ones also as its strides.
      e.alignCaps.push_back(access == BroadcastAccess::Strided
                                ? getSliceViewAlignment(argType)
                                : getSliceViewAlignment(argType,
                                                        /*strides=*/false));
      e.inputs.push_back(spanView(b, loc, kc.args[i]));
      e.access.push_back(access);
      e.strides.push_back(std::move(strides));
      continue;
    }
    e.alignCaps.push_back(16);
    e.inputs.push_back(flatView(b, loc, kc.args[i]));
    auto stridesWith = [&](int64_t base) {
      SmallVector<int64_t> strides =
          operandStridesPerResultDim(map, standIn(i, type.getShape(), base));
      // Dims of extent 1 contribute nothing whatever their stride.
      for (auto [j, extent] : llvm::enumerate(resultShape))
        if (extent == 1)
          strides[j] = 0;
      return strides;
    };
    SmallVector<int64_t> strides = stridesWith(kStandIn);
    BroadcastAccess access = classifyBroadcastAccess(strides, result);
    if (access == BroadcastAccess::Strided &&
        strides != stridesWith(kOtherStandIn))
      return op.emitOpError("input #")
             << i << " is read through a map whose strides depend on a "
             << "dynamic dim (a dynamic dim inside the input's shape); only "
             << "an input's outermost dim may be dynamic there";
    e.access.push_back(access);
    e.strides.push_back(std::move(strides));
  }
  e.output = flatView(b, loc, kc.args.back());

  int64_t perStep = threads * vw;
  int64_t perBlock = perStep * unroll;
  // Static: the workgroups and how many are full; dynamic: from N at launch.
  std::optional<int64_t> staticNumel = getConstantIntValue(numel);
  Value numelValue = getValueOrCreateConstantIndexOp(b, loc, numel);
  int64_t numBlocks = 0, fullBlocks = 0;
  if (staticNumel) {
    numBlocks = llvm::divideCeil(*staticNumel, perBlock);
    fullBlocks = *staticNumel / perBlock;
    kc.grid = {numBlocks, 1, 1};
  } else {
    kc.setGridX(numelFactor, perBlock);
  }
  kc.block = {threads, 1, 1};

  Value tid = threadIdX(b, loc);
  Value bid = blockIdX(b, loc);
  Value blockBase =
      arith::MulIOp::create(b, loc, bid, constIndex(b, loc, perBlock));
  Value threadBase = arith::AddIOp::create(
      b, loc, blockBase,
      arith::MulIOp::create(b, loc, tid, constIndex(b, loc, vw)));
  auto stepIndex = [&](int64_t step) -> Value {
    return arith::AddIOp::create(b, loc, threadBase,
                                 constIndex(b, loc, step * perStep));
  };

  // Full workgroups: every load of every step first, then compute and store.
  auto emitFull = [&]() {
    SmallVector<Value> idx;
    SmallVector<SmallVector<Value>> loaded;
    SmallVector<std::optional<SmallVector<Value>>> index(unroll);
    for (int64_t u = 0; u < unroll; ++u) {
      idx.push_back(stepIndex(u));
      loaded.push_back(e.load(idx.back(), vw, index[u]));
    }
    for (int64_t u = 0; u < unroll; ++u)
      e.store(e.compute(loaded[u], vw, idx[u], index[u]), idx[u], vw);
  };

  // The partial last workgroup: whole vectors while they fit, then the
  // remaining elements one by one.
  auto emitPartial = [&]() {
    for (int64_t u = 0; u < unroll; ++u) {
      Value idx = stepIndex(u);
      Value end = arith::AddIOp::create(b, loc, idx, constIndex(b, loc, vw));
      Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end,
                                         numelValue);
      auto ifOp = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      e.emitAccess(idx, vw);
      if (numelFactor % vw == 0) // numel is a multiple of vw at every size
        continue;
      b.setInsertionPointToStart(ifOp.elseBlock());
      for (int64_t l = 0; l < vw; ++l) {
        Value li = arith::AddIOp::create(b, loc, idx, constIndex(b, loc, l));
        Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, li,
                                         numelValue);
        auto lane = scf::IfOp::create(b, loc, in, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(lane.thenBlock());
        e.emitAccess(li, 1);
      }
    }
  };

  if (staticNumel && fullBlocks == numBlocks) {
    emitFull();
    return success();
  }
  if (staticNumel && fullBlocks == 0) {
    emitPartial();
    return success();
  }
  Value isFull = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult, bid,
      staticNumel ? constIndex(b, loc, fullBlocks)
                  : arith::DivUIOp::create(b, loc, numelValue,
                                           constIndex(b, loc, perBlock))
                        .getResult());
  auto ifOp = scf::IfOp::create(b, loc, isFull, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitFull();
  b.setInsertionPointToStart(ifOp.elseBlock());
  emitPartial();
  return success();
}

LogicalResult mlir::hkg::lowerElementwise(ElementwiseOp op, KernelContext &kc) {
  if (failed(emitKernel(op, kc)))
    return failure();
  // The kernel computes its body once per element loaded: there the
  // activation math is on the throughput path (a GEMM's epilogue runs once
  // per output of a K-long dot product, and keeps the body as written).
  applyActivationRewrites(kc.func);
  return success();
}
