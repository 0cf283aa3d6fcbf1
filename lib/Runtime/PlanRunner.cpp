//===- PlanRunner.cpp - run, check and time a bundle's launch plan --------===//

#include "hkg/Runtime/PlanRunner.h"
#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/KernelModel.h"
#include "hkg/Runtime/RandomInputs.h"
#include "hkg/Runtime/Reference.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>

using namespace hkg::rt;
namespace json = llvm::json;
using Kind = PlanValueSpec::Kind;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

namespace {
/// One step, made concrete: its kernel at the plan's sizes and its source
/// op.
struct Step {
  KernelSpec kernel;
  mlir::OwningOpRef<mlir::ModuleOp> source;
  mlir::Operation *op = nullptr;
  const KernelModel *model = nullptr;
};

/// Device allocations, freed when it goes out of scope.
class Allocations {
public:
  explicit Allocations(Device &device) : device(device) {}
  ~Allocations() {
    for (DevicePtr p : ptrs)
      llvm::consumeError(device.deallocate(p));
  }
  llvm::Expected<DevicePtr> allocate(size_t bytes) {
    auto p = device.allocate(std::max<size_t>(bytes, 1));
    if (p)
      ptrs.push_back(*p);
    return p;
  }

private:
  Device &device;
  llvm::SmallVector<DevicePtr> ptrs;
};
} // namespace

/// `tensor`'s bytes under `shape` (a view: same elements, row-major).
static HostTensor reshaped(const HostTensor &tensor,
                           llvm::ArrayRef<int64_t> shape) {
  HostTensor out(tensor.getDType(), shape);
  std::memcpy(out.data(), tensor.data(), out.getNumBytes());
  return out;
}

/// `expected` (a reference result, f64 or integer) rounded to `dtype`, as
/// the step's buffer stores it.
static HostTensor roundedTo(const HostTensor &expected, DType dtype) {
  HostTensor out(dtype, expected.getShape());
  for (int64_t i = 0, e = expected.getNumElements(); i < e; ++i)
    out.set(i, expected.get(i));
  return out;
}

static int64_t getNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

