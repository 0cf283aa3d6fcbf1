//===- Matmul.cpp - hkg.matmul to a tiled matrix-core kernel --------------===//
//
// One workgroup computes a tile_m x tile_n block of one batch of the result.
// The K dimension is walked in tile_k steps; each step's A and B tiles are
// copied into LDS (`stages` buffers, rows padded by lds_pad elements and/or
// 16-byte chunks XOR-swizzled), then waves_m x waves_n waves each compute a
// (tile_m / waves_m) x (tile_n / waves_n) warp tile from LDS with the
// schedule's matrix-core family, one file each:
//
//   - mma_16x8x16 (NVIDIA): ldmatrix fragments feeding mma.sync m16n8k16
//     (MatmulMmaSync.cpp);
//   - wgmma_64xNx16 (NVIDIA sm_90a): warpgroup MMA reading both operands
//     from LDS through matrix descriptors, in inline PTX
//     (MatmulWgmma.cpp);
//   - mfma_* (CDNA) and wmma_* (RDNA): per-lane vector loads of the
//     documented operand layouts feeding amdgpu.mfma / amdgpu.wmma
//     (MatmulMFMA.cpp, MatmulWMMA.cpp over MatmulAMDMatrixCore.cpp);
//   - none: a register-blocked FMA micro-tile per thread (MatmulFMA.cpp).
//
// Around them, the tile pipeline (MatmulTilePipeline.cpp) maps workgroups
// to tiles (group_m rows of tiles at a time, split_k workgroups of a
// cluster per tile) and feeds the K loop: on NVIDIA, cp.async copies in a
// `stages`-deep pipeline (cp.async.wait_group stages - 2); elsewhere the
// next tile is prefetched from global memory into registers while the
// current one is computed (double buffering in LDS when stages >= 2).
//
// LDS tiles keep the global layout of their operand (rows along the
// non-contiguous dim), so a global row chunk is copied without transposing;
// the fragment loads absorb transpose_a / transpose_b (the AMD families,
// which want K contiguous, transpose at the LDS store instead).
//
// The f32 accumulators stay in registers; at the end the op's epilogue
// region is cloned per element at the store (MatmulEpilogue.cpp). Edges (M,
// N or K not multiples of the tile) are handled by zero-filled loads and
// guarded stores, emitted only when the static shape needs them.
//
//===----------------------------------------------------------------------===//

#include "Matmul.h"
#include "MatmulTilePipeline.h"

using namespace mlir;
using namespace mlir::hkg;

FailureOr<MatmulLaunch>
mlir::hkg::buildMatmulKernel(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
                             const ResolvedSchedule &schedule,
                             const TargetInfo &target, ValueRange args,
                             Value dynM) {
  if (args.size() != op->getNumOperands() + 1)
    return op.emitOpError("expected a kernel with ")
           << op->getNumOperands() + 1 << " buffers, got " << args.size();
  if (op.hasEpilogue()) {
    WalkResult captured = op.getEpilogue().walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        if (op.getEpilogue().isAncestor(v.getParentRegion()))
          continue;
        Operation *def = v.getDefiningOp();
        if (!def || !def->hasTrait<OpTrait::ConstantLike>()) {
          op.emitOpError("epilogue captures a non-constant value defined "
                         "outside it; expected epilogue operands instead");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (captured.wasInterrupted())
      return failure();
  }
  return matmul::TilePipeline(b, kernel, op, MatmulSchedule::decode(schedule),
                              target, args, dynM)
      .build();
}

LogicalResult mlir::hkg::lowerMatmul(MatmulOp op, KernelContext &kc) {
  // A dynamic M is the kernel's one size parameter (no batch with it:
  // MatmulOp's verifier).
  Value dynM = kc.hasSizes() ? kc.sizes.front() : Value();
  FailureOr<MatmulLaunch> launch = buildMatmulKernel(
      kc.b, kc.func, op, kc.schedule, kc.target, kc.args, dynM);
  if (failed(launch))
    return failure();
  kc.grid = launch->grid;
  if (launch->gridX)
    kc.setGridX((*launch->gridX)[0], (*launch->gridX)[1], (*launch->gridX)[2]);
  kc.block = launch->block;
  kc.cluster = launch->cluster;
  return success();
}
