// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null

// f32 matmuls on NVIDIA sm_80+ with M and N of at least 128 and K of at
// least 16 multiply on tf32 tensor cores as 3xTF32 (mma_16x8x8_tf32x3,
// docs/Matmul.md) with the fast split, over 128 x 128 x 16 tiles of 2 x 4
// warps and 3 swizzled stages: on an H100 its 4096^3 kernel erred 3.2e-7
// against float64 where cuBLAS's FP32 GEMM erred 1.1e-6, and ran 1.25x
// faster (docs/perf). AMD keeps the FMA kernel (no tf32x3 instruction, so no
// `tf32_split` knob); so do shapes below a tile (K < 16, M or N < 128) and
// matrix-vector shapes. Schedules that ask for 3xTF32: matmul-tf32x3.mlir.

// CHECK-LABEL: func.func @square
// SM90: #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mma_16x8x8_tf32x3, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 3, tf32_split = fast, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 4, waves_m = 2, waves_n = 4, wgmma_pending = 0, wgmma_promote = 0>
// SM80: lds_pad = 0, lds_swizzle = 1, mma = mma_16x8x8_tf32x3,{{.*}}stages = 3, tf32_split = fast, tile_k = 16, tile_m = 128, tile_n = 128,{{.*}}waves_m = 2, waves_n = 4
// GFX942: mma = none,
// GFX942-NOT: tf32_split
func.func @square(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// B as [N, K] (a linear layer's weight), A as [K, M], a batch: the same.
// CHECK-LABEL: func.func @transposed
// SM90: mma = mma_16x8x8_tf32x3,{{.*}}tf32_split = fast,
// GFX942: mma = none,
// CHECK-LABEL: func.func @transposed_a
// SM90: mma = mma_16x8x8_tf32x3,{{.*}}tf32_split = fast,
// GFX942: mma = none,
// CHECK-LABEL: func.func @batched
// SM90: mma = mma_16x8x8_tf32x3,{{.*}}tf32_split = fast,
// GFX942: mma = none,
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

// Below one 3xTF32 tile: K = 8, N = 96 keep the FMA kernel.
// CHECK-LABEL: func.func @shallow_k
// CHECK: mma = none,
// CHECK-LABEL: func.func @narrow_n
// CHECK: mma = none,
func.func @shallow_k(%a: tensor<4096x8xf32>, %b: tensor<8x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x8xf32>, tensor<8x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
func.func @narrow_n(%a: tensor<4096x512xf32>, %b: tensor<512x96xf32>) -> tensor<4096x96xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x512xf32>, tensor<512x96xf32> -> tensor<4096x96xf32>
  return %0 : tensor<4096x96xf32>
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
