//===- IreeProgram.cpp - hkg kernels as IREE custom dispatches ------------===//
//
// Writes the IREE input program of a module after hkg-outline-kernel-ops.
// Each kernel of the bundle becomes a `hal.executable.source` whose one
// export is the kernel, backed by its binary as an executable object (the
// shape of IREE's samples/custom_dispatch/{cuda,hip}/kernels); each
// `hkg.outlined` function becomes the `flow.dispatch` ops of its launch plan.
// The kernel ABI matches as it is (docs/IREE.md): IREE's CUDA and HIP
// drivers pass one device pointer per binding, in binding order, then each
// 32-bit constant, and a flow.dispatch binds its tensor operands, then its
// results; so a kernel's inputs are the dispatch's operands and its outputs
// its results, in the manifest's order, with no constants.
//
// IREE's MLIR is newer than hkg's (LLVM 22), so the text is written in forms
// both parse: the HAL ops in the generic form (their custom syntax changes
// between IREE releases, their properties do not), flow.dispatch and
// flow.tensor.reshape in the custom form IREE has kept since 2022, and the
// rest as MLIR 22 prints it (func, arith, tensor and linalg, which IREE
// reads).
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/IreeProgram.h"

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::hkg;

/// `tensor<2048x128xbf16>` for a plan value or a kernel argument.
static std::string getTensorType(StringRef dtype, ArrayRef<int64_t> shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + dtype.str() + ">";
}

/// The `#hal.executable.target` whose variants take `bundle`'s binaries: any
/// CUDA target for PTX, any ROCm (HIP) target for code objects (an empty
/// configuration matches every chip; the binary is for the bundle's).
static StringRef getExecutableTarget(const Bundle &bundle) {
  return bundle.format == "hsaco"
             ? R"(#hal.executable.target<"rocm", "rocm-hsaco-fb">)"
             : R"(#hal.executable.target<"cuda", "cuda-nvptx-fb">)";
}

/// Writes the `hal.executable.source` of one kernel.
static void writeExecutable(const Bundle &bundle, const CompiledKernel &k,
                            llvm::raw_ostream &os) {
  os << "  \"hal.executable.source\"() <{sym_name = \"" << k.name
     << "\", sym_visibility = \"private\", objects = "
        "#hal.executable.objects<{"
     << getExecutableTarget(bundle) << " = [#hal.executable.object<{path = \""
     << k.name << "." << bundle.format << "\"}>]}>}> ({\n";
  // One binding per kernel pointer, inputs read-only; no constants.
  os << "    \"hal.executable.export\"() <{sym_name = \"" << k.entry
     << "\", sym_visibility = \"public\", ordinal = 0 : index, layout = "
        "#hal.pipeline.layout<bindings = [";
  llvm::interleaveComma(k.args, os, [&](const KernelArg &arg) {
    os << "#hal.pipeline.binding<storage_buffer"
       << (arg.role == "input" ? ", ReadOnly" : "") << ">";
  });
  os << llvm::formatv("]>, workgroup_size = [{0} : index, {1} : index, {2} : "
                      "index]",
                      k.block[0], k.block[1], k.block[2]);
  // The CUDA driver launches with this much dynamic shared memory and
  // raises the function's limit to it (hkg's dynamic_lds_bytes).
  if (k.dynamicLdsBytes > 0)
    os << ", workgroup_local_memory = " << k.dynamicLdsBytes << " : index";
  os << "}> ({\n    ^bb0(%device: !hal.device):\n";
  for (int i = 0; i < 3; ++i)
    os << llvm::formatv("      %g{0} = arith.constant {1} : index\n", i,
                        k.grid[i]);
  os << "      \"hal.return\"(%g0, %g1, %g2) : (index, index, index) -> ()\n"
        "    }, {}) : () -> ()\n"
        "    \"hal.executable.source_end\"() : () -> ()\n"
        "  }) : () -> ()\n";
}

