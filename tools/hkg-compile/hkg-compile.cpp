//===- hkg-compile.cpp - compile hkg kernels into a kernel bundle ---------===//
//
//   hkg-compile in.mlir --chip=gfx942 -o bundle_dir [--report] [--emit-isa]
//   hkg-compile in.mlir --chip=sm_90 -o bundle_dir --emit=iree
//
// Parses a module of hkg ops (or of gpu.module kernels as hkg-lower-to-gpu
// writes them), compiles every kernel for the chip and writes the bundle:
// one binary per kernel and manifest.json (docs/ABI.md). With --emit=iree
// it also writes the module as an IREE input program in which each hkg op
// is a custom dispatch of its kernel and IREE computes the other ops
// (docs/IREE.md).
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Support/InputLimits.h"
#include "hkg/Target/Bundle.h"
#include "hkg/Target/IreeProgram.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input .mlir>"),
                                            llvm::cl::init("-"));
static llvm::cl::opt<std::string>
    chip("chip",
         llvm::cl::desc("Target chip (gfx942, gfx1201, sm_90, ...); default: "
                        "the module's hkg.target attribute"),
         llvm::cl::init(""));
static llvm::cl::opt<std::string>
    outputDir("o", llvm::cl::desc("Bundle directory to write"),
              llvm::cl::value_desc("dir"), llvm::cl::Required);
static llvm::cl::opt<std::string> format(
    "format",
    llvm::cl::desc("hsaco (AMD), ptx or cubin (NVIDIA; cubin needs ptxas); "
                   "default: hsaco for AMD, ptx for NVIDIA"),
    llvm::cl::init(""));
static llvm::cl::opt<unsigned>
    optLevel("opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
             llvm::cl::init(3));
static llvm::cl::opt<std::string> toolkit(
    "toolkit",
    llvm::cl::desc("Toolkit directory (ROCm or CUDA layout); default: found "
                   "by hkg"),
    llvm::cl::init(""));
static llvm::cl::opt<bool> allowHostOps(
    "allow-host-ops",
    llvm::cl::desc("Leave ops that no hkg kernel computes (e.g. a linalg op "
                   "next to hkg ops) to the caller, listed in the manifest's "
                   "host_ops, instead of refusing them"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> defaultSchedules(
    "default-schedules",
    llvm::cl::desc("Attach the target's default schedule to hkg ops that "
                   "carry none (default on)"),
    llvm::cl::init(true));
static llvm::cl::opt<unsigned> indexBitwidth(
    "index-bitwidth",
    llvm::cl::desc("NVIDIA: width of `index` in the kernels: 64 (default), "
                   "0 = auto (32 where every memref has at most 2^30 "
                   "elements and no nvgpu op is used, else 64), 32 = auto "
                   "but an error where 32 bits are not safe"),
    llvm::cl::init(64));
static llvm::cl::opt<unsigned> minBlocksPerSM(
    "min-blocks-per-sm",
    llvm::cl::desc("NVIDIA: ask ptxas for at least this many resident "
                   "workgroups per SM (.minnctapersm; caps registers); 0 = "
                   "none (default)"),
    llvm::cl::init(0));
static llvm::cl::opt<bool>
    report("report", llvm::cl::desc("Print a table of the kernels' stats"));
static llvm::cl::opt<bool> emitIsa(
    "emit-isa",
    llvm::cl::desc("Write the AMD assembly (.s) or PTX (.ptx) next to each "
                   "binary"));
static llvm::cl::opt<std::string> emit(
    "emit",
    llvm::cl::desc("What to write: 'bundle' (default), or 'iree': the bundle "
                   "and iree_input.mlir in it, the module as an IREE program "
                   "in which each hkg op is a custom dispatch of its kernel "
                   "and IREE computes the other ops (docs/IREE.md)"),
    llvm::cl::init("bundle"));
static llvm::cl::opt<unsigned> timeout(
    "timeout",
    llvm::cl::desc("Wall-clock limit in seconds: past it hkg-compile stops "
                   "with an error and exit status 1 (0 = none)"),
    llvm::cl::init(600));

static int compileMain();

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "hkg kernel compiler: .mlir to a kernel "
                                    "bundle\n");
  ::hkg::Watchdog watchdog(
      timeout, llvm::formatv("hkg-compile: error: {0}: compilation took "
                             "longer than --timeout={1} s",
                             inputFile.getValue(), timeout.getValue())
                   .str());
  // Deeply nested IR recurses deeply (parser, verifier, passes): the work
  // runs on a large stack.
  return ::hkg::runOnLargeStack(compileMain);
}

