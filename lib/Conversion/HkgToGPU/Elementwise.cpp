//===- Elementwise.cpp - hkg.elementwise to a streaming kernel ------------===//
//
// The output is streamed as a flat array. A workgroup of `threads` threads
// handles `threads * vector_width * unroll` consecutive elements: in each of
// `unroll` steps, thread t moves the `vector_width` elements starting at
// step * threads * vector_width + t * vector_width (coalesced 16-byte
// accesses), and every load of the workgroup's steps is issued before the
// first compute. Broadcast inputs (a suffix of the output shape) are read at
// the flat index modulo their size; `vector_width` divides that size, so
// their vectors stay contiguous and aligned. Only the last workgroup can be
// partial: it checks each vector and finishes the elements past the last
// full vector one at a time.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "MathRewrites.h"

#include "hkg/Dialect/Hkg/IR/Schedules/ElementwiseSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

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
  Value output; // flat view
  int64_t numel;
  StreamingAccess streaming = StreamingAccess::None;

  /// Flat index of input `i` for output index `idx`.
  Value inputIndex(unsigned i, Value idx) {
    if (inputSizes[i] == numel)
      return idx;
    return arith::RemUIOp::create(b, loc, idx,
                                  constIndex(b, loc, inputSizes[i]));
  }

  SmallVector<Value> load(Value idx, int64_t width) {
    SmallVector<Value> vs;
    for (auto [i, in] : llvm::enumerate(inputs)) {
      Type et = cast<MemRefType>(in.getType()).getElementType();
      // Experimental `hkg.streaming_access` / `hkg.load_eviction`: full-size
      // inputs (read once) nontemporal; broadcast ones (a bias, reused) not.
      bool once = streaming != StreamingAccess::None && inputSizes[i] == numel;
      vs.push_back(loadVector(b, loc, in, inputIndex(i, idx), width,
                              vectorAlignment(et, width), once));
    }
    return vs;
  }

  /// Applies the scalar body to each lane of the loaded vectors.
  Value compute(ArrayRef<Value> loaded, int64_t width) {
    Block &body = op.getBody().front();
    SmallVector<Value> lanes;
    for (int64_t l = 0; l < width; ++l) {
      IRMapping map;
      for (auto [arg, v] : llvm::zip(body.getArguments(), loaded))
        map.map(arg, vector::ExtractOp::create(b, loc, v, l));
      for (Operation &inner : body.without_terminator())
        b.clone(inner, map);
      lanes.push_back(map.lookup(body.getTerminator()->getOperand(0)));
    }
    auto vt = VectorType::get({width}, lanes.front().getType());
    return vector::FromElementsOp::create(b, loc, vt, lanes);
  }

  void store(Value v, Value idx, int64_t width) {
    Type et = cast<MemRefType>(output.getType()).getElementType();
    storeVector(b, loc, v, output, idx, vectorAlignment(et, width),
                streaming == StreamingAccess::All);
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

  ElementwiseEmitter e{op, b, loc, {}, {}, Value(), numel,
                       streamingAccessOf(op, kc.target)};
  for (auto [i, in] : llvm::enumerate(op.getInputs())) {
    int64_t n = cast<ShapedType>(in.getType()).getNumElements();
    e.inputSizes.push_back(n);
    e.inputs.push_back(reshapeView(b, loc, kc.args[i], {n}));
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
    for (int64_t u = 0; u < unroll; ++u) {
      idx.push_back(stepIndex(u));
      loaded.push_back(e.load(idx.back(), vw));
    }
    for (int64_t u = 0; u < unroll; ++u)
      e.store(e.compute(loaded[u], vw), idx[u], vw);
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
      e.store(e.compute(e.load(idx, vw), vw), idx, vw);
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
        e.store(e.compute(e.load(li, 1), 1), li, 1);
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
  RewritePatternSet patterns(op.getContext());
  populateActivationRewritePatterns(patterns);
  walkAndApplyPatterns(kc.func, std::move(patterns));
  return success();
}
