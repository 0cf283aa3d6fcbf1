// The rope kernels go through the upstream ROCDL backend (gfx942, wave32 gfx1100).
// REQUIRES: rocdl-toolkit
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %to_gfx1100_isa | FileCheck %s --check-prefix=GFX1100

// GFX942:      gpu.binary @hkg_rope_0
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   global_store_dwordx4
// GFX942:      gpu.binary @hkg_rope_1
// GFX942-SAME:   global_load_dwordx4
// Full-width tables: 16-byte table rows as well (neox: two per table).
// GFX942:      gpu.binary @hkg_rope_2
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   global_store_dwordx4
// GFX942:      gpu.binary @hkg_rope_3
// GFX942-SAME:   global_load_dwordx4

// GFX1100:     gpu.binary @hkg_rope_0
// GFX1100-SAME:  global_load_b128
// GFX1100:     gpu.binary @hkg_rope_1
// GFX1100:     gpu.binary @hkg_rope_2
// GFX1100-SAME:  global_load_b128
// GFX1100:     gpu.binary @hkg_rope_3

func.func @neox(%x: tensor<8x512x32x128xbf16>, %c: tensor<4096x64xf32>, %s: tensor<4096x64xf32>) -> tensor<8x512x32x128xbf16> {
  %y = hkg.rope %x, %c, %s neox offset(0) : tensor<8x512x32x128xbf16>, tensor<4096x64xf32>, tensor<4096x64xf32> -> tensor<8x512x32x128xbf16>
  return %y : tensor<8x512x32x128xbf16>
}
func.func @gptj(%x: tensor<2x64x8x64xf16>, %c: tensor<64x32xf16>, %s: tensor<64x32xf16>) -> tensor<2x64x8x64xf16> {
  %y = hkg.rope %x, %c, %s gptj offset(0) : tensor<2x64x8x64xf16>, tensor<64x32xf16>, tensor<64x32xf16> -> tensor<2x64x8x64xf16>
  return %y : tensor<2x64x8x64xf16>
}
func.func @neox_full(%x: tensor<1x512x32x128xbf16>, %c: tensor<4096x128xbf16>, %s: tensor<4096x128xbf16>) -> tensor<1x512x32x128xbf16> {
  %y = hkg.rope %x, %c, %s neox offset(0) : tensor<1x512x32x128xbf16>, tensor<4096x128xbf16>, tensor<4096x128xbf16> -> tensor<1x512x32x128xbf16>
  return %y : tensor<1x512x32x128xbf16>
}
func.func @gptj_full(%x: tensor<2x64x8x64xf16>, %c: tensor<64x64xf16>, %s: tensor<64x64xf16>) -> tensor<2x64x8x64xf16> {
  %y = hkg.rope %x, %c, %s gptj offset(0) : tensor<2x64x8x64xf16>, tensor<64x64xf16>, tensor<64x64xf16> -> tensor<2x64x8x64xf16>
  return %y : tensor<2x64x8x64xf16>
}
