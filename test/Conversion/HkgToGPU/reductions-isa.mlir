// The row-op kernels go through the upstream ROCDL backend (gfx942, wave32 gfx1100).
// REQUIRES: rocdl-toolkit
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %to_gfx1100_isa | FileCheck %s --check-prefix=GFX1100

// GFX942:      gpu.binary @hkg_softmax_0
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   ds_bpermute_b32
// GFX942-SAME:   v_exp_f32
// GFX942-SAME:   global_store_dwordx4
// GFX942:      gpu.binary @hkg_layernorm_0
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   v_rsq_f32
// GFX942:      gpu.binary @hkg_rmsnorm_0
// GFX942-SAME:   global_load_dwordx4
// GFX942:      gpu.binary @hkg_reduce_0
// GFX942-SAME:   global_load_dwordx4
// GFX942:      gpu.binary @hkg_softmax_1
// GFX942-SAME:   global_load_dwordx4

// GFX1100:     gpu.binary @hkg_softmax_0
// GFX1100-SAME:  global_load_b128
// GFX1100-SAME:  .wavefront_size: 32
// GFX1100:     gpu.binary @hkg_layernorm_0
// GFX1100:     gpu.binary @hkg_rmsnorm_0
// GFX1100:     gpu.binary @hkg_reduce_0
// GFX1100:     gpu.binary @hkg_softmax_1

func.func @softmax(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %y = hkg.softmax %x axis(1) : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}
func.func @layernorm(%x: tensor<64x1024xf16>, %w: tensor<1024xf16>, %b: tensor<1024xf16>) -> tensor<64x1024xf16> {
  %y = hkg.layernorm %x weight(%w : tensor<1024xf16>) bias(%b : tensor<1024xf16>) eps(1.0e-05) : tensor<64x1024xf16> -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}
func.func @rmsnorm(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %y = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %y : tensor<64x8192xbf16>
}
func.func @reduce(%x: tensor<37x64x32xf32>) -> tensor<37xf32> {
  %y = hkg.reduce sum %x axes = [1, 2] : tensor<37x64x32xf32> -> tensor<37xf32>
  return %y : tensor<37xf32>
}
func.func @softmax_vocab(%x: tensor<4x128256xf32>) -> tensor<4x128256xf32> {
  %y = hkg.softmax %x axis(1) : tensor<4x128256xf32> -> tensor<4x128256xf32>
  return %y : tensor<4x128256xf32>
}
