//===- LaunchPlan.cpp - a function's kernels as one launch plan -----------===//
//
// Reads the host function hkg-lower-to-gpu leaves behind, op by op:
//   bufferization.to_buffer / to_tensor, memref.reinterpret_cast (the
//     kernel parameter's view of a buffer)    the same plan value
//   memref.alloc                              a new buffer (an intermediate,
//                                             or an output's storage once
//                                             the return names it)
//   tensor.expand_shape / collapse_shape      a view of the same storage
//   gpu.launch_func                           a step
//   func.return                               the outputs
// Scalar ops (the grid's and sizes' index arithmetic, tensor.dim) are what
// the manifest's rules already say. Any other op means the plan cannot
// express the function: it gets none, with the op named.
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/LaunchPlan.h"
#include "hkg/Target/Bundle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::hkg;

ArenaAssignment mlir::hkg::assignArenaOffsets(ArrayRef<ArenaRequest> requests,
                                              int64_t alignment) {
  ArenaAssignment result;
  result.offsets.assign(requests.size(), 0);
  SmallVector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    if (requests[a].bytes != requests[b].bytes)
      return requests[a].bytes > requests[b].bytes;
    return requests[a].firstStep < requests[b].firstStep;
  });
  auto liveTogether = [&](size_t a, size_t b) {
    return requests[a].firstStep <= requests[b].lastStep &&
           requests[b].firstStep <= requests[a].lastStep;
  };
  SmallVector<size_t> placed;
  for (size_t r : order) {
    // The placed requests live with r, by offset: r takes the first gap
    // (from 0) that holds it.
    SmallVector<size_t> conflicts;
    for (size_t p : placed)
      if (liveTogether(p, r))
        conflicts.push_back(p);
    llvm::sort(conflicts, [&](size_t a, size_t b) {
      return result.offsets[a] < result.offsets[b];
    });
    int64_t offset = 0;
    for (size_t p : conflicts) {
      if (offset + requests[r].bytes <= result.offsets[p])
        break;
      offset = std::max<int64_t>(
          offset,
          llvm::alignTo(result.offsets[p] + requests[p].bytes, alignment));
    }
    result.offsets[r] = offset;
    result.totalBytes =
        std::max<int64_t>(result.totalBytes,
                          llvm::alignTo(offset + requests[r].bytes, alignment));
    placed.push_back(r);
  }
  return result;
}

