// hkg.reduce `maximum` / `minimum` (a NaN anywhere is the answer, as
// arith.maximumf and torch.amax) beside `max` (a NaN loses, arith.maxnumf):
// the kernels combine with the matching arith op, along rows and down the
// columns; sm_90 has a NaN-propagating max instruction.
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | FileCheck %s
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | FileCheck %s
// RUN: %if libdevice %{ hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90 %}

// CHECK-LABEL: gpu.func @hkg_reduce_0
// CHECK:       arith.maximumf
// CHECK-NOT:   arith.maxnumf
// CHECK-LABEL: gpu.func @hkg_reduce_1
// CHECK:       arith.minimumf
// CHECK-NOT:   arith.minnumf
// CHECK-LABEL: gpu.func @hkg_reduce_2
// CHECK:       arith.maxnumf
// CHECK-NOT:   arith.maximumf
// CHECK-LABEL: gpu.func @hkg_reduce_3
// CHECK:       arith.maximumf
// SM90:        gpu.binary @hkg_reduce_0
// SM90-SAME:   max.NaN.f32
func.func @kinds(%x: tensor<64x4096xbf16>, %y: tensor<8x512x64xf32>)
    -> (tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<8x64xf32>) {
  %a = hkg.reduce maximum %x axes = [1] : tensor<64x4096xbf16> -> tensor<64xbf16>
  %b = hkg.reduce minimum %x axes = [1] : tensor<64x4096xbf16> -> tensor<64xbf16>
  %c = hkg.reduce max %x axes = [1] : tensor<64x4096xbf16> -> tensor<64xbf16>
  %d = hkg.reduce maximum %y axes = [1] : tensor<8x512x64xf32> -> tensor<8x64xf32>
  return %a, %b, %c, %d : tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<8x64xf32>
}
