// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null

// f32 matmuls on NVIDIA take 3xTF32 (mma_16x8x8_tf32x3: tf32 tensor cores at
// about f32's accuracy, docs/Matmul.md) where 128 x 128 tiles give every SM
// one: 128 x 128 x 16 tiles, 2 x 2 warps, 3 cp.async stages of 16 KiB,
// swizzled, both splits rounded to nearest. Smaller problems and
// matrix-vector shapes keep FMAs; AMD has no 3xTF32.

// 4096^3: 1024 tiles.
// CHECK-LABEL: func.func @square
// SM90: #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mma_16x8x8_tf32x3, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 3, tf32_split = rna, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 4, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// SM80: #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mma_16x8x8_tf32x3, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 3, tf32_split = rna, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 4, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// GFX942: #hkg.schedule<{{.*}}mma = none,
func.func @square(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// B as [N, K] (a linear layer's weight) and A as [K, M]: the same kernel
// (no wgmma for f32).
// CHECK-LABEL: func.func @transposed
// SM90: mma = mma_16x8x8_tf32x3, {{.*}}stages = 3, tf32_split = rna, tile_k = 16, tile_m = 128, tile_n = 128,
// SM80: mma = mma_16x8x8_tf32x3,
// GFX942: mma = none,
// CHECK-LABEL: func.func @transposed_a
// SM90: mma = mma_16x8x8_tf32x3,
func.func @transposed(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
func.func @transposed_a(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_a} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// 1408 x 1536: 11 x 12 = 132 tiles, one per SM of sm_90 (108 on sm_80);
// 1280 x 1536: 10 x 12 = 120 tiles, fewer than sm_90's 132 SMs, more than
// sm_80's 108.
// CHECK-LABEL: func.func @fills_sm90
// SM90: mma = mma_16x8x8_tf32x3,
// SM80: mma = mma_16x8x8_tf32x3,
// CHECK-LABEL: func.func @below_sm90
// SM90: mma = none,
// SM80: mma = mma_16x8x8_tf32x3,
func.func @fills_sm90(%a: tensor<1408x512xf32>, %b: tensor<512x1536xf32>) -> tensor<1408x1536xf32> {
  %0 = hkg.matmul %a, %b : tensor<1408x512xf32>, tensor<512x1536xf32> -> tensor<1408x1536xf32>
  return %0 : tensor<1408x1536xf32>
}
func.func @below_sm90(%a: tensor<1280x512xf32>, %b: tensor<512x1536xf32>) -> tensor<1280x1536xf32> {
  %0 = hkg.matmul %a, %b : tensor<1280x512xf32>, tensor<512x1536xf32> -> tensor<1280x1536xf32>
  return %0 : tensor<1280x1536xf32>
}

// A batch counts its tiles: 8 x (4 x 4) = 128 tiles on sm_80.
// CHECK-LABEL: func.func @batched
// SM80: mma = mma_16x8x8_tf32x3,
// SM90: mma = none,
func.func @batched(%a: tensor<8x512x256xf32>, %b: tensor<8x256x512xf32>) -> tensor<8x512x512xf32> {
  %0 = hkg.matmul %a, %b : tensor<8x512x256xf32>, tensor<8x256x512xf32> -> tensor<8x512x512xf32>
  return %0 : tensor<8x512x512xf32>
}

// Decode (M <= 16) and N <= 16 keep the matrix-vector FMA kernels.
// CHECK-LABEL: func.func @decode
// CHECK: mma = none,
// CHECK-LABEL: func.func @skinny_n
// CHECK: mma = none,
func.func @decode(%a: tensor<16x65536xf32>, %b: tensor<65536x65536xf32>) -> tensor<16x65536xf32> {
  %0 = hkg.matmul %a, %b : tensor<16x65536xf32>, tensor<65536x65536xf32> -> tensor<16x65536xf32>
  return %0 : tensor<16x65536xf32>
}
func.func @skinny_n(%a: tensor<65536x4096xf32>, %b: tensor<4096x16xf32>) -> tensor<65536x16xf32> {
  %0 = hkg.matmul %a, %b : tensor<65536x4096xf32>, tensor<4096x16xf32> -> tensor<65536x16xf32>
  return %0 : tensor<65536x16xf32>
}

// A partial schedule falls back to the 3xTF32 default's knobs, so an FMA
// schedule for a large f32 matmul spells out the FMA kernel's tiles and LDS
// layout; it is kept as written and verifies (the RUN lines above).
// CHECK-LABEL: func.func @partial_fma
// SM90: #hkg.schedule<lds_pad = 4, lds_swizzle = 0, mma = none, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64>
func.func @partial_fma(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none, tile_m = 64, tile_n = 64, tile_k = 16, stages = 2, lds_pad = 4, lds_swizzle = 0>} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
