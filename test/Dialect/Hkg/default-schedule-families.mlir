// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,WAVE64
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a | FileCheck %s --check-prefixes=CHECK,WAVE64
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,WAVE32,RDNA
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 | FileCheck %s --check-prefixes=CHECK,WAVE32,RDNA
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,WAVE32,HOPPER
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 | FileCheck %s --check-prefixes=CHECK,WAVE32,AMPERE

// What differs between the target families: wave64 CDNA, wave32 RDNA and
// NVIDIA warps pick different workgroup sizes for small rows and different
// matrix-core instructions. Matrix-core GEMMs swizzle LDS instead of padding
// it on every family; the scalar f32 path pads.

// A row of 8 floats needs one thread: a workgroup is one wave of rows.
// CHECK-LABEL: func.func @tiny_rows
// WAVE64: rows_per_block = 64, threads = 64
// WAVE32: rows_per_block = 32, threads = 32
func.func @tiny_rows(%x: tensor<1024x8xf32>) -> tensor<1024x8xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<1024x8xf32> -> tensor<1024x8xf32>
  return %0 : tensor<1024x8xf32>
}

// CHECK-LABEL: func.func @gemm_bf16
// WAVE64: lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x16,
// RDNA: lds_pad = 0, lds_swizzle = 1, mma = wmma_16x16x16,
// HOPPER: lds_pad = 0, lds_swizzle = 1, mma = wgmma_64x128x16,
// AMPERE: lds_pad = 0, lds_swizzle = 1, mma = mma_16x8x16,
func.func @gemm_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %a, %b : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}

// Without matrix cores (f32), every family splits a 16x64 decode tile over
// 1x4 waves and pads LDS instead of swizzling it.
// CHECK-LABEL: func.func @gemm_decode_f32
// CHECK: lds_pad = 4, lds_swizzle = 0, mma = none,
// CHECK-SAME: tile_m = 16, tile_n = 64, unroll = 1, vector_width = 4, waves_m = 1, waves_n = 4
func.func @gemm_decode_f32(%a: tensor<8x256xf32>, %b: tensor<256x256xf32>) -> tensor<8x256xf32> {
  %0 = hkg.matmul %a, %b : tensor<8x256xf32>, tensor<256x256xf32> -> tensor<8x256xf32>
  return %0 : tensor<8x256xf32>
}

// A vocabulary of 64 logits: one wave per row.
// CHECK-LABEL: func.func @small_vocab
// WAVE64: threads = 64
// WAVE32: threads = 32
func.func @small_vocab(%l: tensor<4x64xf32>) -> tensor<4xi32> {
  %0 = hkg.top_p_sample %l p(0.5) temperature(1.0) seed(7) : tensor<4x64xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
