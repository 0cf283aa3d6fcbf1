// hkg.matmul kernels (IR), one per matrix-core family and the FMA fallback.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_80 --hkg-lower-to-gpu=chip=sm_80 --canonicalize --cse | FileCheck %s --check-prefix=SM80
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 --canonicalize --cse | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 --canonicalize --cse | FileCheck %s --check-prefix=GFX1100

// The fused bias add of a QKV-style projection (B transposed): one kernel,
// the epilogue applied to the accumulators right before the store.
func.func @bias(%x: tensor<256x512xbf16>, %w: tensor<256x512xbf16>, %bias: tensor<1x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %x, %w epilogue(%bias : tensor<1x256xbf16>) {transpose_b}
      : tensor<256x512xbf16>, tensor<256x512xbf16> -> tensor<256x256xbf16> {
  ^bb0(%acc: f32, %b: bf16):
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %acc, %bf : f32
    %r = arith.truncf %s : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<256x256xbf16>
}

// NVIDIA (sm_80; sm_90 below): 128x128x32 tiles, 4 warps of 64x64, a
// 3-stage cp.async pipeline into swizzled shared memory, ldmatrix fragments,
// m16n8k16 mma.sync.
// SM80-LABEL: gpu.module @hkg_matmul_0
// SM80: gpu.func @hkg_matmul_0(%{{.*}}: memref<256x512xbf16>, %{{.*}}: memref<256x512xbf16>, %{{.*}}: memref<1x256xbf16>, %{{.*}}: memref<256x256xbf16>)
// SM80-SAME: workgroup(%[[LA:.*]] : memref<3x128x32xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LB:.*]] : memref<3x128x32xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// SM80-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 1, 1>
// SM80: arith.xori
// SM80: nvgpu.device_async_copy {{.*}}, %[[LA]][{{.*}}], 8 {bypassL1}
// SM80: nvgpu.device_async_copy {{.*}}, %[[LB]][{{.*}}], 8 {bypassL1}
// SM80: %[[G0:.*]] = nvgpu.device_async_create_group
// SM80: nvgpu.device_async_create_group
// SM80: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args({{.*}}) -> (vector<4xf32>,
// SM80: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// SM80-NEXT: gpu.barrier
// SM80: nvgpu.device_async_copy
// SM80: nvgpu.device_async_create_group
// SM80: nvgpu.ldmatrix %[[LA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : {{.*}} -> vector<4x2xbf16>
// SM80: nvgpu.ldmatrix %[[LB]][{{.*}}] {numTiles = 4 : i32, transpose = false} : {{.*}} -> vector<4x2xbf16>
// SM80: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// SM80: scf.yield
// SM80: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// SM80: %[[BIAS:.*]] = vector.load %{{.*}} : memref<1x1x256xbf16>, vector<2xbf16>
// SM80: vector.extract %[[BIAS]][0]
// SM80: arith.extf
// SM80: arith.addf
// SM80: arith.truncf
// SM80: vector.store %{{.*}} {alignment = 4 : i64} : memref<1x256x256xbf16>, vector<2xbf16>

// Hopper, K-major operands: warpgroup MMA by default. Two warpgroups of
// 64x128 (256 threads), 128x128x64 tiles over 3 stages (96 KiB: dynamic
// shared memory, 1024-byte aligned), the cp.async writes fenced for the
// async proxy, four m64n128k16 wgmmas per K tile on descriptors, the
// accumulators in one struct; the kernel is marked for sm_90a.
// SM90-LABEL: gpu.module @hkg_matmul_0
// SM90: gpu.func @hkg_matmul_0(
// SM90-SAME: hkg.arch_specific
// SM90-SAME: hkg.dynamic_lds_bytes = 98304
// SM90-SAME: mma = wgmma_64x128x16
// SM90-SAME: tile_k = 64, tile_m = 128, tile_n = 128
// SM90-SAME: known_block_size = array<i32: 256, 1, 1>
// SM90: gpu.dynamic_shared_memory
// SM90: nvgpu.device_async_copy
// SM90: scf.for {{.*}} -> (!llvm.struct<(f32, f32,
// SM90: nvgpu.device_async_wait
// SM90-NEXT: llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;"
// SM90-NEXT: gpu.barrier
// SM90: memref.extract_aligned_pointer_as_index
// SM90: llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;"
// SM90-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// SM90: llvm.inline_asm has_side_effects "wgmma.commit_group.sync.aligned;"
// SM90: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;"
// SM90: scf.yield
// SM90: llvm.extractvalue
// SM90: arith.addf
// SM90: vector.store %{{.*}} : memref<1x256x256xbf16>, vector<2xbf16>

// CDNA3: 4 waves of 64x64 in 16x16x16 MFMAs; the next K tile is loaded
// into registers while the current one is multiplied.
// GFX942-LABEL: gpu.module @hkg_matmul_0
// GFX942: workgroup(%[[LA:.*]] : memref<2x128x32xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LB:.*]] : memref<2x128x32xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// GFX942-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 1, 1>
// GFX942: vector.load %{{.*}} {alignment = 16 : i64} : memref<1x256x512xbf16>, vector<8xbf16>
// GFX942: vector.store %{{.*}}, %[[LA]][{{.*}}] {alignment = 16 : i64}
// GFX942: gpu.barrier
// GFX942: scf.for
// GFX942: vector.load %{{.*}} : memref<1x256x512xbf16>, vector<8xbf16>
// GFX942: vector.load %[[LA]][{{.*}}] {alignment = 8 : i64} : memref<2x128x32xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GFX942: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// GFX942: scf.if
// GFX942: vector.store
// GFX942: gpu.barrier
// GFX942: scf.yield
// GFX942: arith.addf
// GFX942: memref.store %{{.*}} : memref<1x256x256xbf16>

// RDNA3: wave32, 8 waves of 64x32 in 16x16x16 WMMAs (16 K values a lane).
// GFX1100-LABEL: gpu.module @hkg_matmul_0
// GFX1100: known_block_size = array<i32: 256, 1, 1>
// GFX1100: scf.for
// GFX1100: vector.shuffle
// GFX1100: amdgpu.wmma 16x16x16 {{.*}} : vector<16xbf16>, vector<16xbf16>, vector<8xf32>

// -----

// f32 operands take the FMA fallback (mma = none): register micro-tiles
// from padded LDS rows.
func.func @f32(%a: tensor<128x256xf32>, %b: tensor<256x96xf32>) -> tensor<128x96xf32> {
  %0 = hkg.matmul %a, %b : tensor<128x256xf32>, tensor<256x96xf32> -> tensor<128x96xf32>
  return %0 : tensor<128x96xf32>
}
// SM80-LABEL: gpu.module @hkg_matmul_0
// SM80: workgroup(%{{.*}} : memref<2x64x20xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<2x16x68xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// SM80-SAME: known_grid_size = array<i32: 4, 1, 1>
// SM80: nvgpu.device_async_copy
// SM80: scf.for
// SM80: vector.fma {{.*}} : vector<4xf32>
// SM80: scf.yield
// The 96 columns are not a multiple of the 64-column tile: guarded stores.
// SM80: scf.if
// SM80: memref.store
// GFX942-LABEL: gpu.module @hkg_matmul_0
// GFX942: vector.fma {{.*}} : vector<4xf32>
// GFX942-NOT: amdgpu.mfma
// GFX942: scf.if

// -----

// Decode (M = 16): one row of tiles, warps along N, long K steps, K split
// over 4 workgroups per tile (the partial sums meet in a global workspace:
// matmul-split-k-workspace.mlir).
func.func @decode(%a: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  %0 = hkg.matmul %a, %w {transpose_b} : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
  return %0 : tensor<16x4096xbf16>
}
// SM80-LABEL: gpu.module @hkg_matmul_0
// SM80: memref.global "private" @hkg_matmul_0_split_k_partials : memref<128x4x512xf32, #gpu.address_space<global>>
// The two 4-stage tiles (48 KiB) and the workgroup's 4-byte flag of the
// workspace reduction, as dynamic shared memory.
// SM80: hkg.dynamic_lds_bytes = 49156
// SM80-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 512, 1, 1>
// SM80: nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
// SM80: nvgpu.ldmatrix %{{.*}}[{{.*}}] {numTiles = 2 : i32, transpose = false} : {{.*}} -> vector<2x2xbf16>
// SM80: memref.atomic_rmw addi
// GFX942-LABEL: gpu.module @hkg_matmul_0
// GFX942: memref.global "private" @hkg_matmul_0_split_k_partials : memref<64x4x1024xf32, #gpu.address_space<global>>
// GFX942: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 256, 1, 1>
// GFX942: memref.atomic_rmw addi

// -----

// Batched, transposed A, shapes that are not multiples of the tile, and a
// residual epilogue operand of the full result shape.
func.func @edges(%a: tensor<3x200x100xf16>, %b: tensor<3x200x72xf16>, %r: tensor<3x100x72xf32>) -> tensor<3x100x72xf32> {
  %0 = hkg.matmul %a, %b epilogue(%r : tensor<3x100x72xf32>) {transpose_a} : tensor<3x200x100xf16>, tensor<3x200x72xf16> -> tensor<3x100x72xf32> {
  ^bb0(%acc: f32, %res: f32):
    %o = arith.addf %acc, %res : f32
    hkg.yield %o : f32
  }
  return %0 : tensor<3x100x72xf32>
}
// SM80-LABEL: gpu.module @hkg_matmul_0
// SM80: gpu.func @hkg_matmul_0(%{{.*}}: memref<3x200x100xf16>
// SM80-SAME: known_grid_size = array<i32: 1, 1, 3>
// Zero-filled copies past the edges (src elements 0), 8-byte chunks.
// SM80: nvgpu.device_async_copy {{.*}}, 4, %{{.*}} :
// Transposed A: ldmatrix .trans from [k][m] rows; f16 uses nvgpu.mma.sync.
// SM80: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// SM80: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// SM80: scf.if
// SM80: memref.load %{{.*}} : memref<3x100x72xf32>
// SM80: arith.addf
// SM80: memref.store %{{.*}} : memref<3x100x72xf32>
// GFX942-LABEL: gpu.module @hkg_matmul_0
// GFX942: arith.select
// GFX942: amdgpu.mfma 16x16x16 {{.*}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// GFX942: scf.if
