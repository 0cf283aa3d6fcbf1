//===- Specialize.cpp - a kernel with size parameters made concrete -------===//
//
// KernelSpec::specialize: given one value per size parameter, fill in the
// sized dims of the args, compute the grid by the manifest's grid_x rule
// (docs/ABI.md), and specialize the reference source: its func's argument
// and result types, its block arguments and the hkg op's result types take
// the concrete shapes (through the MLIR API, not text substitution), then
// the module is verified, so the op's verifier checks that they agree.
// Sizes that make the tensors empty leave nothing to launch or check: the
// source then stays as it is (the ops refuse zero-size dims).
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Bundle.h"
#include "hkg/Runtime/Reference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace hkg::rt;

static llvm::Error kernelError(const KernelSpec &k, const llvm::Twine &what) {
  return llvm::createStringError("kernel '" + k.name + "': " + what);
}

/// `[4096, 8192]`.
static std::string formatList(llvm::ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

llvm::Expected<Dim3>
KernelSpec::computeGrid(llvm::ArrayRef<int64_t> values) const {
  if (values.size() != sizes.size())
    return kernelError(*this, llvm::formatv("expected {0} size value(s) (one "
                                            "per size parameter), got {1}",
                                            sizes.size(), values.size()));
  for (auto [i, v] : llvm::enumerate(values))
    if (v < 0)
      return kernelError(*this, llvm::formatv("size {0} is {1}, expected a "
                                              "non-negative value",
                                              i, v));
  if (sizes.empty())
    return grid;
  Dim3 out = grid;
  if (llvm::is_contained(values, 0)) {
    // Empty tensors: nothing to compute, nothing to launch.
    out[0] = 0;
    return out;
  }
  auto overflow = [&] {
    return kernelError(*this, "grid x for sizes " + formatList(values) +
                                  " overflows 64 bits");
  };
  // x = ceil(N * mul / div) * times, N the product of the sizes.
  int64_t n = 1;
  for (int64_t v : values)
    if (llvm::MulOverflow(n, v, n))
      return overflow();
  int64_t scaled = 0, x = 0;
  if (llvm::MulOverflow(n, gridX.mul, scaled))
    return overflow();
  int64_t blocks = scaled / gridX.div + (scaled % gridX.div != 0);
  if (llvm::MulOverflow(blocks, gridX.times, x))
    return overflow();
  if (x > kMaxGridX)
    return kernelError(*this, llvm::formatv("grid x {0} for sizes {1} is "
                                            "above 2^31 - 1",
                                            x, formatList(values)));
  out[0] = static_cast<unsigned>(x);
  return out;
}

/// The concrete type of a source value typed `old`, for manifest arg
/// `index` of `k` (already specialized): `old` with the arg's shape, whose
/// static dims it must already have.
static llvm::Expected<mlir::Type>
getConcreteType(const KernelSpec &k, unsigned index, mlir::Type old) {
  const ArgSpec &arg = k.args[index];
  auto ranked = llvm::dyn_cast<mlir::RankedTensorType>(old);
  bool agrees =
      ranked && ranked.getRank() == static_cast<int64_t>(arg.shape.size());
  for (unsigned d = 0; agrees && d < arg.shape.size(); ++d)
    agrees = ranked.isDynamicDim(d) || ranked.getDimSize(d) == arg.shape[d];
  if (!agrees)
    return kernelError(k, llvm::formatv("the source's type '{0}' does not "
                                        "fit arg #{1}'s shape {2}",
                                        old, index, formatList(arg.shape)));
  return mlir::RankedTensorType::get(arg.shape, ranked.getElementType(),
                                     ranked.getEncoding());
}

/// `k.source` (the reference module of `k` before specialization) with the
/// types of its func and kernel op set to the concrete shapes of `k`'s args
/// (`k` already specialized), verified and printed.
static llvm::Expected<std::string> specializeSource(const KernelSpec &k) {
  mlir::DialectRegistry registry;
  registerReferenceDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = parseSourceModule(k.source, context);
  if (!module)
    return kernelError(k, llvm::toString(module.takeError()));
  llvm::Expected<mlir::Operation *> op = findKernelOp(module->get());
  if (!op)
    return kernelError(k, llvm::toString(op.takeError()));
  auto func = (*op)->getParentOfType<mlir::func::FuncOp>();
  if (!func)
    return kernelError(k, "the source's hkg op is not in a func.func");
  unsigned numInputs =
      llvm::count_if(k.args, [](const ArgSpec &a) { return !a.isOutput; });
  unsigned numOutputs = k.args.size() - numInputs;
  if (func.getNumArguments() != numInputs ||
      func.getNumResults() != numOutputs ||
      (*op)->getNumResults() != numOutputs)
    return kernelError(
        k, llvm::formatv("the source's func takes {0} argument(s) and "
                         "returns {1} result(s), its op has {2} result(s); "
                         "the manifest has {3} input(s) and {4} output(s)",
                         func.getNumArguments(), func.getNumResults(),
                         (*op)->getNumResults(), numInputs, numOutputs));

  // Inputs are the func's arguments in order, outputs the op's results
  // (and the func's).
  llvm::SmallVector<mlir::Type> inputTypes, outputTypes;
  for (unsigned i = 0; i < k.args.size(); ++i) {
    bool isInput = i < numInputs;
    mlir::Value value = isInput ? mlir::Value(func.getArgument(i))
                                : (*op)->getResult(i - numInputs);
    llvm::Expected<mlir::Type> type = getConcreteType(k, i, value.getType());
    if (!type)
      return type.takeError();
    value.setType(*type);
    (isInput ? inputTypes : outputTypes).push_back(*type);
  }
  func.setFunctionType(
      mlir::FunctionType::get(&context, inputTypes, outputTypes));

  std::string diagnostic;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error &&
        diagnostic.empty())
      diagnostic = d.str();
    return mlir::success();
  });
  if (mlir::failed(mlir::verify(module->get())))
    return kernelError(k, "the source specialized to the sizes " +
                              formatList(k.sizeValues) +
                              " does not verify: " + diagnostic);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->get()->print(os);
  return text;
}

llvm::Expected<KernelSpec>
KernelSpec::specialize(llvm::ArrayRef<int64_t> values) const {
  llvm::Expected<Dim3> concreteGrid = computeGrid(values);
  if (!concreteGrid)
    return concreteGrid.takeError();
  KernelSpec out = *this;
  if (!hasSizeParameters())
    return out;
  out.grid = *concreteGrid;
  for (auto [i, arg] : llvm::enumerate(out.args)) {
    for (const SizedDim &s : arg.sizedDims)
      arg.shape[s.dim] = values[s.size];
    arg.sizedDims.clear();
    if (llvm::is_contained(arg.shape, 0))
      continue;
    int64_t bytes = getDTypeSize(arg.dtype);
    for (int64_t d : arg.shape)
      if (llvm::MulOverflow(bytes, d, bytes))
        return kernelError(*this,
                           llvm::formatv("arg #{0} of shape {1} takes more "
                                         "than 2^63 bytes",
                                         i, formatList(arg.shape)));
  }
  out.sizes.clear();
  out.gridX = GridXRule();
  out.sizeValues.assign(values.begin(), values.end());
  // Empty tensors: nothing to compute, nor to check. The source keeps its
  // `?` (hkg ops refuse zero-size dims: an empty tensor is no kernel).
  if (out.isEmptyLaunch())
    return out;
  llvm::Expected<std::string> source = specializeSource(out);
  if (!source)
    return source.takeError();
  out.source = std::move(*source);
  return out;
}