/// Bytes of one element in the kernel ABI (an i1 is one byte).
static int64_t getElementBytes(Type type) {
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

namespace {
/// Builds one function's plan; `fail` records why there is none.
class PlanBuilder {
public:
  explicit PlanBuilder(func::FuncOp func) : func(func) {
    plan.function = func.getSymName().str();
  }

  LaunchPlan build();

private:
  /// Adds a value of `type` (a ranked tensor or memref) of `kind`; with
  /// `dimSizes` (one per dim) the plan size of each dynamic dim.
  int64_t addValue(PlanValueKind kind, ShapedType type,
                   ArrayRef<int64_t> dimSizes = {});
  /// The plan size parameter `size` (an index or i64 value) is, or -1.
  int64_t getSizeParam(Value size);
  LogicalResult visit(Operation *op);
  LogicalResult fail(const Twine &reason) {
    if (plan.noPlanReason.empty())
      plan.noPlanReason = reason.str();
    return failure();
  }
  LogicalResult failOn(Operation *op, const Twine &why) {
    std::string loc;
    llvm::raw_string_ostream os(loc);
    if (auto fl = dyn_cast<FileLineColLoc>(op->getLoc()))
      os << " at " << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
         << fl.getColumn();
    return fail("'" + op->getName().getStringRef() + "'" + loc + " " + why);
  }
  void finish();

  func::FuncOp func;
  LaunchPlan plan;
  /// Tensors and memrefs of the host function to the plan value they are.
  DenseMap<Value, int64_t> valueOf;
};
} // namespace

int64_t PlanBuilder::addValue(PlanValueKind kind, ShapedType type,
                              ArrayRef<int64_t> dimSizes) {
  PlanValue v;
  v.kind = kind;
  v.dtype = getDTypeName(type.getElementType());
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  if (!type.hasStaticShape())
    v.sizeParams.assign(dimSizes.begin(), dimSizes.end());
  if (kind != PlanValueKind::View && type.hasStaticShape())
    v.bytes = type.getNumElements() * getElementBytes(type.getElementType());
  plan.values.push_back(std::move(v));
  return plan.values.size() - 1;
}

int64_t PlanBuilder::getSizeParam(Value size) {
  if (auto cast = size.getDefiningOp<arith::IndexCastOp>())
    return getSizeParam(cast.getIn());
  auto dim = size.getDefiningOp<tensor::DimOp>();
  if (!dim)
    return -1;
  std::optional<int64_t> index = dim.getConstantIndex();
  auto it = valueOf.find(dim.getSource());
  if (!index || it == valueOf.end())
    return -1;
  const PlanValue &v = plan.values[it->second];
  if (v.sizeParams.empty())
    return -1;
  return v.sizeParams[*index];
}

LogicalResult PlanBuilder::visit(Operation *op) {
  // The same plan value under another type.
  auto alias = [&](Value from, Value to) -> LogicalResult {
    auto it = valueOf.find(from);
    if (it == valueOf.end())
      return failOn(op, "reads a value the plan does not know");
    valueOf[to] = it->second;
    return success();
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](bufferization::ToBufferOp o) {
        return alias(o.getTensor(), o.getResult());
      })
      .Case([&](bufferization::ToTensorOp o) {
        return alias(o.getBuffer(), o.getResult());
      })
      .Case([&](memref::ReinterpretCastOp o) {
        // The kernel parameter's (one-slice or reshaped) view of a buffer
        // at offset 0: the kernel reads the buffer itself.
        if (!o.getStaticOffsets().empty() && o.getStaticOffsets()[0] != 0)
          return failOn(o, "views a buffer at an offset");
        return alias(o.getSource(), o.getResult());
      })
      .Case([&](memref::AllocOp o) -> LogicalResult {
        SmallVector<int64_t> dimSizes;
        unsigned next = 0;
        for (int64_t d : o.getType().getShape()) {
          if (!ShapedType::isDynamic(d)) {
            dimSizes.push_back(-1);
            continue;
          }
          int64_t param = getSizeParam(o.getDynamicSizes()[next++]);
          if (param < 0)
            return failOn(o, "has a dynamic size that is no input's dim");
          dimSizes.push_back(param);
        }
        valueOf[o.getResult()] =
            addValue(PlanValueKind::Intermediate, o.getType(), dimSizes);
        return success();
      })
      .Case<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
          [&](auto o) -> LogicalResult {
            auto it = valueOf.find(o.getSrc());
            if (it == valueOf.end())
              return failOn(o, "reads a value the plan does not know");
            if (!o.getResultType().hasStaticShape())
              return failOn(o, "has a dynamic shape: reshapes of dynamic "
                               "tensors are not in launch plans yet");
            int64_t storage = plan.getStorage(it->second);
            int64_t view = addValue(PlanValueKind::View, o.getResultType());
            plan.values[view].of = storage;
            valueOf[o.getResult()] = view;
            return success();
          })
      .Case([&](gpu::LaunchFuncOp o) -> LogicalResult {
        PlanStep step;
        step.kernel = o.getKernelModuleName().str();
        for (Value arg : o.getKernelOperands()) {
          if (isa<MemRefType>(arg.getType())) {
            auto it = valueOf.find(arg);
            if (it == valueOf.end())
              return failOn(o, "passes a buffer the plan does not know");
            step.args.push_back(it->second);
            continue;
          }
          int64_t param = getSizeParam(arg);
          if (param < 0)
            return failOn(o, "passes a size that is no input's dim");
          step.sizes.push_back(param);
        }
        plan.steps.push_back(std::move(step));
        return success();
      })
      .Case([&](func::ReturnOp o) -> LogicalResult {
        for (Value v : o.getOperands()) {
          auto it = valueOf.find(v);
          if (it == valueOf.end())
            return failOn(o, "returns a value the plan does not know");
          plan.outputs.push_back(it->second);
        }
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        // Scalars (index arithmetic of grids and sizes, tensor.dim) are no
        // buffer.
        auto isShaped = [](Type t) { return isa<ShapedType>(t); };
        if (isa<tensor::DimOp>(other) ||
            (llvm::none_of(other->getOperandTypes(), isShaped) &&
             llvm::none_of(other->getResultTypes(), isShaped) &&
             other->getNumRegions() == 0))
          return success();
        return failOn(other, "is no kernel launch, buffer or view: a plan "
                             "cannot express it");
      });
}

