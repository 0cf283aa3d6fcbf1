//===- DefaultSchedule.cpp - attach default schedules ---------------------===//

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#define DEBUG_TYPE "hkg-default-schedule"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGDEFAULTSCHEDULEPASS
#include "hkg/Dialect/Hkg/Transforms/Passes.h.inc"
} // namespace mlir::hkg

namespace mlir::hkg {
namespace {
struct HkgDefaultSchedulePass final
    : impl::HkgDefaultSchedulePassBase<HkgDefaultSchedulePass> {
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
      if (!schedule) {
        schedule = op.getDefaultSchedule(**target);
        op.setScheduleAttrTo(schedule);
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
