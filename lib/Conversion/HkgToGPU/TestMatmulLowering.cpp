//===- TestMatmulLowering.cpp - test pass outlining hkg.matmul kernels ----===//
//
// `hkg-test-lower-matmul` outlines each scheduled hkg.matmul into its own
// gpu.module @hkg_matmul_<n> holding one kernel built by buildMatmulKernel,
// with the launch dims as known_block_size / known_grid_size. The matmul op
// itself stays in place. Test-only: hkg-lower-to-gpu is the real driver.
//
//===----------------------------------------------------------------------===//

#include "Matmul.h"

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::hkg;

namespace {
struct TestMatmulLoweringPass final
    : PassWrapper<TestMatmulLoweringPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestMatmulLoweringPass)

  TestMatmulLoweringPass() = default;
  TestMatmulLoweringPass(const TestMatmulLoweringPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "hkg-test-lower-matmul"; }
  StringRef getDescription() const final {
    return "Outline each scheduled hkg.matmul into a gpu.func kernel (test)";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<amdgpu::AMDGPUDialect, arith::ArithDialect,
                    gpu::GPUDialect, LLVM::LLVMDialect, memref::MemRefDialect,
                    NVVM::NVVMDialect,
                    nvgpu::NVGPUDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target chip"),
                           llvm::cl::init("")};

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SmallVector<MatmulOp> ops;
    module.walk([&](MatmulOp op) { ops.push_back(op); });
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    int64_t counter = 0;
    for (MatmulOp op : ops) {
      FailureOr<const TargetInfo *> target = getTargetFor(op, chip);
      if (failed(target))
        return signalPassFailure();
      auto kernelOp = cast<HkgKernelOpInterface>(op.getOperation());
      ScheduleAttr schedule = kernelOp.getScheduleAttrOrNull();
      if (!schedule) {
        op.emitOpError("has no schedule; run hkg-default-schedule first");
        return signalPassFailure();
      }
      if (failed(verifySchedule(kernelOp, schedule, **target,
                                [&] { return op.emitOpError(); })))
        return signalPassFailure();
      ResolvedSchedule resolved = resolveSchedule(kernelOp, **target);

      std::string name = "hkg_matmul_" + std::to_string(counter++);
      SmallVector<Type> argTypes;
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes())) {
        auto tt = cast<RankedTensorType>(t);
        argTypes.push_back(MemRefType::get(tt.getShape(), tt.getElementType()));
      }
      OpBuilder b(&getContext());
      b.setInsertionPointToEnd(module.getBody());
      auto gpuModule = gpu::GPUModuleOp::create(b, op.getLoc(), name);
      b.setInsertionPointToStart(gpuModule.getBody());
      auto func = gpu::GPUFuncOp::create(b, op.getLoc(), name,
                                         b.getFunctionType(argTypes, {}));
      func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                    b.getUnitAttr());
      b.setInsertionPointToStart(&func.getBody().front());
      auto ret = gpu::ReturnOp::create(b, op.getLoc());
      b.setInsertionPoint(ret);
      FailureOr<MatmulLaunch> launch =
          buildMatmulKernel(b, func, op, resolved, **target);
      if (failed(launch))
        return signalPassFailure();
      auto toI32 = [&](ArrayRef<int64_t> d) {
        return b.getDenseI32ArrayAttr(
            {static_cast<int32_t>(d[0]), static_cast<int32_t>(d[1]),
             static_cast<int32_t>(d[2])});
      };
      func.setKnownBlockSizeAttr(toI32(launch->block));
      func.setKnownGridSizeAttr(toI32(launch->grid));
      func->setAttr("hkg.schedule", resolved.toAttr(&getContext()));
    }
  }
};
} // namespace

void mlir::hkg::registerTestMatmulLoweringPass() {
  PassRegistration<TestMatmulLoweringPass>();
}
