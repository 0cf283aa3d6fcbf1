//===- hkg-opt.cpp - hkg's optimizer driver -------------------------------===//
//
// MlirOptMain with the hkg dialect and passes, plus the upstream dialects and
// passes hkg's pipelines are built from. The input is read here, so that its
// nesting is bounded before the parser sees it, and MlirOptMain runs on a
// large stack (hkg/Support/InputLimits.h).
//
//===----------------------------------------------------------------------===//

#include "hkg/InitAll.h"
#include "hkg/Support/InputLimits.h"
#include "hkg/Tuner/DeviceMeasurer.h"

#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

static llvm::cl::opt<unsigned> timeout(
    "hkg-timeout",
    llvm::cl::desc("Wall-clock limit in seconds: past it hkg-opt stops with "
                   "an error and exit status 1 (0 = none, the default)"),
    llvm::cl::init(0));

/// MlirOptMain(argc, argv, inputFilename, outputFilename, registry), with the
/// input's nesting checked first.
static int optMain(int argc, char **argv, mlir::DialectRegistry &registry) {
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "hkg optimizer driver\n", registry);
  hkg::Watchdog watchdog(
      timeout, llvm::formatv("hkg-opt: error: {0}: took longer than "
                             "--hkg-timeout={1} s",
                             inputFilename, timeout.getValue())
                   .str());
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listings read no input: upstream's driver prints them.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, inputFilename, outputFilename, registry));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::WithColor::error(llvm::errs(), "hkg-opt") << error << "\n";
    return 1;
  }
  if (llvm::Error e = hkg::checkInputNesting(input->getBuffer(),
                                             hkg::InputSyntax::MLIR)) {
    llvm::WithColor::error(llvm::errs(), "hkg-opt")
        << inputFilename << ": " << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::WithColor::error(llvm::errs(), "hkg-opt") << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config)))
    return 1;
  output->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  mlir::hkg::registerAllHkgDialects(registry);
  mlir::hkg::registerAllHkgPasses();
  // hkg-autotune measures on the device at hand through this factory.
  mlir::hkg::tuner::registerDeviceMeasurer();
  // Deeply nested IR recurses deeply (parser, verifier, passes): the work
  // runs on a large stack.
  return hkg::runOnLargeStack([&] { return optMain(argc, argv, registry); });
}
