//===- ReductionsRowSplitWorkspace.cpp - split rows through global memory -===//
//
// row_split = S with row_split_reduce = workspace (every target): the S
// workgroups sharing a row (each holding its slice, in registers where the
// schedule caches it) exchange each row reduction's partial statistics
// through global memory that the kernel's module holds (no extra kernel
// argument, no second kernel), so that every one of them normalizes and
// writes its own slice with the row's statistics and the row is read once.
//
// Tickets: a workgroup's rank and row group come from a ticket, not its
// block id: thread 0 takes the next value of a module counter (one atomic
// add; the workgroup drawing the grid's last ticket puts the counter back
// to 0 for the next launch), in the order the workgroups start. The
// workgroups of a row group hold S consecutive tickets, so the first of
// them to wait can only wait for workgroups that have already started or
// are next in line: with S workgroups resident at once the kernel always
// makes progress (the schedule verifier bounds S by the chip's compute
// units, each of which keeps at least one workgroup).
//
// Each reduction of the row (softmax's online (max, sum), layernorm's mean
// and variance, ...) is a round with its own partials and counters:
//  - lane 0 of each row stores the workgroup's partial at [group][rank];
//    every thread fences (release, device scope); a barrier;
//  - thread 0 reads the round's generation of its group, fences, adds 1 to
//    the group's arrival counter; the last of the S to arrive resets the
//    counter to 0 and bumps the generation (after an acquire-release
//    fence), the others spin on relaxed loads until the generation moves
//    (a sense-reversing barrier: nothing is left to reset for the next
//    launch);
//  - a barrier; every thread fences (acquire) and folds the S partials of
//    its row in rank order (8 loads at a time), so the result is the same
//    whichever workgroup arrives last, and every workgroup of the row computes
//    the same one.
// As with split-K's workspace, two launches of one kernel must not run at
// the same time (docs/ABI.md).
//
//===----------------------------------------------------------------------===//

#include "ReductionsRowEmitter.h"
#include "Workspace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::rowop;

/// A global i32 counter array of the kernel's module, zero at load.
static Value counters(KernelContext &kc, StringRef suffix,
                      ArrayRef<int64_t> shape) {
  MLIRContext *ctx = kc.b.getContext();
  auto global = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);
  return getModuleGlobal(kc.b, kc.loc, kc.func,
                         (kc.func.getName() + suffix).str(),
                         MemRefType::get(shape, kc.b.getI32Type(),
                                         MemRefLayoutAttrInterface(), global),
                         /*zero=*/true);
}

/// The current value of `counter[idx]`, read with an atomic add of 0 (an
/// atomic read the memref dialect can express).
static Value atomicRead(OpBuilder &b, Location loc, Value counter,
                        ValueRange idx) {
  return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                     constI32(b, loc, 0), counter, idx);
}

/// `counter[idx]` (a 1-D i32 global memref) read with a relaxed atomic load
/// at device scope: a spin that polls it leaves the L2's atomic units to the
/// arrivals (an atomic add of 0 is a read-modify-write each time).
static Value relaxedLoad(OpBuilder &b, Location loc, const TargetInfo &target,
                         Value counter, Value idx) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  Value base = arith::IndexCastOp::create(
      b, loc, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, counter));
  auto global = LLVM::LLVMPointerType::get(ctx, 1);
  Value ptr = LLVM::IntToPtrOp::create(b, loc, global, base);
  Value at = LLVM::GEPOp::create(
      b, loc, global, b.getI32Type(), ptr,
      ValueRange{arith::IndexCastOp::create(b, loc, i64, idx)});
  return LLVM::LoadOp::create(b, loc, b.getI32Type(), at, /*alignment=*/4,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/false, /*isInvariantGroup=*/false,
                              LLVM::AtomicOrdering::monotonic,
                              target.isAMD() ? "agent" : "device");
}

/// Atomically adds 1 to `counter[idx]`; returns the value before.
static Value atomicIncrement(OpBuilder &b, Location loc, Value counter,
                             ValueRange idx) {
  return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                     constI32(b, loc, 1), counter, idx);
}

Value RowEmitter::takeTicket() {
  int64_t gridSize = kc.grid[0];
  Value tickets = counters(kc, "_row_split_ticket", {1});
  Value slot = kc.addLds({1}, b.getI32Type(), /*align=*/4);
  Value c0 = constIndex(b, loc, 0);
  Value isFirstThread =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, c0);
  emitIfThen(b, loc, isFirstThread, [&] {
    // One atomic add per workgroup (a compare-and-swap loop that wrapped the
    // counter itself retried under contention and serialized the launch's
    // starts). The workgroup that draws the grid's last ticket puts the
    // counter back to 0: every other ticket has been drawn by then, and the
    // next launch starts after this one ends.
    Value ticket = atomicIncrement(b, loc, tickets, ValueRange{c0});
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ticket,
                                       constI32(b, loc, gridSize - 1));
    emitIfThen(b, loc, last, [&] {
      memref::StoreOp::create(b, loc, constI32(b, loc, 0), tickets,
                              ValueRange{c0});
    });
    memref::StoreOp::create(b, loc, ticket, slot, ValueRange{c0});
  });
  gpu::BarrierOp::create(b, loc);
  Value ticket = memref::LoadOp::create(b, loc, slot, ValueRange{c0});
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), ticket);
}

