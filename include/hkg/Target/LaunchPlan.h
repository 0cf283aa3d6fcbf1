//===- LaunchPlan.h - a function's kernels as one launch plan ---*- C++ -*-===//
//
// After hkg-lower-to-gpu, a function of hkg ops is a host function that
// bufferizes its operands, allocates one buffer per kernel result, launches
// the kernels in order and returns tensors (with reshapes, which are views,
// in between). Its launch plan says the same in the manifest (docs/ABI.md,
// "Launch plan"): the function's inputs and outputs, the buffers the kernels
// write (intermediates placed in one workspace arena, sharing storage where
// their lifetimes do not overlap), the views, and each launch with the
// buffers it reads and writes. extractLaunchPlans reads it from the IR.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TARGET_LAUNCHPLAN_H
#define HKG_TARGET_LAUNCHPLAN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::hkg {

/// What a plan value is: the caller's memory (an input, or the storage of
/// an output), the arena's, or a view of another value's storage.
enum class PlanValueKind { Input, Output, Intermediate, View };

/// A named buffer or view of a plan.
struct PlanValue {
  std::string name;
  PlanValueKind kind = PlanValueKind::Input;
  std::string dtype;
  std::vector<int64_t> shape;
  /// Per dim, the plan size parameter it is, or -1 for the static extent in
  /// `shape` (empty when every dim is static).
  std::vector<int64_t> sizeParams;
  /// Input: the function argument it is.
  int64_t argument = -1;
  /// Storage (not a view) of static shape: its bytes; -1 when dynamic.
  int64_t bytes = -1;
  /// Intermediate of static shape: its offset in the arena; -1 when it has
  /// its own allocation (dynamic shape).
  int64_t offset = -1;
  /// Intermediate: the steps that write it first and read it last.
  int64_t firstStep = -1, lastStep = -1;
  /// View: the index (into LaunchPlan::values) of the storage it views.
  int64_t of = -1;

  bool isDynamic() const {
    return llvm::any_of(sizeParams, [](int64_t p) { return p >= 0; });
  }
};

struct PlanStep {
  /// The kernel (its manifest `name`).
  std::string kernel;
  /// Per kernel buffer argument, in order, the index of the plan value it
  /// is (into LaunchPlan::values).
  std::vector<int64_t> args;
  /// Per size parameter of the kernel, the plan size parameter it takes.
  std::vector<int64_t> sizes;
};

struct LaunchPlan {
  /// The function's symbol.
  std::string function;
  /// Non-empty when the function has no plan: why (host ops left to the
  /// caller, an op no plan can express).
  std::string noPlanReason;
  /// The plan's size parameters: (argument, dim) of an input it is read
  /// from, in the order the inputs' dynamic dims appear.
  std::vector<std::pair<int64_t, int64_t>> sizes;
  /// Inputs (argument order), storage and views, in that order of first
  /// appearance; steps and outputs refer to them by index.
  std::vector<PlanValue> values;
  /// Per function result, the value it is.
  std::vector<int64_t> outputs;
  std::vector<PlanStep> steps;
  /// Bytes of the workspace arena holding the static intermediates.
  int64_t arenaBytes = 0;

  /// The storage a value is (itself, or what it views).
  int64_t getStorage(int64_t value) const {
    return values[value].kind == PlanValueKind::View ? values[value].of : value;
  }
};

/// One buffer to place in an arena: its bytes and the steps (inclusive)
/// during which it must hold its contents.
struct ArenaRequest {
  int64_t bytes = 0;
  int64_t firstStep = 0;
  int64_t lastStep = 0;
};

struct ArenaAssignment {
  /// Per request, its offset (a multiple of the alignment).
  llvm::SmallVector<int64_t> offsets;
  /// The arena's size: the largest offset + bytes, aligned.
  int64_t totalBytes = 0;
};

/// Greedy first-fit by size: the requests, largest first (ties by first
/// step, then order), each take the lowest aligned offset at which they
/// overlap no placed request whose steps overlap theirs. Two buffers live
/// at the same step never share bytes: in particular a kernel's output
/// never overlaps its inputs.
ArenaAssignment assignArenaOffsets(llvm::ArrayRef<ArenaRequest> requests,
                                   int64_t alignment = 256);

/// The launch plans of the functions of `module` (lowered by
/// hkg-lower-to-gpu) that launch kernels, in module order. A function named
/// in `hostOpFunctions` (ops left to the caller with --allow-host-ops) gets
/// no plan, saying so; so does one whose host IR a plan cannot express.
std::vector<LaunchPlan>
extractLaunchPlans(ModuleOp module, const llvm::StringSet<> &hostOpFunctions);

/// Writes `plan` as its manifest object (docs/ABI.md, "Launch plan").
void writeLaunchPlan(llvm::json::OStream &json, const LaunchPlan &plan);

} // namespace mlir::hkg

#endif // HKG_TARGET_LAUNCHPLAN_H
