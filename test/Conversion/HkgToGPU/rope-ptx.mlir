// The rope kernels go through the upstream NVVM backend (sm_90 PTX).
// REQUIRES: libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// SM90:        gpu.binary @hkg_rope_0
// SM90-SAME:     ld.global.v4
// SM90-SAME:     st.global.v4
// SM90:        gpu.binary @hkg_rope_1
// Full-width tables.
// SM90:        gpu.binary @hkg_rope_2
// SM90-SAME:     ld.global.v4
// SM90-SAME:     st.global.v4
// SM90:        gpu.binary @hkg_rope_3
// SM90-SAME:     ld.global.v4

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
