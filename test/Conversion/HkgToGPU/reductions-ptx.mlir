// The row-op kernels go through the upstream NVVM backend (sm_90 PTX).
// REQUIRES: libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// SM90:        gpu.binary @hkg_softmax_0
// SM90-SAME:     ld.global.v4.b32
// SM90-SAME:     shfl.sync.bfly.b32
// SM90-SAME:     st.global.v4.b32
// SM90:        gpu.binary @hkg_layernorm_0
// SM90:        gpu.binary @hkg_rmsnorm_0
// SM90:        gpu.binary @hkg_reduce_0
// SM90:        gpu.binary @hkg_softmax_1
// SM90-SAME:     ld.global.v4.b32

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
