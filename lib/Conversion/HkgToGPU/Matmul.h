//===- Matmul.h - hkg.matmul kernel builder ---------------------*- C++ -*-===//
//
// Fills the body of a gpu.func with the kernel of one hkg.matmul: LDS-staged
// workgroup tiles, matrix-core (mma.sync / wgmma / MFMA / WMMA) or FMA warp
// tiles, a pipelined K loop and the fused epilogue at the store (Matmul.cpp
// gives the overview).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_MATMUL_H
#define HKG_LIB_CONVERSION_HKGTOGPU_MATMUL_H

#include "GPUBuildingBlocks.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/ScheduleSpace.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <array>

namespace mlir::hkg {

/// Launch dims of a matmul kernel, fixed at compile time.
struct MatmulLaunch {
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// Workgroups per cluster (split_k > 1 on sm_90).
  std::array<int64_t, 3> cluster = {1, 1, 1};
  /// A dynamic M: the grid's x is ceil(M * mul / div) * times at launch
  /// (KernelContext::setGridX), [mul, div, times].
  std::optional<std::array<int64_t, 3>> gridX;
};

/// Builds the kernel of `op` into `kernel`; `args` are its buffers: the
/// memrefs lhs, rhs, the epilogue inputs, then the result (with a dynamic
/// M, viewed at their full extent: `dynM`, an index value; else null). `b`
/// must be positioned in the kernel's entry block before its terminator.
/// LDS buffers are added as workgroup attributions of `kernel`. The
/// schedule must have been verified against `op` and `target`.
FailureOr<MatmulLaunch> buildMatmulKernel(OpBuilder &b, gpu::GPUFuncOp kernel,
                                          MatmulOp op,
                                          const ResolvedSchedule &schedule,
                                          const TargetInfo &target,
                                          ValueRange args, Value dynM);

/// The family's entry point (KernelLowerings.def): builds the kernel and
/// sets its launch dims.
LogicalResult lowerMatmul(MatmulOp op, KernelContext &kc);
/// hkg.matmul_w4a16: the weight-streaming kernel (MatmulW4A16.cpp), or with
/// a matrix-core `mma` the kernel of MatmulW4A16MatrixCore.cpp.
LogicalResult lowerMatmulW4A16(MatmulW4A16Op op, KernelContext &kc);
LogicalResult lowerMatmulW4A16MatrixCore(MatmulW4A16Op op, KernelContext &kc);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_MATMUL_H
