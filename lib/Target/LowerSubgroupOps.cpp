//===- LowerSubgroupOps.cpp - subgroup ops for one target -----------------===//
//
// Wraps upstream's subgroup-reduce lowering patterns in a pass, since MLIR
// ships them only through a test pass, and folds gpu.subgroup_size to the
// target's wave size.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Target/Passes.h"

#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "hkg-lower-subgroup-ops"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGLOWERSUBGROUPOPSPASS
#include "hkg/Target/Passes.h.inc"
} // namespace mlir::hkg

namespace mlir::hkg {
namespace {
struct HkgLowerSubgroupOpsPass final
    : impl::HkgLowerSubgroupOpsPassBase<HkgLowerSubgroupOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    FailureOr<const TargetInfo *> target = getTargetFor(module, chip);
    if (failed(target))
      return signalPassFailure();
    unsigned subgroupSize = (*target)->waveSize;

    module.walk([&](gpu::SubgroupSizeOp op) {
      OpBuilder builder(op);
      Value size =
          arith::ConstantIndexOp::create(builder, op.getLoc(), subgroupSize);
      op.replaceAllUsesWith(size);
      op.erase();
    });

    RewritePatternSet patterns(&getContext());
    // 64-bit gpu.shuffle (e.g. i64 scans) as two 32-bit shuffles.
    populateGpuShufflePatterns(patterns);
    populateGpuBreakDownSubgroupReducePatterns(patterns,
                                               /*maxShuffleBitwidth=*/32,
                                               PatternBenefit(3));
    if ((*target)->isAMD() && useDpp) {
      FailureOr<amdgpu::Chipset> chipset =
          amdgpu::Chipset::parse((*target)->chip);
      if (failed(chipset)) {
        module.emitError("cannot parse AMD chip '") << (*target)->chip << "'";
        return signalPassFailure();
      }
      populateGpuLowerSubgroupReduceToDPPPatterns(patterns, subgroupSize,
                                                  *chipset, PatternBenefit(2));
      populateGpuLowerClusteredSubgroupReduceToDPPPatterns(
          patterns, subgroupSize, *chipset, PatternBenefit(2));
    }
    // Butterfly shuffles: the NVIDIA lowering and the AMD fallback for what
    // the DPP patterns do not take.
    populateGpuLowerSubgroupReduceToShufflePatterns(
        patterns, subgroupSize, /*shuffleBitwidth=*/32, PatternBenefit(1));
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, subgroupSize, /*shuffleBitwidth=*/32, PatternBenefit(1));
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    WalkResult result = module.walk([&](gpu::SubgroupReduceOp op) {
      op.emitOpError("could not be lowered for ")
          << (*target)->chip << " (subgroup size " << subgroupSize
          << "); expected a scalar or vector of at most 32-bit elements";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::hkg
