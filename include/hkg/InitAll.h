//===- InitAll.h - everything hkg's tools register --------------*- C++ -*-===//
//
// What hkg-opt and the C API (libhkg.so) register, in one place, after
// upstream's mlir/InitAllDialects.h and mlir/InitAllPasses.h.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_INITALL_H
#define HKG_INITALL_H

#include "hkg/Conversion/Passes.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Target/Passes.h"
#include "hkg/Tuner/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlir::hkg {

/// Every upstream dialect, extension and LLVM IR translation, and hkg's
/// dialect: what a module hkg compiles may hold on its way to a binary.
inline void registerAllHkgDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<HkgDialect>();
}

/// Upstream's passes and hkg's passes and pipelines (hkg-opt's set).
inline void registerAllHkgPasses() {
  registerAllPasses();
  registerHkgPasses();
  registerHkgConversionPasses();
  registerHkgTargetPasses();
  registerHkgPipelines();
  registerHkgTunerPasses();
}

} // namespace mlir::hkg

#endif // HKG_INITALL_H