SmallVector<Value> RowEmitter::workspaceCombine(ValueRange values,
                                                const Combiner &combine) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  int round = workspaceRounds++;
  int64_t groups = llvm::divideCeil(rows, rpb);
  auto vecType = dyn_cast<VectorType>(values.front().getType());
  int64_t w = vecType ? vecType.getNumElements() : 1;
  Type word = vecType ? Type(VectorType::get({w}, f32)) : f32;
  int64_t n = static_cast<int64_t>(values.size());
  std::string suffix = "_row_split_" + std::to_string(round);

  auto global = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);
  Value partials = getModuleGlobal(
      b, loc, kc.func, (kc.func.getName() + suffix + "_partials").str(),
      MemRefType::get({groups, split, n, rpb * w}, f32,
                      MemRefLayoutAttrInterface(), global),
      /*zero=*/false);
  Value arrivals = counters(kc, suffix + "_arrivals", {groups});
  Value generations = counters(kc, suffix + "_generations", {groups});
  Value rowGroup =
      arith::DivUIOp::create(b, loc, groupFirstRow, constIndex(b, loc, rpb));
  Value at = arith::MulIOp::create(b, loc, rowInBlock, constIndex(b, loc, w));
  auto index = [&](Value r, int64_t j) {
    return SmallVector<Value>{rowGroup, r, constIndex(b, loc, j), at};
  };

  // The workgroup's partial of each row, from the row's lane 0.
  Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        constIndex(b, loc, 0));
  emitIfThen(b, loc, isLane0, [&] {
    for (auto [j, v] : llvm::enumerate(values)) {
      Value x = v.getType() == word
                    ? v
                    : arith::BitcastOp::create(b, loc, word, v).getResult();
      if (vecType)
        vector::StoreOp::create(b, loc, x, partials, index(rank, j));
      else
        memref::StoreOp::create(b, loc, x, partials, index(rank, j));
    }
  });
  deviceFence(b, loc, kc.target, LLVM::AtomicOrdering::release);
  gpu::BarrierOp::create(b, loc);

  // Thread 0 arrives and waits for the group's other workgroups.
  Value isFirstThread = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              tid, constIndex(b, loc, 0));
  emitIfThen(b, loc, isFirstThread, [&] {
    Value generation = atomicRead(b, loc, generations, rowGroup);
    // The generation is read before the arrival is counted (relaxed atomics
    // on two addresses may otherwise pass each other, and a generation read
    // after the last arrival would never move).
    deviceFence(b, loc, kc.target, LLVM::AtomicOrdering::acq_rel);
    Value before = atomicIncrement(b, loc, arrivals, rowGroup);
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, before,
                                       constI32(b, loc, split - 1));
    auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifLast.thenBlock());
      memref::StoreOp::create(b, loc, constI32(b, loc, 0), arrivals,
                              ValueRange{rowGroup});
      deviceFence(b, loc, kc.target, LLVM::AtomicOrdering::acq_rel);
      atomicIncrement(b, loc, generations, rowGroup);
      b.setInsertionPointToStart(ifLast.elseBlock());
      auto spin = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
      Block *before = b.createBlock(&spin.getBefore());
      b.setInsertionPointToStart(before);
      Value now = relaxedLoad(b, loc, kc.target, generations, rowGroup);
      Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, now,
                                         generation);
      scf::ConditionOp::create(b, loc, same, ValueRange{});
      Block *after = b.createBlock(&spin.getAfter());
      b.setInsertionPointToStart(after);
      scf::YieldOp::create(b, loc);
      // The spin's loads are relaxed: the thread that saw the generation
      // move acquires the last arrival's partials before the barrier hands
      // them to the workgroup.
      b.setInsertionPointAfter(spin);
      deviceFence(b, loc, kc.target, LLVM::AtomicOrdering::acquire);
    }
  });
  gpu::BarrierOp::create(b, loc);
  deviceFence(b, loc, kc.target, LLVM::AtomicOrdering::acquire);

  // The row's S partials folded in rank order, loaded kLoadBatch ranks at
  // a time (all 64 of a row's partials loaded at once held 128 registers
  // of softmax's (max, sum) pairs: spills at 1024 threads).
  constexpr int64_t kLoadBatch = 8;
  SmallVector<Value> acc;
  for (int64_t first = 0; first < split; first += kLoadBatch) {
    int64_t last = std::min(split, first + kLoadBatch);
    SmallVector<SmallVector<Value>> loaded;
    for (int64_t r = first; r < last; ++r) {
      loaded.emplace_back();
      for (auto [j, v] : llvm::enumerate(values)) {
        Value x;
        if (vecType)
          x = vector::LoadOp::create(b, loc, cast<VectorType>(word), partials,
                                     index(constIndex(b, loc, r), j));
        else
          x = memref::LoadOp::create(b, loc, partials,
                                     index(constIndex(b, loc, r), j));
        loaded.back().push_back(
            v.getType() == word
                ? x
                : arith::BitcastOp::create(b, loc, v.getType(), x).getResult());
      }
    }
    for (auto &p : loaded)
      acc = acc.empty() ? p : combine(b, loc, acc, p);
  }
  return acc;
}