/// Writes the body of outlined function `func` from its launch plan: one
/// flow.dispatch per step, flow.tensor.reshape for views.
static LogicalResult
writeDispatchFunction(func::FuncOp func, const LaunchPlan &plan,
                      const llvm::StringMap<const CompiledKernel *> &kernels,
                      llvm::raw_ostream &os) {
  FunctionType type = func.getFunctionType();
  os << "  func.func private @" << func.getSymName() << "(";
  llvm::interleaveComma(llvm::enumerate(type.getInputs()), os, [&](auto it) {
    os << "%arg" << it.index() << ": " << it.value();
  });
  os << ") -> (";
  llvm::interleaveComma(type.getResults(), os);
  os << ") {\n";

  auto typeOf = [&](int64_t v) {
    return getTensorType(plan.values[v].dtype, plan.values[v].shape);
  };
  // The SSA value holding each storage's contents, once written.
  llvm::DenseMap<int64_t, std::string> ssa;
  for (auto [i, v] : llvm::enumerate(plan.values))
    if (v.kind == PlanValueKind::Input)
      ssa[i] = "%arg" + std::to_string(v.argument);
  unsigned next = 0;
  auto fresh = [&] { return "%" + std::to_string(next++); };
  // A value's contents: a storage's SSA value, or a view's reshape of it.
  auto read = [&](int64_t v) -> FailureOr<std::string> {
    int64_t storage = plan.getStorage(v);
    auto it = ssa.find(storage);
    if (it == ssa.end())
      return emitError(func.getLoc(), "launch plan reads '")
             << plan.values[storage].name << "' before a step writes it";
    if (storage == v || typeOf(storage) == typeOf(v))
      return it->second;
    std::string r = fresh();
    os << "    " << r << " = flow.tensor.reshape " << it->second << " : "
       << typeOf(storage) << " -> " << typeOf(v) << "\n";
    return r;
  };

  for (const PlanStep &step : plan.steps) {
    const CompiledKernel *k = kernels.lookup(step.kernel);
    if (!k)
      return emitError(func.getLoc(), "launch plan names kernel '")
             << step.kernel << "', which the bundle lacks";
    // The kernel's inputs are the dispatch's operands, its outputs the
    // results, in the kernel's argument order.
    SmallVector<std::string> operands, operandTypes;
    SmallVector<int64_t> results;
    for (auto [arg, v] : llvm::zip(k->args, step.args)) {
      if (arg.role == "output") {
        results.push_back(v);
        continue;
      }
      FailureOr<std::string> r = read(v);
      if (failed(r))
        return failure();
      operands.push_back(*r);
      operandTypes.push_back(getTensorType(arg.dtype, arg.shape));
    }
    std::string base = fresh();
    os << "    " << base;
    if (results.size() > 1)
      os << ":" << results.size();
    os << " = flow.dispatch @" << k->name << "::@" << k->entry << "(";
    llvm::interleaveComma(operands, os);
    os << ") : (";
    llvm::interleaveComma(operandTypes, os);
    os << ") -> (";
    llvm::interleaveComma(results, os, [&](int64_t v) { os << typeOf(v); });
    os << ")\n";
    for (auto [i, v] : llvm::enumerate(results)) {
      std::string value =
          results.size() > 1 ? base + "#" + std::to_string(i) : base;
      int64_t storage = plan.getStorage(v);
      if (storage == v || typeOf(storage) == typeOf(v)) {
        ssa[storage] = value;
        continue;
      }
      // The kernel wrote the storage through a view: the storage's contents
      // are that tensor under the storage's shape.
      std::string r = fresh();
      os << "    " << r << " = flow.tensor.reshape " << value << " : "
         << typeOf(v) << " -> " << typeOf(storage) << "\n";
      ssa[storage] = r;
    }
  }

  SmallVector<std::string> returned;
  for (int64_t v : plan.outputs) {
    FailureOr<std::string> r = read(v);
    if (failed(r))
      return failure();
    returned.push_back(*r);
  }
  os << "    return ";
  llvm::interleaveComma(returned, os);
  os << " : ";
  llvm::interleaveComma(type.getResults(), os);
  os << "\n  }\n";
  return success();
}