/// Names the values, makes output storage of the buffers the function
/// returns, and places the other intermediates in the arena.
void PlanBuilder::finish() {
  for (int64_t out : plan.outputs) {
    PlanValue &storage = plan.values[plan.getStorage(out)];
    if (storage.kind == PlanValueKind::Intermediate)
      storage.kind = PlanValueKind::Output;
  }
  // Lifetimes: from the step that writes a buffer to the last that reads it
  // (or a view of it).
  for (auto [i, step] : llvm::enumerate(plan.steps))
    for (int64_t arg : step.args) {
      PlanValue &storage = plan.values[plan.getStorage(arg)];
      if (storage.firstStep < 0)
        storage.firstStep = i;
      storage.lastStep = i;
    }
  SmallVector<ArenaRequest> requests;
  SmallVector<PlanValue *> placed;
  for (PlanValue &v : plan.values)
    if (v.kind == PlanValueKind::Intermediate && !v.isDynamic()) {
      requests.push_back({v.bytes, v.firstStep, v.lastStep});
      placed.push_back(&v);
    }
  ArenaAssignment arena = assignArenaOffsets(requests);
  for (auto [v, offset] : llvm::zip(placed, arena.offsets))
    v->offset = offset;
  plan.arenaBytes = arena.totalBytes;

  int64_t counts[4] = {0, 0, 0, 0};
  static const char *prefixes[4] = {"arg", "out", "tmp", "view"};
  for (PlanValue &v : plan.values) {
    unsigned kind = static_cast<unsigned>(v.kind);
    if (v.kind != PlanValueKind::Output)
      v.name = prefixes[kind] + std::to_string(counts[kind]++);
  }
  // Output storage is named after the first output that returns it.
  for (auto [i, out] : llvm::enumerate(plan.outputs)) {
    PlanValue &storage = plan.values[plan.getStorage(out)];
    if (storage.kind == PlanValueKind::Output && storage.name.empty())
      storage.name = "out" + std::to_string(i);
  }
}

LaunchPlan PlanBuilder::build() {
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type) {
      (void)fail(llvm::formatv("argument #{0} is {1}, not a ranked tensor",
                               arg.getArgNumber(), arg.getType())
                     .str());
      return plan;
    }
    SmallVector<int64_t> dimSizes;
    for (auto [d, extent] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(extent)) {
        dimSizes.push_back(-1);
        continue;
      }
      dimSizes.push_back(plan.sizes.size());
      plan.sizes.emplace_back(arg.getArgNumber(), d);
    }
    int64_t v = addValue(PlanValueKind::Input, type, dimSizes);
    plan.values[v].argument = arg.getArgNumber();
    valueOf[arg] = v;
  }
  if (!func.getBody().hasOneBlock()) {
    (void)fail("the function has several blocks");
    return plan;
  }
  for (Operation &op : func.getBody().front())
    if (failed(visit(&op)))
      return plan;
  finish();
  return plan;
}

std::vector<LaunchPlan>
mlir::hkg::extractLaunchPlans(ModuleOp module,
                              const llvm::StringSet<> &hostOpFunctions) {
  std::vector<LaunchPlan> plans;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    bool launches =
        func.walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (!launches)
      continue;
    if (hostOpFunctions.contains(func.getSymName())) {
      LaunchPlan plan;
      plan.function = func.getSymName().str();
      plan.noPlanReason = "it has ops left to the caller (host_ops): a plan "
                          "step cannot run them";
      plans.push_back(std::move(plan));
      continue;
    }
    plans.push_back(PlanBuilder(func).build());
  }
  return plans;
}

//===----------------------------------------------------------------------===//
// The manifest object
//===----------------------------------------------------------------------===//

