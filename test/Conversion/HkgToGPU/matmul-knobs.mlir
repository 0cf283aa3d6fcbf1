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
