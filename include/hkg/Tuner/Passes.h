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

#include <functional>

namespace mlir::hkg {

class HkgKernelOpInterface;
namespace tuner {
class Measurer;
class TuningObserver;
} // namespace tuner

#define GEN_PASS_DECL
#include "hkg/Tuner/Passes.h.inc"

/// What a caller running hkg-autotune in process (the C API's hkgTune) can
/// give it besides its textual options.
struct AutotuneHooks {
  /// Told about every op's search and confirmation (null: nobody).
  tuner::TuningObserver *observer = nullptr;
  /// Measures instead of the device measurer factory (null: the factory).
  tuner::Measurer *measurer = nullptr;
  /// Called before each op is tuned: the op, its index and the op count.
  std::function<void(HkgKernelOpInterface, unsigned, unsigned)> onOp;
};

std::unique_ptr<Pass>
createHkgAutotunePass(const HkgAutotunePassOptions &options,
                      AutotuneHooks hooks);

#define GEN_PASS_REGISTRATION
#include "hkg/Tuner/Passes.h.inc"

} // namespace mlir::hkg

#endif // HKG_TUNER_PASSES_H
