//===- hkg-opt.cpp - hkg's optimizer driver -------------------------------===//
//
// MlirOptMain with the hkg dialect and passes, plus the upstream dialects and
// passes hkg's pipelines are built from.
//
//===----------------------------------------------------------------------===//

#include "hkg/Conversion/Passes.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Target/Passes.h"
#include "hkg/Tuner/DeviceMeasurer.h"
#include "hkg/Tuner/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::hkg::HkgDialect>();
  mlir::registerAllPasses();
  mlir::hkg::registerHkgPasses();
  mlir::hkg::registerHkgConversionPasses();
  mlir::hkg::registerHkgTargetPasses();
  mlir::hkg::registerHkgPipelines();
  mlir::hkg::registerHkgTunerPasses();
  // hkg-autotune measures on the device at hand through this factory.
  mlir::hkg::tuner::registerDeviceMeasurer();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "hkg optimizer driver\n", registry));
}
