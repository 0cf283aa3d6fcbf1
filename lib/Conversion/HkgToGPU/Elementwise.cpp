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
// i1 tensors are one byte per element (docs/ABI.md) and move one element per
// access. Only the last workgroup can be partial: it checks each vector and
// finishes the elements past the last full vector one at a time.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "MathRewrites.h"

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/ElementwiseSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
  SmallVector<Value> inputs; // flat views
  SmallVector<int64_t> inputSizes;
  SmallVector<BroadcastAccess> access;
  SmallVector<SmallVector<int64_t>> strides; // per result dim, Strided only
  SmallVector<int64_t> resultShape;
  Value output; // flat view
  int64_t numel;
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
  /// element, so i1 is read by scalar loads).
  Value loadContiguous(Value m, Value offset, int64_t width, bool once) {
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
    return loadVector(b, loc, m, offset, width, vectorAlignment(et, width),
                      once);
  }

  SmallVector<Value> load(Value idx, int64_t width,
                          std::optional<SmallVector<Value>> &index) {
    SmallVector<Value> vs;
    for (auto [i, in] : llvm::enumerate(inputs)) {
      Type et = cast<MemRefType>(in.getType()).getElementType();
      // Experimental `hkg.streaming_access` / `hkg.load_eviction`: full-size
      // inputs (read once) nontemporal; broadcast ones (a bias, reused) not.
      bool once = streaming != StreamingAccess::None && inputSizes[i] == numel;
      if (access[i] == BroadcastAccess::Flat) {
        vs.push_back(loadContiguous(in, idx, width, once));
        continue;
      }
      if (access[i] == BroadcastAccess::Trailing) {
        Value at = arith::RemUIOp::create(b, loc, idx,
                                          constIndex(b, loc, inputSizes[i]));
        vs.push_back(loadContiguous(in, at, width, once));
        continue;
      }
      if (!index)
        index = resultIndex(idx);
      Value offset = stridedOffset(i, *index);
      int64_t inner = strides[i].empty() ? 0 : strides[i].back();
      auto vt = VectorType::get({width}, et);
      if (width == 1 || inner == 1) {
        vs.push_back(loadContiguous(in, offset, width, once));
      } else if (inner == 0) {
        Value scalar = loadContiguous(in, offset, 1, once);
        vs.push_back(vector::BroadcastOp::create(
            b, loc, vt, vector::ExtractOp::create(b, loc, scalar, 0)));
      } else {
        SmallVector<Value> lanes;
        for (int64_t l = 0; l < width; ++l) {
          Value at = arith::AddIOp::create(b, loc, offset,
                                           constIndex(b, loc, l * inner));
          lanes.push_back(vector::ExtractOp::create(
              b, loc, loadContiguous(in, at, 1, once), 0));
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
  int64_t numel = op.getResult().getType().getNumElements();
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op.getBody(), captured);
  if (!captured.empty())
    return op.emitOpError("body uses a value defined outside it (")
           << captured.front()
           << "); hkg-lower-to-gpu expects a self-contained body";

  ElementwiseEmitter e{op,
                       b,
                       loc,
                       {},
                       {},
                       {},
                       {},
                       {},
                       Value(),
                       numel,
                       streamingAccessOf(op, kc.target)};
  e.resultShape = llvm::to_vector(op.getResult().getType().getShape());
  for (auto [i, in, map] : llvm::enumerate(op.getInputs(), op.getInputMaps())) {
    auto type = cast<ShapedType>(in.getType());
    int64_t n = type.getNumElements();
    e.inputSizes.push_back(n);
    e.inputs.push_back(reshapeView(b, loc, kc.args[i], {n}));
    SmallVector<int64_t> strides =
        operandStridesPerResultDim(map, type.getShape());
    // Dims of extent 1 contribute nothing whatever their stride.
    for (auto [j, extent] : llvm::enumerate(e.resultShape))
      if (extent == 1)
        strides[j] = 0;
    e.access.push_back(classifyBroadcastAccess(strides, e.resultShape));
    e.strides.push_back(std::move(strides));
  }
  e.output = reshapeView(b, loc, kc.args.back(), {numel});

  int64_t perStep = threads * vw;
  int64_t perBlock = perStep * unroll;
  int64_t numBlocks = llvm::divideCeil(numel, perBlock);
  int64_t fullBlocks = numel / perBlock;
  kc.grid = {numBlocks, 1, 1};
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
                                         constIndex(b, loc, numel));
      auto ifOp = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      e.emitAccess(idx, vw);
      if (numel % vw == 0)
        continue;
      b.setInsertionPointToStart(ifOp.elseBlock());
      for (int64_t l = 0; l < vw; ++l) {
        Value li = arith::AddIOp::create(b, loc, idx, constIndex(b, loc, l));
        Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, li,
                                         constIndex(b, loc, numel));
        auto lane = scf::IfOp::create(b, loc, in, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(lane.thenBlock());
        e.emitAccess(li, 1);
      }
    }
  };

  if (fullBlocks == numBlocks) {
    emitFull();
    return success();
  }
  if (fullBlocks == 0) {
    emitPartial();
    return success();
  }
  Value isFull = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, bid,
                                       constIndex(b, loc, fullBlocks));
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
