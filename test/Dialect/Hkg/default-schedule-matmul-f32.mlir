// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null

// f32 matmuls keep the FMA kernel by default on every target. 3xTF32
// (mma_16x8x8_tf32x3, docs/Matmul.md) is a value of the `mma` knob on
// NVIDIA, not a default: on an H100 its 4096^3 kernels erred 2.9e-5 against
// float64 where cuBLAS's FP32 GEMM erred 1.1e-6 (docs/perf), and an f32
// GEMM is asked for f32's accuracy. `tf32_split` is in the space of every
// f32 matmul on NVIDIA (it matters only with that instruction); schedules
// that ask for 3xTF32: matmul-tf32x3.mlir.

// CHECK-LABEL: func.func @square
// SM90: #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 4, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 2, tf32_split = rna, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 4, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// SM80: mma = none,{{.*}}tf32_split = rna, tile_k = 16, tile_m = 64, tile_n = 64,
// GFX942: mma = none,
// GFX942-NOT: tf32_split
func.func @square(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// B as [N, K] (a linear layer's weight), A as [K, M], a batch: the same.
// CHECK-LABEL: func.func @transposed
// CHECK: mma = none,
// CHECK-LABEL: func.func @transposed_a
// CHECK: mma = none,
// CHECK-LABEL: func.func @batched
// CHECK: mma = none,
func.func @transposed(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
func.func @transposed_a(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_a} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
func.func @batched(%a: tensor<8x512x256xf32>, %b: tensor<8x256x512xf32>) -> tensor<8x512x512xf32> {
  %0 = hkg.matmul %a, %b : tensor<8x512x256xf32>, tensor<8x256x512xf32> -> tensor<8x512x512xf32>
  return %0 : tensor<8x512x512xf32>
}

// Decode (M <= 16) and N <= 16 keep the matrix-vector FMA kernels.
// CHECK-LABEL: func.func @decode
// CHECK: mma = none,{{.*}}tile_m = 16, tile_n = 64,
// CHECK-LABEL: func.func @skinny_n
// CHECK: mma = none,{{.*}}tile_m = 64, tile_n = 16,
func.func @decode(%a: tensor<16x65536xf32>, %b: tensor<65536x65536xf32>) -> tensor<16x65536xf32> {
  %0 = hkg.matmul %a, %b : tensor<16x65536xf32>, tensor<65536x65536xf32> -> tensor<16x65536xf32>
  return %0 : tensor<16x65536xf32>
}
func.func @skinny_n(%a: tensor<65536x4096xf32>, %b: tensor<4096x16xf32>) -> tensor<65536x16xf32> {
  %0 = hkg.matmul %a, %b : tensor<65536x4096xf32>, tensor<4096x16xf32> -> tensor<65536x16xf32>
  return %0 : tensor<65536x16xf32>
}
