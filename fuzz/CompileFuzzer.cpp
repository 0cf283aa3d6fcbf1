//===- CompileFuzzer.cpp - libFuzzer: .mlir through hkg's codegen ---------===//
//
// Parses the input as a module (after the tools' nesting limit), verifies
// it, attaches default schedules and runs hkg-to-rocdl (gfx942) and
// hkg-to-nvvm (sm_90) on it, to assembly / PTX. Diagnostics are expected;
// a crash, a sanitizer report or a timeout is a finding. Built with
// -DHKG_FUZZERS=ON (utils/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Support/InputLimits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllToLLVMIRTranslations(registry);
    registry.insert<mlir::hkg::HkgDialect>();
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

/// hkg-compile's path for one chip: default schedules, then the pipeline to
/// assembly (isa), which needs no linker or ptxas.
static void compileFor(ModuleOp module, StringRef chip, bool amd) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  mlir::hkg::HkgDefaultSchedulePassOptions defaults;
  defaults.chip = chip.str();
  pm.addPass(mlir::hkg::createHkgDefaultSchedulePass(defaults));
  llvm::Error err = llvm::Error::success();
  if (amd) {
    mlir::hkg::HkgToROCDLPipelineOptions opts;
    opts.chip = chip.str();
    opts.format = "isa";
    err = mlir::hkg::buildHkgToROCDLPipeline(pm, opts);
  } else {
    mlir::hkg::HkgToNVVMPipelineOptions opts;
    opts.chip = chip.str();
    opts.format = "isa";
    err = mlir::hkg::buildHkgToNVVMPipeline(pm, opts);
  }
  if (err) {
    // A missing toolkit (CUDA's libdevice on a machine without CUDA) is a
    // setup matter, not a finding: that target is skipped, said once.
    static llvm::StringSet<> warned;
    if (warned.insert(chip).second)
      llvm::errs() << "hkg-fuzz-compile: skipping " << chip << ": "
                   << llvm::toString(std::move(err)) << "\n";
    else
      llvm::consumeError(std::move(err));
    return;
  }
  (void)pm.run(*copy);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The MLIR lexer needs the NUL after the buffer that MemoryBuffer gives
  // the tools' files; libFuzzer's data has none.
  std::string copy(reinterpret_cast<const char *>(data), size);
  StringRef text(copy.c_str(), size);
  if (llvm::Error e = ::hkg::checkInputNesting(text, ::hkg::InputSyntax::MLIR)) {
    llvm::consumeError(std::move(e));
    return 0;
  }
  MLIRContext &ctx = getContext();
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module)
    return 0;
  compileFor(*module, "gfx942", /*amd=*/true);
  compileFor(*module, "sm_90", /*amd=*/false);
  return 0;
}
