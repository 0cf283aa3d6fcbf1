//===- VerifySchedule.cpp - check schedules against ops and targets -------===//

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#define DEBUG_TYPE "hkg-verify-schedule"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGVERIFYSCHEDULEPASS
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"
} // namespace mlir::hkg

namespace mlir::hkg {
namespace {
struct HkgVerifySchedulePass final
    : impl::HkgVerifySchedulePassBase<HkgVerifySchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](HkgKernelOpInterface op) {
      FailureOr<const TargetInfo *> target = getTargetFor(op, chip);
      if (::mlir::failed(target)) {
        failed = true;
        return WalkResult::interrupt();
      }
      ScheduleAttr schedule = op.getScheduleAttrOrNull();
      if (!schedule && requireSchedule) {
        op.emitOpError("has no schedule; run hkg-default-schedule or "
                       "hkg-autotune first");
        failed = true;
        return WalkResult::advance();
      }
      if (::mlir::failed(verifySchedule(op, schedule, **target,
                                        [&] { return op.emitOpError(); })))
        failed = true;
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::hkg