LogicalResult mlir::hkg::writeIreeProgram(ModuleOp module, const Bundle &bundle,
                                          llvm::raw_ostream &os) {
  if (bundle.format != "ptx" && bundle.format != "hsaco")
    return emitError(module.getLoc(), "IREE programs take PTX or hsaco "
                                      "kernels, not '")
           << bundle.format << "'";
  llvm::StringMap<const CompiledKernel *> kernels;
  for (const CompiledKernel &k : bundle.kernels)
    kernels[k.name] = &k;
  llvm::StringMap<const LaunchPlan *> plans;
  for (const LaunchPlan &plan : bundle.plans)
    plans[plan.function] = &plan;

  // The outlined functions and the kernels their plans launch.
  SmallVector<std::pair<func::FuncOp, const LaunchPlan *>> outlined;
  SmallVector<const CompiledKernel *> used;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(HkgDialect::OutlinedAttrHelper::getNameStr()))
      continue;
    const LaunchPlan *plan = plans.lookup(func.getSymName());
    if (!plan || !plan->noPlanReason.empty())
      return emitError(func.getLoc(), "no launch plan for outlined function @")
             << func.getSymName()
             << (plan ? ": " + plan->noPlanReason : std::string());
    if (!plan->sizes.empty())
      return emitError(func.getLoc(), "outlined function @")
             << func.getSymName()
             << " has dynamic sizes: IREE passes dispatch constants as "
                "32-bit kernel parameters, hkg's kernels take 64-bit sizes "
                "(docs/IREE.md, not yet)";
    for (const PlanStep &step : plan->steps) {
      const CompiledKernel *k = kernels.lookup(step.kernel);
      if (!k)
        return emitError(func.getLoc(), "launch plan names kernel '")
               << step.kernel << "', which the bundle lacks";
      if (!k->sizes.empty())
        return emitError(func.getLoc(), "kernel '")
               << k->name
               << "' has size parameters: IREE passes dispatch "
                  "constants as 32-bit kernel parameters (not yet)";
      if (!llvm::is_contained(used, k))
        used.push_back(k);
    }
    outlined.emplace_back(func, plan);
  }

  // The rest of the module as it is, without the outlined functions and
  // hkg's attributes (IREE does not know the hkg dialect).
  OwningOpRef<ModuleOp> rest = module.clone();
  for (auto func : llvm::make_early_inc_range(rest->getOps<func::FuncOp>()))
    if (func->hasAttr(HkgDialect::OutlinedAttrHelper::getNameStr()))
      func.erase();
  for (NamedAttribute attr : llvm::to_vector((*rest)->getDiscardableAttrs()))
    if (attr.getName().getValue().starts_with("hkg."))
      (*rest)->removeDiscardableAttr(attr.getName());
  std::string text;
  llvm::raw_string_ostream textOs(text);
  rest->print(textOs, OpPrintingFlags().assumeVerified());
  size_t end = text.rfind('}');
  if (end == std::string::npos)
    return emitError(module.getLoc(), "could not print the module");

  os << "// IREE input program written by hkg-compile --emit=iree for "
     << bundle.target << " (" << bundle.format
     << "): each hkg op a custom dispatch of the bundle's kernel.\n"
     << "// iree-compile <this file> "
        "--iree-hal-executable-object-search-path=<bundle dir> ...\n";
  os << StringRef(text).take_front(end);
  for (const CompiledKernel *k : used)
    writeExecutable(bundle, *k, os);
  for (auto [func, plan] : outlined)
    if (failed(writeDispatchFunction(func, *plan, kernels, os)))
      return failure();
  os << StringRef(text).drop_front(end).rtrim() << "\n";
  return success();
}