llvm::Expected<json::Object>
hkg::rt::runPlan(const Bundle &bundle, const PlanSpec &plan, Device &device,
                 const RunOptions &options,
                 llvm::ArrayRef<int64_t> sizeValues) {
  if (!plan.noPlan.empty())
    return makeError("function '" + plan.function +
                     "' has no launch plan: " + plan.noPlan);
  if (sizeValues.size() != plan.sizes.size())
    return makeError(llvm::formatv("plan '{0}' has {1} size parameter(s); "
                                   "pass --sizes to run it",
                                   plan.function, plan.sizes.size()));
  for (int64_t v : sizeValues)
    if (v <= 0)
      return makeError("plan sizes must be positive");

  // Every value's concrete shape.
  std::vector<llvm::SmallVector<int64_t>> shapes;
  for (const PlanValueSpec &v : plan.values) {
    shapes.push_back(v.shape);
    for (const SizedDim &s : v.sizedDims)
      shapes.back()[s.dim] = sizeValues[s.size];
  }
  auto bytesOf = [&](unsigned v) {
    return static_cast<size_t>(getNumElements(shapes[v])) *
           getDTypeSize(plan.values[v].dtype);
  };

  // The steps: kernels at the plan's sizes, their sources parsed.
  mlir::DialectRegistry registry;
  registerReferenceDialects(registry);
  mlir::MLIRContext context(registry);
  std::vector<Step> steps(plan.steps.size());
  for (auto [i, ps] : llvm::enumerate(plan.steps)) {
    const KernelSpec &k = bundle.kernels[ps.kernel];
    llvm::SmallVector<int64_t> values;
    for (unsigned s : ps.sizes)
      values.push_back(sizeValues[s]);
    llvm::Expected<KernelSpec> concrete = k.specialize(values);
    if (!concrete)
      return concrete.takeError();
    steps[i].kernel = std::move(*concrete);
    auto module = parseSourceModule(steps[i].kernel.source, context);
    if (!module)
      return module.takeError();
    steps[i].source = std::move(*module);
    llvm::Expected<mlir::Operation *> op = findKernelOp(steps[i].source.get());
    if (!op)
      return op.takeError();
    steps[i].op = *op;
    llvm::Expected<const KernelModel &> model = getKernelModel(*op);
    if (!model)
      return model.takeError();
    steps[i].model = &*model;
    for (auto [a, v] : llvm::enumerate(ps.args))
      if (llvm::ArrayRef<int64_t>(shapes[v]) !=
          llvm::ArrayRef<int64_t>(steps[i].kernel.args[a].shape))
        return makeError(llvm::formatv(
            "step {0} ({1}): '{2}' does not have the shape of arg {3}", i,
            steps[i].kernel.name, plan.values[v].name, a));
  }

  // Seeded inputs: each in the range of the first step that reads it (its
  // op's random inputs for that operand, or for the operand that is a slice
  // view of it), else uniform [-1, 1).
  std::vector<HostTensor> inputs;
  for (auto [argNo, v] : llvm::enumerate(plan.inputs)) {
    std::optional<HostTensor> made;
    for (auto [i, ps] : llvm::enumerate(plan.steps)) {
      const auto *it = llvm::find_if(
          ps.args, [&, v = v](unsigned a) { return plan.getStorage(a) == v; });
      if (it == ps.args.end())
        continue;
      auto operands =
          makeRandomInputs(*steps[i].model, steps[i].op, options.seed + argNo);
      if (!operands)
        return operands.takeError();
      made = reshaped((*operands)[it - ps.args.begin()], shapes[v]);
      break;
    }
    if (!made) {
      made.emplace(plan.values[v].dtype, shapes[v]);
      RandomStream stream(options.seed + argNo);
      fillUniform(*made, stream, -1, 1);
    }
    inputs.push_back(std::move(*made));
  }

  // The composed reference: each step's reference, in plan order, on the
  // host tensors of the values it reads (the reference results of earlier
  // steps, rounded to their buffers' dtypes), never the device's.
  std::vector<std::optional<HostTensor>> host(plan.values.size());
  std::vector<std::optional<ExpectedOutput>> expected(plan.values.size());
  std::vector<int> writer(plan.values.size(), -1);
  for (auto [argNo, v] : llvm::enumerate(plan.inputs))
    host[v] = inputs[argNo];
  ReferenceOptions refOptions;
  refOptions.maxMultiplyAdds = 0; // every element feeds the next step
  for (auto [i, ps] : llvm::enumerate(plan.steps)) {
    const KernelSpec &k = steps[i].kernel;
    llvm::SmallVector<HostTensor> operands;
    for (auto [a, v] : llvm::enumerate(ps.args)) {
      if (k.args[a].isOutput)
        continue;
      unsigned storage = plan.getStorage(v);
      if (!host[storage])
        return makeError(llvm::formatv(
            "step {0} ({1}) reads '{2}' before any step writes it", i, k.name,
            plan.values[v].name));
      operands.push_back(reshaped(*host[storage], shapes[v]));
    }
    // A kernel input that is the whole of a slice view's buffer: the op
    // reads the view.
    auto viewed = evaluateOperands(steps[i].op, operands);
    if (!viewed)
      return viewed.takeError();
    auto ref =
        evaluateReference(*steps[i].model, steps[i].op, *viewed, refOptions);
    if (!ref)
      return ref.takeError();
    unsigned result = 0;
    for (auto [a, v] : llvm::enumerate(ps.args)) {
      if (!k.args[a].isOutput)
        continue;
      unsigned storage = plan.getStorage(v);
      ExpectedOutput &out = ref->outputs[result++];
      host[storage] = reshaped(roundedTo(out.tensor, plan.values[v].dtype),
                               shapes[storage]);
      expected[storage] = std::move(out);
      writer[storage] = i;
    }
  }

  // Device memory: inputs, output storage (poisoned), the arena (poisoned)
  // and intermediates of dynamic shape.
  Allocations allocations(device);
  std::vector<DevicePtr> ptrs(plan.values.size(), 0);
  for (auto [argNo, v] : llvm::enumerate(plan.inputs)) {
    auto p = allocations.allocate(bytesOf(v));
    if (!p)
      return p.takeError();
    ptrs[v] = *p;
    if (llvm::Error e = device.copyToDevice(*p, inputs[argNo].data(),
                                            inputs[argNo].getNumBytes()))
      return std::move(e);
  }
  DevicePtr arena = 0;
  if (plan.arenaBytes > 0) {
    auto p = allocations.allocate(plan.arenaBytes);
    if (!p)
      return p.takeError();
    arena = *p;
    if (llvm::Error e = device.fill(arena, 0xff, plan.arenaBytes))
      return std::move(e);
  }
  for (auto [v, pv] : llvm::enumerate(plan.values)) {
    if (pv.kind == Kind::Intermediate && pv.offset >= 0) {
      ptrs[v] = arena + pv.offset;
      continue;
    }
    if (pv.kind != Kind::Output && pv.kind != Kind::Intermediate)
      continue;
    auto p = allocations.allocate(bytesOf(v));
    if (!p)
      return p.takeError();
    ptrs[v] = *p;
    HostTensor poisoned(pv.dtype, shapes[v]);
    poison(poisoned);
    if (llvm::Error e =
            device.copyToDevice(*p, poisoned.data(), poisoned.getNumBytes()))
      return std::move(e);
  }
  for (auto [v, pv] : llvm::enumerate(plan.values))
    if (pv.kind == Kind::View)
      ptrs[v] = ptrs[pv.of];

  // The kernels, loaded once each.
  std::vector<ModuleHandle> modules;
  llvm::scope_exit unload([&] {
    for (ModuleHandle m : modules)
      llvm::consumeError(device.unloadModule(m));
  });
  std::vector<KernelHandle> handles;
  std::vector<llvm::SmallVector<DevicePtr>> args;
  for (auto [i, ps] : llvm::enumerate(plan.steps)) {
    const KernelSpec &k = steps[i].kernel;
    auto mod = loadKernelModule(bundle, k, device);
    if (!mod)
      return mod.takeError();
    modules.push_back(*mod);
    auto handle = device.getKernel(*mod, k.entry);
    if (!handle)
      return handle.takeError();
    handles.push_back(*handle);
    args.emplace_back();
    for (unsigned v : ps.args)
      args.back().push_back(ptrs[v]);
  }
  auto launchAll = [&]() -> llvm::Error {
    for (auto [i, step] : llvm::enumerate(steps))
      if (llvm::Error e = device.launch(
              handles[i], step.kernel.grid, step.kernel.block,
              step.kernel.dynamicLdsBytes, args[i], step.kernel.sizeValues))
        return e;
    return llvm::Error::success();
  };
  if (llvm::Error e = launchAll())
    return std::move(e);
  if (llvm::Error e = device.synchronize())
    return std::move(e);

  // The function's outputs against the composed reference, each under the
  // tolerance of the op that writes it.
  json::Object record{{"function", plan.function}};
  json::Array outputs;
  bool passed = true;
  std::string message;
  for (auto [r, v] : llvm::enumerate(plan.outputs)) {
    unsigned storage = plan.getStorage(v);
    HostTensor actual(plan.values[v].dtype, shapes[v]);
    if (llvm::Error e =
            device.copyToHost(actual.data(), ptrs[v], actual.getNumBytes()))
      return std::move(e);
    CheckResult check;
    if (plan.values[storage].kind == Kind::Input) {
      // An input returned as it is: its bytes, unchanged.
      check.passed = std::memcmp(actual.data(), host[storage]->data(),
                                 actual.getNumBytes()) == 0;
      check.checked = actual.getNumElements();
      if (!check.passed)
        check.message = "the input it returns was overwritten";
    } else {
      const Step &step = steps[writer[storage]];
      ExpectedOutput want = *expected[storage];
      want.tensor = reshaped(want.tensor, shapes[v]);
      Tolerance tol =
          getOpTolerance(*step.model, step.op, plan.values[v].dtype, 0);
      check = compareTensors(actual, want, tol);
    }
    json::Object o = makeCheckRecord(check);
    o["value"] = plan.values[v].name;
    o["status"] = check.passed ? "pass" : "fail";
    o["message"] = check.message;
    outputs.push_back(std::move(o));
    if (!check.passed) {
      passed = false;
      message += (message.empty() ? "" : "; ") +
                 llvm::formatv("output #{0} ({1}): {2}", r, plan.values[v].name,
                               check.message)
                     .str();
    }
  }
  record["status"] = passed ? "pass" : "fail";
  record["message"] = message;
  record["outputs"] = std::move(outputs);
  if (!passed || options.reps == 0)
    return record;

  // The whole plan (median of N plan launches) next to the sum of its
  // kernels' standalone medians, on the same buffers and flush.
  auto median = [](std::vector<float> t) {
    std::sort(t.begin(), t.end());
    return t[t.size() / 2] * 1e3;
  };
  auto planTimes = device.timeSequence(launchAll, options.warmup, options.reps,
                                       options.flushBytes);
  if (!planTimes)
    return planTimes.takeError();
  double sum = 0;
  json::Array stepTimes;
  for (auto [i, step] : llvm::enumerate(steps)) {
    auto t = device.timeLaunches(handles[i], step.kernel.grid,
                                 step.kernel.block, step.kernel.dynamicLdsBytes,
                                 args[i], options.warmup, options.reps,
                                 options.flushBytes, step.kernel.sizeValues);
    if (!t)
      return t.takeError();
    double us = median(*t);
    sum += us;
    stepTimes.push_back(
        json::Object{{"kernel", step.kernel.name}, {"median_us", us}});
  }
  double planUs = median(*planTimes);
  record["timing"] = json::Object{{"plan_median_us", planUs},
                                  {"kernels_sum_us", sum},
                                  {"ratio", sum > 0 ? planUs / sum : 0.0},
                                  {"reps", static_cast<int64_t>(options.reps)},
                                  {"steps", std::move(stepTimes)}};
  return record;
}
