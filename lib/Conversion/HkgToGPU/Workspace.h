//===- Workspace.h - global workspaces and arrival counters -----*- C++ -*-===//
//
// The pieces of a combine step inside one kernel (docs/ABI.md, "Module
// globals"): workgroups publish partial results to a workspace that the
// kernel's module holds as a global, count their arrivals on a
// zero-initialized counter, and the last to arrive resets the counter and
// combines the partials. Split-K (MatmulSplitKWorkspace.cpp), the
// attention's kv_split (AttentionSplitKv.cpp) and the row ops' workspace
// split (ReductionsRowSplitWorkspace.cpp) are built from them.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_WORKSPACE_H
#define HKG_LIB_CONVERSION_HKGTOGPU_WORKSPACE_H

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::hkg {

/// A fence ordering this thread's global accesses with the device's other
/// workgroups (`syncscope("agent")` on AMD, `("device")` on NVIDIA): release
/// after a partial's stores, before its arrival is counted; acquire before
/// the last arrival reads the others' partials; acquire-release between
/// two atomics that must not pass each other (ReductionsRowSplitWorkspace.cpp).
void deviceFence(OpBuilder &b, Location loc, const TargetInfo &target,
                 LLVM::AtomicOrdering ordering);

/// A module-level global named `name` of `type` (global address space) in
/// the module of `kernel`; zero-initialized when `zero`, otherwise
/// uninitialized. Returns its memref.get_global at the builder's point.
Value getModuleGlobal(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                      StringRef name, MemRefType type, bool zero);

/// The globals of a combine step in the module of `kernel`:
/// `<kernel>_<tag>_partials`, f32 of `partialShape` (uninitialized: every
/// slot is written before it is read), and `<kernel>_<tag>_arrivals`, the
/// i32 arrival counters of `counterShape` (zero-initialized; the last
/// arrival resets its counter). docs/ABI.md, "Module globals".
struct CombineWorkspace {
  Value partials, arrivals;
};
CombineWorkspace getCombineWorkspace(OpBuilder &b, Location loc,
                                     gpu::GPUFuncOp kernel, StringRef tag,
                                     ArrayRef<int64_t> partialShape,
                                     ArrayRef<int64_t> counterShape);

/// Publishes this workgroup's partial (stored before the call) and counts
/// its arrival: a release fence, a barrier, then thread `tid` 0 adds 1 to
/// the i32 `counters[indices()]` (the indices built after the barrier);
/// the arrival that finds `arrivals` - 1 is the
/// last, resets the counter to 0 (for the next launch) and tells the
/// workgroup through `flagLds` (an i32 workgroup memref<1>). Returns an i1,
/// the same in every thread: whether this workgroup arrived last. The caller
/// fences with acquire (deviceFence) before it reads the partials.
Value arriveAndTestLast(OpBuilder &b, Location loc, const TargetInfo &target,
                        Value tid, Value counters,
                        function_ref<SmallVector<Value>()> indices,
                        int64_t arrivals, Value flagLds);

struct KernelContext;

/// Split-K through `<kernel>_split_k_partials` / `_arrivals`: the workgroup
/// of split `rank` (of `splitK`) of tile `tileIndex` (of `numTiles`)
/// publishes its accumulators `acc` (vectors of f32; thread tid's
/// accumulator i at (i x threads + tid) x its width, coalesced), counts its
/// arrival, and the last to arrive sums each accumulator's partials in rank
/// order (a rolled loop: unrolled, split_k x accumulators loads in flight
/// spill) and calls `store` with the sums, in that workgroup only.
void sumSplitKPartials(KernelContext &kc, Value tid, int64_t threads,
                       Value tileIndex, int64_t numTiles, Value rank,
                       int64_t splitK, ArrayRef<Value> acc,
                       function_ref<void(ArrayRef<Value>)> store);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_WORKSPACE_H
