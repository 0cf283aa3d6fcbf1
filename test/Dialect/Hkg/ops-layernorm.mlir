// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @layernorm_weight_bias
// CHECK-SAME: (%[[X:.*]]: tensor<128x4096xbf16>, %[[W:.*]]: tensor<4096xbf16>, %[[B:.*]]: tensor<4096xbf16>)
// CHECK: hkg.layernorm %[[X]] weight(%[[W]] : tensor<4096xbf16>) bias(%[[B]] : tensor<4096xbf16>) eps(9.99999974E-6) : tensor<128x4096xbf16> -> tensor<128x4096xbf16>
// GENERIC-LABEL: sym_name = "layernorm_weight_bias"
// GENERIC: "hkg.layernorm"(%{{.*}}, %{{.*}}, %{{.*}}) <{eps = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}>
func.func @layernorm_weight_bias(%x: tensor<128x4096xbf16>, %w: tensor<4096xbf16>, %b: tensor<4096xbf16>) -> tensor<128x4096xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<4096xbf16>) bias(%b : tensor<4096xbf16>) eps(1.0e-05)
      : tensor<128x4096xbf16> -> tensor<128x4096xbf16>
  return %0 : tensor<128x4096xbf16>
}

// CHECK-LABEL: func.func @layernorm_no_affine
// CHECK: hkg.layernorm %{{.*}} eps(1.000000e-03) : tensor<2x3x64xf32> -> tensor<2x3x64xf32>
// GENERIC-LABEL: sym_name = "layernorm_no_affine"
// GENERIC: operandSegmentSizes = array<i32: 1, 0, 0>
func.func @layernorm_no_affine(%x: tensor<2x3x64xf32>) -> tensor<2x3x64xf32> {
  %0 = hkg.layernorm %x eps(1.0e-03) : tensor<2x3x64xf32> -> tensor<2x3x64xf32>
  return %0 : tensor<2x3x64xf32>
}

// CHECK-LABEL: func.func @layernorm_weight_only
// CHECK: hkg.layernorm %{{.*}} weight(%{{.*}} : tensor<64xf16>) eps(1.000000e-03) : tensor<8x64xf16> -> tensor<8x64xf16>
// CHECK-LABEL: func.func @layernorm_bias_only
// CHECK: hkg.layernorm %{{.*}} bias(%{{.*}} : tensor<64xf16>) eps(1.000000e-03) {schedule = #hkg.schedule<row_cache = none>} : tensor<8x64xf16> -> tensor<8x64xf16>
func.func @layernorm_weight_only(%x: tensor<8x64xf16>, %w: tensor<64xf16>) -> tensor<8x64xf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<64xf16>) eps(1.0e-03) : tensor<8x64xf16> -> tensor<8x64xf16>
  return %0 : tensor<8x64xf16>
}
func.func @layernorm_bias_only(%x: tensor<8x64xf16>, %b: tensor<64xf16>) -> tensor<8x64xf16> {
  %0 = hkg.layernorm %x bias(%b : tensor<64xf16>) eps(1.0e-03) {schedule = #hkg.schedule<row_cache = none>} : tensor<8x64xf16> -> tensor<8x64xf16>
  return %0 : tensor<8x64xf16>
}

// Over the last two dims (torch's normalized_shape = [S, H]), the weight
// and bias of that shape; over one inner axis (the channels of [B, C, L]).
// CHECK-LABEL: func.func @layernorm_axes
// CHECK: hkg.layernorm %{{.*}} axes = [1, 2] weight(%{{.*}} : tensor<16x64xf32>) bias(%{{.*}} : tensor<16x64xf32>) eps(9.99999974E-6) : tensor<8x16x64xf32> -> tensor<8x16x64xf32>
// CHECK: hkg.layernorm %{{.*}} axes = [1] eps(9.99999974E-6) : tensor<4x16x1000xbf16> -> tensor<4x16x1000xbf16>
// GENERIC-LABEL: sym_name = "layernorm_axes"
// GENERIC: "hkg.layernorm"(%{{.*}}, %{{.*}}, %{{.*}}) <{axes = array<i64: 1, 2>, eps = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}>
// GENERIC: "hkg.layernorm"(%{{.*}}) <{axes = array<i64: 1>, eps = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}>
func.func @layernorm_axes(%x: tensor<8x16x64xf32>, %w: tensor<16x64xf32>, %b: tensor<16x64xf32>, %y: tensor<4x16x1000xbf16>) -> (tensor<8x16x64xf32>, tensor<4x16x1000xbf16>) {
  %0 = hkg.layernorm %x axes = [1, 2] weight(%w : tensor<16x64xf32>) bias(%b : tensor<16x64xf32>) eps(1.0e-05) : tensor<8x16x64xf32> -> tensor<8x16x64xf32>
  %1 = hkg.layernorm %y axes = [1] eps(1.0e-05) : tensor<4x16x1000xbf16> -> tensor<4x16x1000xbf16>
  return %0, %1 : tensor<8x16x64xf32>, tensor<4x16x1000xbf16>
}
