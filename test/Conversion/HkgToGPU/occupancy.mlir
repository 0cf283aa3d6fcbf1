// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// The `occupancy` knob becomes the kernel's register budget: nvvm.minctasm
// on NVIDIA, rocdl.waves_per_eu on CDNA (the waves of `occupancy` workgroups
// over a CU's 4 SIMDs); occupancy = 0 (the default) adds neither.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    nvvm.minctasm = 8 : i32
func.func @rms(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<threads = 256, occupancy = 8>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// 512 threads = 8 waves; 3 workgroups = 24 waves over 4 SIMDs.
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK-SAME:    rocdl.waves_per_eu = 6 : i32
func.func @softmax(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 512, occupancy = 3>} : tensor<64x8192xf32> -> tensor<64x8192xf32>
  return %0 : tensor<64x8192xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-NOT:     nvvm.minctasm
// CHECK-NOT:     rocdl.waves_per_eu
// CHECK:         gpu.return
func.func @ln(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x eps(1.0e-05) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}
