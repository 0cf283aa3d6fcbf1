// The top-p sampler goes through the upstream NVVM backend (sm_90 PTX).
// REQUIRES: libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// SM90:        gpu.binary @hkg_top_p_sample_0
// SM90-SAME:     ld.global.v4.b32
// SM90-SAME:     bar.sync
// SM90:        gpu.binary @hkg_top_p_sample_1

func.func @seed(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %t = hkg.top_p_sample %x p(0.9) temperature(0.7) seed(42) : tensor<64x128256xf32> -> tensor<64xi32>
  return %t : tensor<64xi32>
}
func.func @uniform(%x: tensor<8x1000xbf16>, %u: tensor<8xf32>) -> tensor<8xi32> {
  %t = hkg.top_p_sample %x uniform(%u : tensor<8xf32>) p(0.5) temperature(1.0) : tensor<8x1000xbf16> -> tensor<8xi32>
  return %t : tensor<8xi32>
}
