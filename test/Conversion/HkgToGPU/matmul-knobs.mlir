// Each matmul knob shows up in the kernel (mma.sync: sm_80, whose default it is; sm_90 lowers it the same way but defaults to wgmma).
// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu=chip=sm_80 --canonicalize --cse | FileCheck %s

// stages = 1: copy, wait for everything, compute; no prologue.
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK: workgroup(%{{.*}} : memref<1x128x32xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<1x32x128xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK: gpu.barrier
// CHECK: nvvm.mma.sync
func.func @stages1(%a: tensor<256x320xbf16>, %b: tensor<320x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<stages = 1>} : tensor<256x320xbf16>, tensor<320x256xbf16> -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}

// -----

// unroll = 4 over 10 K steps: a loop of 2 x 4 steps and a remainder loop.
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK: scf.for %{{.*}} = %c8 to %c10 step %c1
func.func @unroll(%a: tensor<256x320xbf16>, %b: tensor<320x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<unroll = 4>} : tensor<256x320xbf16>, tensor<320x256xbf16> -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}

// -----

// Padding instead of the swizzle, 8-byte copies, 4 stages of 64x64x32.
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK: workgroup(%{{.*}} : memref<4x64x40xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<4x32x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 16, 1, 1>
// CHECK-NOT: arith.xori
// CHECK: nvgpu.device_async_copy {{.*}}, 4 :
// CHECK-NOT: bypassL1
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
func.func @pad(%a: tensor<256x320xbf16>, %b: tensor<320x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 64, tile_n = 64, stages = 4, lds_swizzle = 0, lds_pad = 8, vector_width = 4>} : tensor<256x320xbf16>, tensor<320x256xbf16> -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}

// -----

// mma = none on bf16: FMAs on widened operands, no matrix core; below
// 4 bytes a chunk (vector_width = 1) the copy goes through registers.
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: scf.for
// CHECK: arith.extf {{.*}} : vector<4xbf16> to vector<4xf32>
// CHECK: vector.fma
// CHECK-NOT: mma.sync
func.func @fma(%a: tensor<256x320xbf16>, %b: tensor<320x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none, tile_m = 64, tile_n = 64, tile_k = 16, lds_swizzle = 0, lds_pad = 8, vector_width = 1>} : tensor<256x320xbf16>, tensor<320x256xbf16> -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}

// -----

// group_m = 4: 8 x 8 tiles of 128 walked in groups of 4 tile rows (the
// group's rows: min(tiles left, 4)); tile row = first + p % rows, column =
// p / rows.
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK: %[[P:.*]] = gpu.block_id  x
// CHECK: %[[G:.*]] = arith.divui %[[P]], %c32 : index
// CHECK: %[[ROWS:.*]] = arith.minui %{{.*}}, %c4 : index
// CHECK: %[[IN:.*]] = arith.remui %[[P]], %c32 : index
// CHECK: arith.remui %[[IN]], %[[ROWS]] : index
// CHECK: arith.divui %[[IN]], %[[ROWS]] : index
func.func @group4(%a: tensor<1024x256xbf16>, %b: tensor<256x1024xbf16>) -> tensor<1024x1024xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<group_m = 4>} : tensor<1024x256xbf16>, tensor<256x1024xbf16> -> tensor<1024x1024xbf16>
  return %0 : tensor<1024x1024xbf16>
}

// -----

// group_m = 1: row after row (tile row = p / 8, column = p % 8).
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK: %[[P:.*]] = gpu.block_id  x
// CHECK-NOT: arith.minui
// CHECK: arith.divui %[[P]], %c8 : index
// CHECK: arith.remui %[[P]], %c8 : index
func.func @group1(%a: tensor<1024x256xbf16>, %b: tensor<256x1024xbf16>) -> tensor<1024x1024xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<group_m = 1>} : tensor<1024x256xbf16>, tensor<256x1024xbf16> -> tensor<1024x1024xbf16>
  return %0 : tensor<1024x1024xbf16>
}

// -----

// FMAs with one column of B per lane (tile_n / waves_n / 8 lanes = 1): the
// scalar LDS load becomes a one-element vector (a compile error on the
// H200 tuning run of 2026-12-02 before).
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK: arith.extf %{{.*}} : vector<1xbf16> to vector<1xf32>
// CHECK: vector.fma %{{.*}} : vector<1xf32>
func.func @fma_one_column(%a: tensor<256x320xbf16>, %b: tensor<320x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none, tile_m = 128, tile_n = 64, tile_k = 16, waves_m = 1, waves_n = 8, stages = 1, lds_swizzle = 0, lds_pad = 8, vector_width = 4>} : tensor<256x320xbf16>, tensor<320x256xbf16> -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}
