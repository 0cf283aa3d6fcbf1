// The top-p sampler goes through the upstream ROCDL backend (gfx942, wave32 gfx1100).
// REQUIRES: rocdl-toolkit
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %to_gfx1100_isa | FileCheck %s --check-prefix=GFX1100

// GFX942:      gpu.binary @hkg_top_p_sample_0
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   s_barrier
// GFX942:      gpu.binary @hkg_top_p_sample_1

// GFX1100:     gpu.binary @hkg_top_p_sample_0
// GFX1100-SAME:  global_load_b128
// GFX1100-SAME:  .wavefront_size: 32
// GFX1100:     gpu.binary @hkg_top_p_sample_1

func.func @seed(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %t = hkg.top_p_sample %x p(0.9) temperature(0.7) seed(42) : tensor<64x128256xf32> -> tensor<64xi32>
  return %t : tensor<64xi32>
}
func.func @uniform(%x: tensor<8x1000xbf16>, %u: tensor<8xf32>) -> tensor<8xi32> {
  %t = hkg.top_p_sample %x uniform(%u : tensor<8xf32>) p(0.5) temperature(1.0) : tensor<8x1000xbf16> -> tensor<8xi32>
  return %t : tensor<8xi32>
}
