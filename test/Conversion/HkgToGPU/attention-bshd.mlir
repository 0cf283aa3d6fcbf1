// hkg.attention with layout(bshd) (Attention.cpp): every operand and the
// result are [B, S, H, D], so every global access indexes
// [batch, row, head, col] where bhsd indexes [batch, head, row, col]
// (attention.mlir); the grid, the LDS tiles and the loops are those of
// bhsd. Grouped-query (4 query heads over 2 key/value heads), causal with
// Skv > Sq, bf16, the same shapes as attention.mlir transposed.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu --canonicalize --cse | FileCheck %s

// sm_90, mma.sync: Q, K and V tiles by cp.async from [b, row, head, col],
// the output stored at [b, row, head, col].
// CHECK-LABEL: func.func @bshd_sm90(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c4, %c1) threads in (%c128, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(%{{.*}}: memref<1x128x4x64xbf16>, %{{.*}}: memref<1x256x2x64xbf16>, %{{.*}}: memref<1x256x2x64xbf16>, %{{.*}}: memref<1x128x4x64xbf16>)
// CHECK-SAME: workgroup(%[[LQ:.*]] : memref<64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LK:.*]] : memref<2x64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LV:.*]] : memref<2x64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = mma_16x8x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4, wgmma_overlap = 0, wgmma_pipeline = 0>
// CHECK-SAME: known_grid_size = array<i32: 2, 4, 1>
// CHECK: %[[HY:.*]] = gpu.block_id  y
// CHECK: %[[BZ:.*]] = gpu.block_id  z
// CHECK: %[[KVH:.*]] = arith.divui %[[HY]], %c2 : index
// CHECK: nvgpu.device_async_copy %arg0[%[[BZ]], %{{.*}}, %[[HY]], %{{.*}}], %[[LQ]][%{{.*}}, %{{.*}}], 8 {bypassL1} : memref<1x128x4x64xbf16>
// CHECK: nvgpu.device_async_copy %arg1[%[[BZ]], %{{.*}}, %[[KVH]], %{{.*}}], %[[LK]][%c0, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<1x256x2x64xbf16>
// CHECK: nvgpu.device_async_copy %arg2[%[[BZ]], %{{.*}}, %[[KVH]], %{{.*}}], %[[LV]][%c0, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<1x256x2x64xbf16>
// The next block's copies in the key loop: key rows are dim 1.
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy %arg1[%[[BZ]], %{{.*}}, %[[KVH]], %{{.*}}], %[[LK]]
// CHECK: nvgpu.device_async_copy %arg2[%[[BZ]], %{{.*}}, %[[KVH]], %{{.*}}], %[[LV]]
// CHECK: nvvm.mma.sync
// CHECK: vector.store %{{.*}}, %arg3[%[[BZ]], %{{.*}}, %[[HY]], %{{.*}}] {alignment = 4 : i64} : memref<1x128x4x64xbf16>, vector<2xbf16>
// CHECK-NOT: %arg3[%[[BZ]], %[[HY]]
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @bshd_sm90(%q: tensor<1x128x4x64xbf16>, %k: tensor<1x256x2x64xbf16>, %v: tensor<1x256x2x64xbf16>) -> tensor<1x128x4x64xbf16> {
    %0 = hkg.attention %q, %k, %v causal layout(bshd) {schedule = #hkg.schedule<mma = mma_16x8x16, tile_q = 64, tile_kv = 64, waves = 4, stages = 2>} : tensor<1x128x4x64xbf16>, tensor<1x256x2x64xbf16>, tensor<1x256x2x64xbf16> -> tensor<1x128x4x64xbf16>
    return %0 : tensor<1x128x4x64xbf16>
  }
}

// -----

