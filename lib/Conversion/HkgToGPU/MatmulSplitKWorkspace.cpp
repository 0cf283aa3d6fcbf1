//===- MatmulSplitKWorkspace.cpp - split-K through a global workspace -----===//
//
// split_k_reduce = workspace (every target): the split_k workgroups of an
// output tile each sum 1/split_k of K; their f32 partial sums meet in a
// workspace that the kernel's module holds as a global (no extra kernel
// argument, no second kernel):
//
//   level 0: every workgroup stores its partial (each thread its own
//            accumulators, the same thread -> element map in every
//            workgroup of the tile), fences (release, device scope), and
//            one thread adds 1 to the counter of its group of 16 ranks;
//            the workgroup that sees 15 (the group's last to arrive)
//            resets the counter to 0, fences (acquire) and adds the
//            group's 16 partials in rank order;
//   level l: that sum is stored as the group's partial one level up, and so
//            on until one group is left, whose last workgroup stores the
//            result through the epilogue.
//
// Every sum is taken in rank order whichever workgroup arrives last, so the
// result is deterministic. The counters start at 0 (a zero-initialized
// global) and are left at 0, so each launch finds them as the first did;
// two launches of one kernel must therefore not run at the same time (on
// two streams: docs/ABI.md). The workspace holds split_k + split_k / 16 +
// ... partials of tile_m x tile_n floats per output tile.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "MatmulTilePipeline.h"
#include "Workspace.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

void TilePipeline::reduceThroughWorkspaceAndStore(
    ArrayRef<Value> acc, Value rank,
    function_ref<void(ArrayRef<Value>)> store) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  constexpr int64_t group = MatmulSchedule::kWorkspaceGroup;

  // Thread tid's accumulator vector i (n_i floats) lives at offset_i x
  // threads + tid x n_i of a partial: coalesced vector accesses.
  SmallVector<int64_t> offsets;
  int64_t perThread = 0;
  for (Value v : acc) {
    offsets.push_back(perThread);
    perThread += cast<VectorType>(v.getType()).getNumElements();
  }
  int64_t slot = perThread * threads;

  // Levels: `count` partials in groups of `size`; slots and counters of the
  // levels one after the other.
  struct Level {
    int64_t count, size, firstSlot, firstCounter;
  };
  SmallVector<Level> levels;
  int64_t slots = 0, counters = 0;
  for (int64_t count = splitK; count > 1;
       count = llvm::divideCeil(count, group)) {
    int64_t size = std::min(count, group);
    levels.push_back({count, size, slots, counters});
    slots += count;
    counters += llvm::divideCeil(count, size);
  }
  assert(slots == MatmulSchedule::workspaceSlots(splitK) && "slot count");

  CombineWorkspace workspace = getCombineWorkspace(
      b, loc, kernel, "split_k", {numTiles, slots, slot}, {numTiles, counters});
  Value ws = workspace.partials, arrivals = workspace.arrivals;
  // Thread 0's finding, for the whole workgroup.
  auto lastType = MemRefType::get(
      {1}, i32, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  Value isLastLds = kernel.addWorkgroupAttribution(lastType, loc);

  auto elemIndex = [&](int64_t i, int64_t len) {
    return add(mul(tid, len), offsets[i] * threads);
  };
  auto emitLevel = [&](auto &self, unsigned l, Value index,
                       SmallVector<Value> partial) -> void {
    if (l == levels.size()) {
      store(partial);
      return;
    }
    const Level &lv = levels[l];
    Value slotIdx = add(index, lv.firstSlot);
    for (auto [i, v] : llvm::enumerate(partial)) {
      auto vt = cast<VectorType>(v.getType());
      vector::StoreOp::create(
          b, loc, v, ws,
          ValueRange{tileIndex, slotIdx, elemIndex(i, vt.getNumElements())},
          /*nontemporal=*/false, align(vt.getNumElements(), f32));
    }
    Value groupIdx;
    Value isLast = arriveAndTestLast(
        b, loc, target, tid, arrivals,
        [&]() -> SmallVector<Value> {
          groupIdx = div(index, lv.size);
          return {tileIndex, add(groupIdx, lv.firstCounter)};
        },
        lv.size, isLastLds);
    emitIfThen(b, loc, isLast, [&] {
      deviceFence(b, loc, target, LLVM::AtomicOrdering::acquire);
      // The group's partials in rank order: every load first, then the sums.
      Value firstSlot = add(mul(groupIdx, lv.size), lv.firstSlot);
      SmallVector<SmallVector<Value>> loaded(lv.size);
      for (int64_t r = 0; r < lv.size; ++r)
        for (auto [i, v] : llvm::enumerate(partial)) {
          auto vt = cast<VectorType>(v.getType());
          loaded[r].push_back(vector::LoadOp::create(
              b, loc, vt, ws,
              ValueRange{tileIndex, add(firstSlot, r),
                         elemIndex(i, vt.getNumElements())},
              /*nontemporal=*/false, align(vt.getNumElements(), f32)));
        }
      SmallVector<Value> sums = loaded[0];
      for (int64_t r = 1; r < lv.size; ++r)
        for (auto [i, sum] : llvm::enumerate(sums))
          sum = arith::AddFOp::create(b, loc, sum, loaded[r][i]);
      self(self, l + 1, groupIdx, std::move(sums));
    });
  };
  emitLevel(emitLevel, 0, rank, SmallVector<Value>(acc));
}
