// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1250 | FileCheck %s --check-prefixes=CHECK,GFX1250
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 | FileCheck %s --check-prefixes=CHECK,GFX950
// Every default passes its own verification on every target:
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-verify-schedule="chip=gfx90a require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-verify-schedule="chip=gfx950 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1151 --hkg-verify-schedule="chip=gfx1151 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-verify-schedule="chip=gfx1201 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-verify-schedule="chip=gfx1100 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1250 --hkg-verify-schedule="chip=gfx1250 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Matmul defaults adapt to the problem so that they pass the op's own
// constraints.

// Decode (M = 16) with W as [K, N]: one row of mma tiles, 128 columns wide
// (256-byte pieces of each weight row), waves along N, 64-deep K steps.
// gfx1250 matmuls use FMAs (the kernel builder has no 16x16x32 WMMA).
// CHECK-LABEL: func.func @decode
// GFX942: mma = mfma_16x16x16, persistent = 0, split_k = 8, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 16, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
// GFX1100: mma = wmma_16x16x16, persistent = 0, split_k = 8, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 16, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
// GFX1250: mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 32, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
// SM90: mma = mma_16x8x16, persistent = 0, split_k = 8, split_k_reduce = workspace, stages = 4, tile_k = 64, tile_m = 16, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
// GFX950: mma = mfma_16x16x32, persistent = 0, split_k = 8, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 16, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4
func.func @decode(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
  return %0 : tensor<16x4096xbf16>
}

// K = 4092 is a multiple of 4, not 8: global loads of A shrink to 4
// elements so that they divide the contiguous dim.
// CHECK-LABEL: func.func @k_not_multiple_of_8
// CHECK: vector_width = 4
func.func @k_not_multiple_of_8(%a: tensor<16x4092xbf16>, %b: tensor<4092x4096xbf16>) -> tensor<16x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<16x4092xbf16>, tensor<4092x4096xbf16> -> tensor<16x4096xbf16>
  return %0 : tensor<16x4096xbf16>
}

// K = 16: no K step deeper than K, and the instruction must fit one step:
// gfx950's mfma_16x16x32 gives way to mfma_16x16x16.
// CHECK-LABEL: func.func @short_k
// GFX942: mma = mfma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 2
// GFX1100: mma = wmma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 4
// GFX1250: mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 2
// SM90: mma = mma_16x8x16, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 3, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 2
// GFX950: mma = mfma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 2
func.func @short_k(%a: tensor<128x16xf16>, %b: tensor<16x128xf16>) -> tensor<128x128xf16> {
  %0 = hkg.matmul %a, %b : tensor<128x16xf16>, tensor<16x128xf16> -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}

// K = 32 keeps gfx950's double-rate mfma_16x16x32.
// CHECK-LABEL: func.func @k32
// GFX950: mma = mfma_16x16x32, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 32, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 2
func.func @k32(%a: tensor<128x32xbf16>, %b: tensor<32x128xbf16>) -> tensor<128x128xbf16> {
  %0 = hkg.matmul %a, %b : tensor<128x32xbf16>, tensor<32x128xbf16> -> tensor<128x128xbf16>
  return %0 : tensor<128x128xbf16>
}
