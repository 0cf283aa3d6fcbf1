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

def HkgRaiseLinalgPass : Pass<"hkg-raise-linalg"> {
  let summary = "Raise linalg on tensors (Torch-MLIR's output) to hkg ops";
  let description = [{
    Turns the linalg-on-tensors form that Torch-MLIR and IREE produce into
    hkg kernel ops, so that a PyTorch program compiles to hkg kernels:

    1. Named linalg ops (`linalg.matmul`, `linalg.batch_matmul`,
       `linalg.transpose`, `linalg.add`, ...) are generalized to
       `linalg.generic`; `linalg.fill` stays (it is how inits are written).
    2. The compositions torch.export decomposes are rebuilt as the hkg op:
       - `x * cos + rotate_half(x) * sin` (rotate_half: the two halves of
         the last dim swapped, the first negated; cos/sin `[P, D]` tables
         read at (token, feature)) becomes `hkg.rope` neox with full-width
         tables, applied before a `[B, S, H, D]` to `[B, H, S, D]`
         transpose when Llama rotates after it;
       - scaled dot-product attention (two batch matmuls around a softmax,
         scales on q and k, a causal mask built from iotas or an
         additive mask, the fully-masked-row guard, grouped-query heads
         broadcast from the key/value heads) becomes `hkg.attention` with
         that scale, `causal` for the causal mask, the additive mask (any
         tensor added to the scores, in f32 or widened from 16 bits, that
         broadcasts to [B, H, Sq, Skv] from its trailing dims; expanded to
         rank 4 by a `tensor.expand_shape`) as its `mask`, and
         `layout(bshd)` when q, k and v are the transposes of token-major
         tensors (the output's transpose back folds in). A composition
         that is attention but cannot be expressed (a mask read otherwise,
         a causal offset other than Skv - Sq) keeps its steps, with a
         remark saying why;
       - cross-entropy (mean over the targets not ignored: log_softmax, a
         gather at the targets, a masked sum over a count) becomes two
         `hkg.reduce`: `logsumexp, sum` per row (logsumexp minus the
         target's logit, picked by `hkg.index`; a target out of range
         that is not the ignore index gives NaN, not a silent 0), then
         `sum, sum` for the masked mean (f32 count, up to 2^24 rows).
    3. Elementwise producers are fused into their consumers (upstream
       linalg elementwise fusion): chains of maps become one body, a
       transpose becomes an indexing map, a map before a reduction becomes
       its prologue. A contraction takes only transposes and broadcasts
       this way, never arithmetic: what follows a matmul becomes its
       epilogue instead (`hkg-fuse`).
    4. Each `linalg.generic` becomes one hkg op:
       - all loops parallel: `hkg.elementwise`, its inputs read through the
         generic's indexing maps, `linalg.index` as `hkg.index`;
       - a contraction (batch, M, N, K loops; a multiply-accumulate body):
         `hkg.matmul`, transposes as `transpose_a` / `transpose_b`, a
         non-zero init as an epilogue that adds it;
       - reduction loops over adjacent dims of one input with a
         `sum` / `prod` / `max` / `min` combiner: `hkg.reduce` with the
         rest of the body as its prologue and a non-identity init folded
         into an epilogue (`arith.maximumf` / `minimumf`, where a NaN
         wins, are the `maximum` / `minimum` kinds). hkg reductions
         accumulate in f32: an f64 accumulator (torch's LayerNorm variance)
         is narrowed, and its f32 result widened where it is read; an i1
         `and` / `or` (an all / any, SDPA's fully-masked-row guard) is the
         `min` / `max` of the values as 0.0 / 1.0, compared with 0 where it
         is read.

    A generic that fits none of these is left as it is and named in a
    remark (`hkg-reject-host-ops` then refuses it, or, with
    `allow-host-ops`, leaves it to the caller): nothing is dropped.

    Before:
    ```mlir
    %e = tensor.empty() : tensor<64x128xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>)
        outs(%e : tensor<64x128xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<64x128xf32>
    ```
    After:
    ```mlir
    %0 = hkg.elementwise %a, %b {indexing_maps = [#id, #id]}
        : tensor<64x128xf32>, tensor<64x128xf32> -> tensor<64x128xf32> {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      hkg.yield %s : f32
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::hkg::HkgDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // HKG_CONVERSION_PASSES_TD
