// The top-k kernels go through the upstream ROCDL backend (gfx942, wave32 gfx1100).
// REQUIRES: rocdl-toolkit
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %to_gfx1100_isa | FileCheck %s --check-prefix=GFX1100

// 16-byte row loads, LDS histogram atomics (no return) and the pool's and
// candidates' slot atomics (with return), workgroup barriers.
// GFX942:      gpu.binary @hkg_topk_0
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   ds_add_u32
// GFX942-SAME:   ds_add_rtn_u32
// GFX942-SAME:   s_barrier
// GFX942:      gpu.binary @hkg_topk_1
// GFX942-SAME:   global_load_ushort

// GFX1100:     gpu.binary @hkg_topk_0
// GFX1100-SAME:  global_load_b128
// GFX1100-SAME:  ds_add_u32
// GFX1100-SAME:  ds_add_rtn_u32
// GFX1100:     gpu.binary @hkg_topk_1

func.func @logits(%x: tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi32>) {
  %v, %i = hkg.topk %x k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi32>
  return %v, %i : tensor<64x50xf32>, tensor<64x50xi32>
}
func.func @strided(%x: tensor<2x1000x8xf16>) -> (tensor<2x10x8xf16>, tensor<2x10x8xi64>) {
  %v, %i = hkg.topk %x k(10) axis(1) : tensor<2x1000x8xf16> -> tensor<2x10x8xf16>, tensor<2x10x8xi64>
  return %v, %i : tensor<2x10x8xf16>, tensor<2x10x8xi64>
}
