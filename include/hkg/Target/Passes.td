//===- Passes.td - hkg passes on the gpu dialect -----------*- tablegen -*-===//
//
// Passes that prepare gpu-dialect kernels for upstream's ROCDL/NVVM
// conversions where upstream has patterns but no pass.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TARGET_PASSES_TD
#define HKG_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def HkgLowerSubgroupOpsPass
    : Pass<"hkg-lower-subgroup-ops", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.subgroup_reduce to DPP (AMD) or shuffles, and "
                "gpu.subgroup_size to the wave size";
  let description = [{
    `convert-gpu-to-rocdl` and `convert-gpu-to-nvvm` do not lower
    `gpu.subgroup_reduce` on floats. This pass wraps upstream's patterns:
    reductions wider than 32 bits are broken into 32-bit pieces
    (`populateGpuBreakDownSubgroupReducePatterns`), then lowered to `amdgpu.dpp`
    and `rocdl.readlane` steps on AMD chips
    (`populateGpuLowerSubgroupReduceToDPPPatterns`, with the butterfly shuffle
    lowering as fallback) or to a butterfly of `gpu.shuffle xor` on NVIDIA
    (`populateGpuLowerSubgroupReduceToShufflePatterns`). The subgroup size is
    the target's wave (warp) size.

    `gpu.subgroup_size` becomes that wave size as a constant (hkg compiles
    for one chip, and `convert-gpu-to-nvvm` has no lowering for it).

    Before (`--hkg-lower-subgroup-ops=chip=sm_90`):
    ```mlir
    %r = gpu.subgroup_reduce add %x : (f32) -> f32
    %n = gpu.subgroup_size : index
    ```
    After:
    ```mlir
    %s0, %v0 = gpu.shuffle xor %x, %c1, %c32 : f32
    %a0 = arith.addf %x, %s0 : f32
    ...   // 5 steps for a 32-lane warp
    %n = arith.constant 32 : index
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip; default: the hkg.target attribute">,
    Option<"useDpp", "use-dpp", "bool", /*default=*/"true",
           "On AMD chips, lower with DPP row operations instead of shuffles">,
  ];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::ROCDL::ROCDLDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def HkgLLVMLoopAnnotationsPass
    : Pass<"hkg-llvm-loop-annotations", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the loop annotations that convert-scf-to-cf carries "
                "onto branches ones LLVM reads";
  let description = [{
    `convert-scf-to-cf` moves an `scf.for`'s `llvm.loop_annotation`
    (e.g. `unroll = <disable = true>`) to the loop's latch branch as a
    discardable attribute, and `convert-cf-to-llvm` keeps it there on the
    `llvm.br` / `llvm.cond_br`; LLVM translation reads only the branch's own
    `loop_annotation` property, so the annotation would be dropped. Run
    after the GPU-to-ROCDL / NVVM conversion, this pass moves it into the
    property.

    Before: `llvm.br ^bb1(...) {llvm.loop_annotation = #a}`;
    after: `llvm.br ^bb1(...) {loop_annotation = #a}`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def HkgNVVMStreamingAccessPass
    : Pass<"hkg-nvvm-streaming-access", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower nontemporal llvm.load / llvm.store to PTX's "
                "ld/st.global.cs, or loads with an L1 + L2 cache policy";
  let description = [{
    The NVPTX backend drops `nontemporal` (AMDGPU turns it into the `nt`
    bit), so this pass, run on NVVM kernels after `convert-gpu-to-nvvm`,
    lowers each nontemporal `llvm.load` / `llvm.store` of 4, 8 or 16 bytes
    itself: the pointer is cast to the global address space and the access
    becomes `ld.global.cs` / `st.global.cs` (`.b32`, `.v2.b32`, `.v4.b32`)
    inline PTX: "cache streaming, likely accessed once", lines allocated with
    the evict-first policy in L1 and L2. Other accesses are left alone (a
    nontemporal access of another size, or aligned to less than its size,
    stays a plain one, which NVPTX splits as needed). hkg's lowering
    marks the row and element streams nontemporal under the experimental
    `hkg.streaming_access` attribute (docs/Lowering.md).

    In a function with `hkg.load_eviction = "first"` or `"last"` (set by
    hkg-lower-to-gpu; "last" is the default of the streaming ops on NVIDIA)
    the nontemporal loads instead become
    `ld.global.L1::evict_<p>.L2::cache_hint` with one
    `createpolicy.fractional.L2::evict_<p>.b64` policy made at the
    function's entry: what Triton emits for `eviction_policy`.

    Before:
    ```mlir
    %v = llvm.load %p {alignment = 16 : i64, nontemporal} : !llvm.ptr -> vector<8xbf16>
    ```
    After:
    ```mlir
    %g = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
    %s = llvm.inline_asm "ld.global.cs.v4.b32 {$0, $1, $2, $3}, [$4];",
           "=r,=r,=r,=r,l" %g : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
    ...   // the four words into vector<4xi32>, bitcast to vector<8xbf16>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def HkgCheckGPUTargetsPass
    : Pass<"hkg-check-gpu-targets", "::mlir::ModuleOp"> {
  let summary = "Refuse gpu.modules that already target another GPU kind";
  let description = [{
    The first step of hkg-gpu-to-rocdl and hkg-gpu-to-nvvm: their attach
    step adds a target to every gpu.module, and a module that already
    carries one of the other kind (an `#nvvm.target` met by the ROCDL
    pipeline, or an `#rocdl.target` by the NVVM one) would be serialized for
    both, failing late with a toolkit error for the foreign target. Such a
    module is an error naming it and its target; modules without targets,
    or with targets of the pipeline's own kind, are left alone.

    `kind`: `rocdl` or `nvvm`, the pipeline's kind.
  }];
  let options = [
    Option<"kind", "kind", "std::string", /*default=*/"\"\"",
           "the pipeline's GPU kind: rocdl or nvvm">,
  ];
}

def HkgCheckGPULimitsPass
    : Pass<"hkg-check-gpu-limits", "::mlir::ModuleOp"> {
  let summary = "Refuse vector, tensor and memref types no GPU can hold";
  let description = [{
    The first step of hkg's pipelines. A `vector<1099511627776xf32>` in a
    gpu.func used to send the LLVM backend splitting it into scalars for
    minutes; a tensor whose element count overflows 64 bits breaks the size
    arithmetic of the lowering. This pass walks every type an op holds
    (results, block arguments, type attributes such as a function's type)
    and refuses, naming the type and the bound:

    - a vector holding more bits than four times a lane's register file on
      `chip` (`maxRegistersPerThread` 32-bit registers; 65536 bits on gfx942,
      32640 on sm_90),
    - a ranked tensor or memref of static shape holding more than 2^48 bytes
      (more than any device's memory, and far from int64 overflow).

    Before:
    ```mlir
    gpu.func @k(%a: vector<1099511627776xf32>) kernel { gpu.return }
    ```
    After: `error: vector<1099511627776xf32> holds 35184372088832 bits; a
    gfx942 lane holds at most 65536 bits of registers (4 x 512 x 32)`.

    `chip`: the target chip (gfx942, sm_90, ...).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"",
           "the target chip">,
  ];
}

def HkgNVVMArchSpecificTargetPass
    : Pass<"hkg-nvvm-arch-specific-target", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Move the NVVM target of modules with wgmma kernels to the "
                "arch-specific chip (sm_90a), and of modules with bulk-copy "
                "kernels to PTX ISA 8.0";
  let description = [{
    Hopper's warpgroup MMA (`wgmma.mma_async`) exists only for the
    arch-specific PTX target `sm_90a` (PTX ISA 8.0). hkg-lower-to-gpu marks
    the kernels that use it `hkg.arch_specific`; in a gpu.module holding
    one, this pass rewrites each `#nvvm.target` whose chip has no `a` suffix
    to the chip with it, and its features to at least `+ptx80`. Kernels
    marked `hkg.ptx80` (bulk asynchronous copies and proxy fences: sm_90
    instructions that PTX ISA 7.8 lacks) raise the features to at least
    `+ptx80` and keep the chip. Run after `nvvm-attach-target`; a no-op for
    other modules.

    Before: `gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx78">]`
    holding a `gpu.func` with `hkg.arch_specific`.
    After: `gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">]`.
    With `hkg.ptx80` instead:
    `gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx80">]`.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def HkgNVVMDynamicSharedMemoryPass
    : Pass<"hkg-nvvm-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the dynamic shared memory of NVVM kernels "
                "`.extern .shared`";
  let description = [{
    `convert-gpu-to-nvvm` lowers `gpu.dynamic_shared_memory` to an internal
    zero-size `llvm.mlir.global` in address space 3. The NVPTX backend
    demotes such a global into the kernel as a 1-byte `.shared` variable,
    so accesses past its first byte only work by where the driver happens
    to place the dynamic allocation. PTX's declaration of dynamic shared
    memory is an external unsized array; this pass gives every zero-size
    address-space-3 global external linkage, which NVPTX prints as
    `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // HKG_TARGET_PASSES_TD
