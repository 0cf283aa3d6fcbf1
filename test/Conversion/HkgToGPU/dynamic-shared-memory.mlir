// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// NVIDIA: a kernel with more than 48 KiB of LDS takes it as one dynamic
// shared memory buffer (a view per LDS tile at 16-byte aligned offsets), no
// workgroup attributions, the byte count on the kernel and in the launch.
// 3 stages x (128 + 256) x 32 x 2 bytes = 72 KiB: A's tiles then B's.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: func.func @big(
// CHECK:         %[[SIZE:.*]] = arith.constant 73728 : i32
// CHECK:         gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME:    %{{.*}}: memref<512x512xbf16>, %{{.*}}: memref<512x512xbf16>, %{{.*}}: memref<512x512xbf16>) kernel
// CHECK-SAME:    hkg.dynamic_lds_bytes = 73728 : i64
// CHECK:         %[[BASE:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:         %[[OA:.*]] = arith.constant 0 : index
// CHECK:         memref.view %[[BASE]][%[[OA]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x32xbf16, #gpu.address_space<workgroup>>
// CHECK:         %[[OB:.*]] = arith.constant 24576 : index
// CHECK:         memref.view %[[BASE]][%[[OB]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x256xbf16, #gpu.address_space<workgroup>>
func.func @big(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 128, tile_n = 256, tile_k = 32, waves_m = 2, waves_n = 4, stages = 3, mma = mma_16x8x16, vector_width = 8, lds_pad = 0, lds_swizzle = 1, unroll = 1, split_k = 1>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}
}

// -----

// Exactly 48 KiB stays static: workgroup attributions, no dynamic memory.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: func.func @fits(
// CHECK-NOT:     dynamic_shared_memory_size
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME:    workgroup(%{{.*}} : memref<3x128x32xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     hkg.dynamic_lds_bytes
// CHECK-NOT:     gpu.dynamic_shared_memory
func.func @fits(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 2, stages = 3, mma = mma_16x8x16, vector_width = 8, lds_pad = 0, lds_swizzle = 1, unroll = 1, split_k = 1>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}
}

// -----

// AMD declares up to the chip's LDS statically (gfx942: 64 KiB).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME:    workgroup(
// CHECK-NOT:     gpu.dynamic_shared_memory
func.func @amd(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 2, stages = 4, mma = mfma_16x16x16, vector_width = 8, lds_pad = 0, lds_swizzle = 1, unroll = 1, split_k = 1>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}
}