static int compileMain() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::hkg::HkgDialect>();
  MLIRContext context(registry);
  context.disableMultithreading();
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "hkg-compile: " << error << "\n";
    return 1;
  }
  if (llvm::Error err = ::hkg::checkInputNesting(input->getBuffer(),
                                               ::hkg::InputSyntax::MLIR)) {
    llvm::errs() << "hkg-compile: error: " << inputFile << ": "
                 << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  mlir::hkg::BundleOptions options;
  options.chip = chip;
  if (options.chip.empty()) {
    auto target = (*module)->getAttrOfType<mlir::hkg::TargetAttr>("hkg.target");
    if (!target) {
      emitError(module->getLoc(), "no target: pass --chip or set an "
                                  "'hkg.target = #hkg.target<chip = ...>' "
                                  "attribute on the module");
      return 1;
    }
    options.chip = target.getChip().str();
  }
  options.format = format;
  options.optLevel = optLevel;
  options.toolkit = toolkit;
  options.defaultSchedules = defaultSchedules;
  options.allowHostOps = allowHostOps;
  options.indexBitwidth = indexBitwidth;
  options.minBlocksPerSM = minBlocksPerSM;
  if (emit != "bundle" && emit != "iree") {
    llvm::errs() << "hkg-compile: error: --emit=" << emit
                 << " is not 'bundle' or 'iree'\n";
    return 1;
  }
  bool iree = emit == "iree";
  if (iree && format == "cubin") {
    llvm::errs() << "hkg-compile: error: --emit=iree takes PTX (IREE's CUDA "
                    "target embeds it), not --format=cubin\n";
    return 1;
  }
  // For IREE: hkg's ops raised from linalg, then each in a function of its
  // own (its launch plan becomes the dispatches); the bundle is compiled
  // from a copy, the ops hkg leaves being IREE's. Their remarks ("left to
  // the caller") are dropped: leaving them is the point.
  OwningOpRef<ModuleOp> compiled;
  std::optional<ScopedDiagnosticHandler> quietRemarks;
  if (iree) {
    PassManager pm(&context);
    mlir::hkg::buildHkgFromLinalgPipeline(pm);
    pm.addPass(mlir::hkg::createHkgOutlineKernelOpsPass());
    if (failed(pm.run(*module)))
      return 1;
    compiled = module->clone();
    options.allowHostOps = true;
    quietRemarks.emplace(&context, [](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Remark);
    });
  }
  FailureOr<mlir::hkg::Bundle> bundle =
      mlir::hkg::compileBundle(iree ? *compiled : *module, options);
  if (failed(bundle))
    return 1;
  if (llvm::Error err = mlir::hkg::writeBundle(*bundle, outputDir, emitIsa)) {
    llvm::errs() << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  if (iree) {
    llvm::SmallString<256> path(outputDir);
    llvm::sys::path::append(path, mlir::hkg::kIreeProgramFileName);
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(mlir::hkg::writeIreeProgram(*module, *bundle, os)))
      return 1;
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
    if (!out) {
      llvm::errs() << "hkg-compile: " << error << "\n";
      return 1;
    }
    out->os() << text;
    out->keep();
  }
  if (report)
    mlir::hkg::printReport(*bundle, llvm::outs());
  return 0;
}
