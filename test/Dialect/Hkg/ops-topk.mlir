// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @topk_logits
// CHECK-SAME: (%[[X:.*]]: tensor<64x128256xf32>)
// CHECK: %[[V:.*]], %[[I:.*]] = hkg.topk %[[X]] k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi32>
// CHECK: return %[[V]], %[[I]]
// GENERIC-LABEL: sym_name = "topk_logits"
// GENERIC: "hkg.topk"(%{{.*}}) <{axis = 1 : i64, k = 50 : i64}> : (tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi32>)
func.func @topk_logits(%x: tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi32>) {
  %v, %i = hkg.topk %x k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi32>
  return %v, %i : tensor<64x50xf32>, tensor<64x50xi32>
}

// MoE gating: 2 of 8 experts per token, i64 positions (torch's index type).
// CHECK-LABEL: func.func @topk_gating_i64
// CHECK: hkg.topk %{{.*}} k(2) axis(1) : tensor<4096x8xbf16> -> tensor<4096x2xbf16>, tensor<4096x2xi64>
func.func @topk_gating_i64(%x: tensor<4096x8xbf16>) -> (tensor<4096x2xbf16>, tensor<4096x2xi64>) {
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<4096x8xbf16> -> tensor<4096x2xbf16>, tensor<4096x2xi64>
  return %v, %i : tensor<4096x2xbf16>, tensor<4096x2xi64>
}

// A middle axis, the whole axis (k = its size) and a schedule.
// CHECK-LABEL: func.func @topk_middle_axis
// CHECK: hkg.topk %{{.*}} k(16) axis(1) {schedule = #hkg.schedule<threads = 256, unroll = 1, vector_width = 1>} : tensor<2x16x8xf16> -> tensor<2x16x8xf16>, tensor<2x16x8xi32>
func.func @topk_middle_axis(%x: tensor<2x16x8xf16>) -> (tensor<2x16x8xf16>, tensor<2x16x8xi32>) {
  %v, %i = hkg.topk %x k(16) axis(1) {schedule = #hkg.schedule<threads = 256, unroll = 1, vector_width = 1>} : tensor<2x16x8xf16> -> tensor<2x16x8xf16>, tensor<2x16x8xi32>
  return %v, %i : tensor<2x16x8xf16>, tensor<2x16x8xi32>
}
