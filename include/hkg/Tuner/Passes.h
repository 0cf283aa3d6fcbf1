//===- Passes.h - hkg tuner passes ------------------------------*- C++ -*-===//
//
// hkg-autotune, in its own library (HkgTunerTransforms) so that only the
// tools that tune (hkg-opt) link XGBoost and SQLite.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_PASSES_H
#define HKG_TUNER_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hkg {

#define GEN_PASS_DECL
#include "hkg/Tuner/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hkg/Tuner/Passes.h.inc"

} // namespace mlir::hkg

#endif // HKG_TUNER_PASSES_H
