//===- Passes.td - hkg conversion passes -------------------*- tablegen -*-===//

#ifndef HKG_CONVERSION_PASSES_TD
#define HKG_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def HkgLowerToGPUPass : Pass<"hkg-lower-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower each scheduled hkg op to one gpu.func kernel and its "
                "launch";
  let description = [{
    Every hkg kernel op must carry a schedule (run `hkg-default-schedule` or
    `hkg-autotune` first); the schedule is verified against the op and the
    target, then the op becomes one `gpu.func` kernel in its own
    `gpu.module @hkg_<op>_<n>`, written with the `gpu`, `scf`, `vector`,
    `memref`, `arith` and `math` dialects. The schedule's knobs shape the
    kernel: vector width of the global accesses, workgroup size, rows per
    workgroup, unrolling, where a row is cached (registers or LDS), single
    pass or online softmax.

    The kernel takes static-shape memrefs: the op's tensor operands, then its
    result. It carries `known_block_size`, `known_grid_size`, `hkg.op`,
    `hkg.schedule` (every knob spelled out), `hkg.arg_roles` and
    `hkg.source` (a module holding just the original op, for references).
    On the host side the op becomes a `gpu.launch_func` on bufferized
    operands, and its result a `bufferization.to_tensor` of a fresh buffer.

    Global pointers are assumed 16-byte aligned (the kernel ABI).

    Before:
    ```mlir
    %y = hkg.rmsnorm %x weight(%w : tensor<4096xbf16>) eps(1.0e-06)
        {schedule = #hkg.schedule<...>}
        : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
    ```
    After:
    ```mlir
    %0 = bufferization.to_buffer %x read_only : ... to memref<64x4096xbf16>
    %1 = bufferization.to_buffer %w read_only : ... to memref<4096xbf16>
    %2 = memref.alloc() : memref<64x4096xbf16>
    gpu.launch_func @hkg_rmsnorm_0::@hkg_rmsnorm_0 blocks in (%c64, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%0 : ..., %1 : ..., %2 : ...)
    %y = bufferization.to_tensor %2 restrict writable : ...
    ...
    gpu.module @hkg_rmsnorm_0 {
      gpu.func @hkg_rmsnorm_0(%x: memref<64x4096xbf16>, %w: memref<4096xbf16>,
          %y: memref<64x4096xbf16>) kernel attributes {known_block_size = ...}
    }
    ```

    `hkg.matmul` becomes an LDS-tiled matrix-core kernel (nvgpu ldmatrix,
    cp.async and mma.sync on NVIDIA, warpgroup MMA on Hopper; amdgpu.mfma /
    amdgpu.wmma on AMD; FMAs with `mma = none`) with its epilogue fused at
    the store (Matmul.cpp).
    `hkg.attention` becomes one FlashAttention-2-style kernel: Q blocks per
    workgroup, K/V blocks staged through LDS, an online softmax, mma.sync on
    NVIDIA and FMAs with `mma = none` on every target (Attention.cpp).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip; default: the hkg.target attribute">
  ];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // HKG_CONVERSION_PASSES_TD