/// `"dtype"` and `"shape"` (on one line; an entry `{"size": i}` is plan size
/// parameter i).
static void writeShape(llvm::json::OStream &json, const PlanValue &v) {
  json.attribute("dtype", v.dtype);
  std::string shape = "[";
  for (auto [d, extent] : llvm::enumerate(v.shape)) {
    int64_t param = v.sizeParams.empty() ? -1 : v.sizeParams[d];
    shape += d ? ", " : "";
    shape += param < 0 ? std::to_string(extent)
                       : "{\"size\": " + std::to_string(param) + "}";
  }
  json.attributeBegin("shape");
  json.rawValue(shape + "]");
  json.attributeEnd();
}

/// `[a, b]` on one line (json::OStream would break it over lines).
static void writeInlinePair(llvm::json::OStream &json, llvm::StringRef key,
                            int64_t a, int64_t b) {
  json.attributeBegin(key);
  json.rawValue(llvm::formatv("[{0}, {1}]", a, b).str());
  json.attributeEnd();
}

void mlir::hkg::writeLaunchPlan(llvm::json::OStream &json,
                                const LaunchPlan &plan) {
  json.object([&] {
    json.attribute("function", plan.function);
    if (!plan.noPlanReason.empty()) {
      json.attribute("no_plan", plan.noPlanReason);
      return;
    }
    if (!plan.sizes.empty())
      json.attributeArray("sizes", [&] {
        for (auto [arg, dim] : plan.sizes)
          json.object([&, arg = arg, dim = dim] {
            json.attribute("arg", arg);
            json.attribute("dim", dim);
          });
      });
    auto ofKind = [&](PlanValueKind kind) {
      return llvm::make_filter_range(
          plan.values, [=](const PlanValue &v) { return v.kind == kind; });
    };
    json.attributeArray("inputs", [&] {
      for (const PlanValue &v : ofKind(PlanValueKind::Input))
        json.object([&] {
          json.attribute("name", v.name);
          writeShape(json, v);
        });
    });
    json.attributeArray("outputs", [&] {
      for (int64_t out : plan.outputs)
        json.object([&] {
          const PlanValue &v = plan.values[out];
          json.attribute("value", v.name);
          json.attribute("storage", plan.values[plan.getStorage(out)].name);
          writeShape(json, v);
        });
    });
    json.attributeArray("buffers", [&] {
      for (const PlanValue &v : plan.values) {
        if (v.kind != PlanValueKind::Output &&
            v.kind != PlanValueKind::Intermediate)
          continue;
        json.object([&] {
          json.attribute("name", v.name);
          json.attribute("kind", v.kind == PlanValueKind::Output
                                     ? "output"
                                     : "intermediate");
          writeShape(json, v);
          if (v.bytes >= 0)
            json.attribute("bytes", v.bytes);
          if (v.offset >= 0)
            json.attribute("offset", v.offset);
          if (v.kind == PlanValueKind::Intermediate)
            writeInlinePair(json, "live", v.firstStep, v.lastStep);
        });
      }
    });
    json.attributeArray("views", [&] {
      for (const PlanValue &v : ofKind(PlanValueKind::View))
        json.object([&] {
          json.attribute("name", v.name);
          json.attribute("of", plan.values[v.of].name);
          writeShape(json, v);
        });
    });
    json.attribute("arena_bytes", plan.arenaBytes);
    json.attributeArray("steps", [&] {
      for (const PlanStep &step : plan.steps)
        json.object([&] {
          json.attribute("kernel", step.kernel);
          json.attributeBegin("args");
          std::string args = "[";
          for (auto [i, a] : llvm::enumerate(step.args))
            args += (i ? ", \"" : "\"") + plan.values[a].name + "\"";
          json.rawValue(args + "]");
          json.attributeEnd();
          if (step.sizes.empty())
            return;
          json.attributeBegin("sizes");
          std::string sizes = "[";
          for (auto [i, s] : llvm::enumerate(step.sizes))
            sizes += (i ? ", " : "") + std::to_string(s);
          json.rawValue(sizes + "]");
          json.attributeEnd();
        });
    });
  });
}
