// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null

// f32 matmuls on NVIDIA sm_80+ with M and N of at least 128 and K of at
// least 16 multiply on tf32 tensor cores as 3xTF32 (docs/Matmul.md). On
// sm_90a, where wgmma can read the operands (A K-major, K of at least 32,
// 16-byte rows), 3xTF32 on warpgroup MMA: 128 x 128 x 32 tiles over 2
// warpgroups, 4 stages, a step in flight, each step promoted into f32 (on
// an H100 4096^3 ran 1.53x / 1.84x cuBLAS FP32 with B as [K, N] / [N, K],
// erring 4.0e-7 against float64 where cuBLAS erred 1.1e-6, docs/perf).
// Elsewhere mma.sync's mma_16x8x8_tf32x3 with the fast split, over 128 x 128
// x 16 tiles of 2 x 4 warps and 3 swizzled stages (1.22x / 1.11x). AMD keeps
// the FMA kernel (no tf32x3 instruction, so no `tf32_split` knob); so do
// shapes below a tile (K < 16, M or N < 128) and matrix-vector shapes.
// Schedules that ask for 3xTF32: matmul-tf32x3.mlir, matmul-tf32x3-wgmma.

// CHECK-LABEL: func.func @square
// SM90: #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wgmma_64x128x8_tf32x3, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 4, tf32_split = trunc, tile_k = 32, tile_m = 128, tile_n = 128, unroll = 2, vector_width = 4, waves_m = 2, waves_n = 1, wgmma_pending = 1, wgmma_promote = 1>
// SM80: lds_pad = 0, lds_swizzle = 1, mma = mma_16x8x8_tf32x3,{{.*}}stages = 3, tf32_split = fast, tile_k = 16, tile_m = 128, tile_n = 128,{{.*}}waves_m = 2, waves_n = 4
// GFX942: mma = none,
// GFX942-NOT: tf32_split
func.func @square(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// B as [N, K] (a linear layer's weight) and a batch: the same. A as [K, M]
// (wgmma reads A K-major only), K below a 32-deep step, or rows of a size
// that is not a multiple of 4 (no 16-byte pieces): mma.sync's 3xTF32.
// CHECK-LABEL: func.func @transposed
// SM90: mma = wgmma_64x128x8_tf32x3,{{.*}}tf32_split = trunc,
// GFX942: mma = none,
// CHECK-LABEL: func.func @transposed_a
// SM90: mma = mma_16x8x8_tf32x3,{{.*}}tf32_split = fast,
// GFX942: mma = none,
// CHECK-LABEL: func.func @batched
// SM90: mma = wgmma_64x128x8_tf32x3,{{.*}}tf32_split = trunc,
// GFX942: mma = none,
// CHECK-LABEL: func.func @k16
// SM90: mma = mma_16x8x8_tf32x3,{{.*}}tf32_split = fast,
// CHECK-LABEL: func.func @odd_k
// SM90: mma = mma_16x8x8_tf32x3,{{.*}}tf32_split = fast,
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
func.func @k16(%a: tensor<1024x16xf32>, %b: tensor<16x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = hkg.matmul %a, %b : tensor<1024x16xf32>, tensor<16x1024xf32> -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
func.func @odd_k(%a: tensor<1024x1002xf32>, %b: tensor<1002x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = hkg.matmul %a, %b : tensor<1024x1002xf32>, tensor<1002x1024xf32> -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
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