// gfx942, the FMA kernel (pinned; the default is MFMA:
// attention-amd-matrix-cores.mlir): the synchronous 16-byte copies read
// [b, row, head, col] too.
// CHECK-LABEL: func.func @bshd_gfx942(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c4, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = none, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4>
// CHECK-NOT: nvgpu.
// CHECK: %[[HY:.*]] = gpu.block_id  y
// CHECK: %[[BZ:.*]] = gpu.block_id  z
// CHECK: %[[KVH:.*]] = arith.divui %[[HY]], %c2 : index
// CHECK: vector.load %arg0[%[[BZ]], %{{.*}}, %[[HY]], %{{.*}}] {alignment = 16 : i64} : memref<1x128x4x64xbf16>, vector<8xbf16>
// CHECK: scf.for
// CHECK: vector.load %arg1[%[[BZ]], %{{.*}}, %[[KVH]], %{{.*}}] {alignment = 16 : i64} : memref<1x256x2x64xbf16>, vector<8xbf16>
// CHECK: vector.load %arg2[%[[BZ]], %{{.*}}, %[[KVH]], %{{.*}}] {alignment = 16 : i64} : memref<1x256x2x64xbf16>, vector<8xbf16>
// CHECK: math.fma
// CHECK: vector.store %{{.*}}, %arg3[%[[BZ]], %{{.*}}, %[[HY]], %{{.*}}] {alignment = 4 : i64} : memref<1x128x4x64xbf16>, vector<2xbf16>
// CHECK-NOT: nvgpu.
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @bshd_gfx942(%q: tensor<1x128x4x64xbf16>, %k: tensor<1x256x2x64xbf16>, %v: tensor<1x256x2x64xbf16>) -> tensor<1x128x4x64xbf16> {
    %0 = hkg.attention %q, %k, %v causal layout(bshd) {schedule = #hkg.schedule<mma = none>} : tensor<1x128x4x64xbf16>, tensor<1x256x2x64xbf16>, tensor<1x256x2x64xbf16> -> tensor<1x128x4x64xbf16>
    return %0 : tensor<1x128x4x64xbf16>
  }
}

// -----

// gfx942, stages = 0: the FMA kernel reads Q, K and V from global memory
// (loadQuery, loadKey, loadValuePair), partial tiles clamped (20 queries in
// a 16-row tile, 100 keys in 32-key blocks): the clamped row is dim 1.
// CHECK-LABEL: func.func @bshd_global_gfx942(
// CHECK: gpu.func @hkg_attention_0(%{{.*}}: memref<1x20x4x64xbf16>, %{{.*}}: memref<1x100x2x64xbf16>, %{{.*}}: memref<1x100x2x64xbf16>, %{{.*}}: memref<1x20x4x64xbf16>) workgroup(%{{.*}} : memref<16x32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = none, pack_gqa = 0, stages = 0, tile_kv = 32, tile_q = 16, waves = 1>
// CHECK: %[[HY:.*]] = gpu.block_id  y
// CHECK: %[[BZ:.*]] = gpu.block_id  z
// CHECK: %[[KVH:.*]] = arith.divui %[[HY]], %c2 : index
// CHECK: %[[KEY:.*]] = arith.minui %{{.*}}, %c99 : index
// CHECK: memref.load %arg1[%[[BZ]], %[[KEY]], %[[KVH]], %{{.*}}] : memref<1x100x2x64xbf16>
// CHECK: %[[QROW:.*]] = arith.minui %{{.*}}, %c19 : index
// CHECK: memref.load %arg0[%[[BZ]], %[[QROW]], %[[HY]], %{{.*}}] : memref<1x20x4x64xbf16>
// CHECK: %[[VROW:.*]] = arith.minui %{{.*}}, %c99 : index
// CHECK: vector.load %arg2[%[[BZ]], %[[VROW]], %[[KVH]], %{{.*}}] {alignment = 4 : i64} : memref<1x100x2x64xbf16>, vector<2xbf16>
// Only query rows < 20 are stored.
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %[[ROW:.*]], %c20 : index
// CHECK-NEXT: scf.if %[[ROWOK]] {
// CHECK: vector.store %{{.*}}, %arg3[%[[BZ]], %[[ROW]], %[[HY]], %{{.*}}] {alignment = 4 : i64} : memref<1x20x4x64xbf16>, vector<2xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @bshd_global_gfx942(%q: tensor<1x20x4x64xbf16>, %k: tensor<1x100x2x64xbf16>, %v: tensor<1x100x2x64xbf16>) -> tensor<1x20x4x64xbf16> {
    %0 = hkg.attention %q, %k, %v layout(bshd) {schedule = #hkg.schedule<mma = none, stages = 0, tile_q = 16, tile_kv = 32, waves = 1>} : tensor<1x20x4x64xbf16>, tensor<1x100x2x64xbf16>, tensor<1x100x2x64xbf16> -> tensor<1x20x4x64xbf16>
    return %0 : tensor<1x20x4x64xbf16>
  }
}
