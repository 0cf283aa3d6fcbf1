// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// Every default passes its own verification on every target:
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-verify-schedule="chip=gfx90a require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-verify-schedule="chip=gfx950 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-verify-schedule="chip=gfx1100 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1151 --hkg-verify-schedule="chip=gfx1151 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-verify-schedule="chip=gfx1201 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1250 --hkg-verify-schedule="chip=gfx1250 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Issue 24: every matmul shape has a legal default schedule. K below the
// shallowest K step (16) takes one zero-filled step of 16; M or N far below
// the default tile shrink the tile (and its waves) to the smallest power of
// two >= 16 that covers the dim; vectors narrow to what divides the
// contiguous dims (1 for odd ones). utils/extreme_shapes.py maps the rest.

// K = 1: an outer product, one K step of 16 with 1-element loads.
// CHECK-LABEL: func.func @k1
// GFX942: mma = mfma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 1, waves_m = 2, waves_n = 2
// GFX1100: mma = wmma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 1, waves_m = 2, waves_n = 4
// SM90: mma = mma_16x8x16, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 3, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 1, waves_m = 2, waves_n = 2
func.func @k1(%a: tensor<4096x1xbf16>, %b: tensor<1x4096xbf16>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<4096x1xbf16>, tensor<1x4096xbf16> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}

// M = N = K = 1 (f32: FMAs): the smallest tiles, 16 x 16 x 16, with the
// waves of a 16-column tile (two of 8 lane columns). (f32 on NVIDIA also has
// 3xTF32's tf32_split.)
// CHECK-LABEL: func.func @mnk1
// CHECK: mma = none, persistent = 0, split_k = 1, split_k_reduce = {{cluster|workspace}}, stages = 2, {{(tf32_split = rna, )?}}tile_k = 16, tile_m = 16, tile_n = 16, unroll = 1, vector_width = 1, waves_m = 1, waves_n = 2
func.func @mnk1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %0 = hkg.matmul %a, %b : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// Matrix-vector with the weights as [N, K] (decode, M = 1): the decode
// tiles, K split over 4 workgroups per tile (the partials meet in a global
// workspace), so that 128 tiles become 512 workgroups.
// CHECK-LABEL: func.func @gemv
// GFX942: mma = mfma_16x16x16, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
// GFX1100: mma = wmma_16x16x16, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
// SM90: mma = mma_16x8x16, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 4, tile_k = 128, tile_m = 16, tile_n = 32, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
func.func @gemv(%a: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<1x4096xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<1x4096xbf16>, tensor<4096x4096xbf16> -> tensor<1x4096xbf16>
  return %0 : tensor<1x4096xbf16>
}

// N = 1 (a matrix times a vector): the mirror of decode, 16 columns per
// tile, waves along M, long K steps split over 4 workgroups, no wgmma on
// sm_90; B as [K, 1] is read as the [1, K] row it is in memory, in 16-byte
// vectors.
// CHECK-LABEL: func.func @n1
// GFX942: mma = mfma_16x16x16, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 64, tile_n = 16, unroll = 1, vector_width = 8, waves_m = 4, waves_n = 1
// GFX1100: mma = wmma_16x16x16, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 64, tile_n = 16, unroll = 1, vector_width = 8, waves_m = 4, waves_n = 1
// SM90: mma = mma_16x8x16, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 4, tile_k = 128, tile_m = 64, tile_n = 16, unroll = 1, vector_width = 8, waves_m = 4, waves_n = 1
func.func @n1(%a: tensor<4096x4096xbf16>, %b: tensor<4096x1xbf16>) -> tensor<4096x1xbf16> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xbf16>, tensor<4096x1xbf16> -> tensor<4096x1xbf16>
  return %0 : tensor<4096x1xbf16>
}

// Odd primes 7 x 13 x 127: 16 x 16 tiles, K steps of 64 (the deepest <= K),
// 1-element loads.
// CHECK-LABEL: func.func @primes
// GFX942: mma = mfma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 16, tile_n = 16, unroll = 1, vector_width = 1, waves_m = 1, waves_n = 1
// GFX1100: mma = wmma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 16, tile_n = 16, unroll = 1, vector_width = 1, waves_m = 1, waves_n = 1
// SM90: mma = mma_16x8x16, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 4, tile_k = 64, tile_m = 16, tile_n = 16, unroll = 1, vector_width = 1, waves_m = 1, waves_n = 2
func.func @primes(%a: tensor<7x127xbf16>, %b: tensor<127x13xbf16>) -> tensor<7x13xbf16> {
  %0 = hkg.matmul %a, %b : tensor<7x127xbf16>, tensor<127x13xbf16> -> tensor<7x13xbf16>
  return %0 : tensor<7x13xbf16>
}

// M = 4099 (prime), N = 13, K = 7, B as [N, K].
// CHECK-LABEL: func.func @tall_k7
// GFX942: mma = mfma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 64, tile_n = 16, unroll = 1, vector_width = 1, waves_m = 4, waves_n = 1
// SM90: mma = mma_16x8x16, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 4, tile_k = 16, tile_m = 64, tile_n = 16, unroll = 1, vector_width = 1, waves_m = 4, waves_n = 1
func.func @tall_k7(%a: tensor<4099x7xf16>, %b: tensor<13x7xf16>) -> tensor<4099x13xf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4099x7xf16>, tensor<13x7xf16> -> tensor<4099x13xf16>
  return %0 : tensor<4099x13xf16>
}

// Batch 13 of 7 x 7 x 7.
// CHECK-LABEL: func.func @batched_7
// CHECK: tile_k = 16, tile_m = 16, tile_n = 16
func.func @batched_7(%a: tensor<13x7x7xbf16>) -> tensor<13x7x7xbf16> {
  %0 = hkg.matmul %a, %a : tensor<13x7x7xbf16>, tensor<13x7x7xbf16> -> tensor<13x7x7xbf16>
  return %0 : tensor<13x7x7xbf16>
}
