// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @top_p_seed
// CHECK-SAME: (%[[L:.*]]: tensor<64x128256xf32>)
// CHECK: hkg.top_p_sample %[[L]] p(0.899999976) temperature(1.000000e+00) seed(42) : tensor<64x128256xf32> -> tensor<64xi32>
// GENERIC-LABEL: sym_name = "top_p_seed"
// GENERIC: "hkg.top_p_sample"(%{{.*}}) <{p = 0.899999976 : f32, seed = 42 : i64, temperature = 1.000000e+00 : f32}>
func.func @top_p_seed(%logits: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %logits p(0.9) temperature(1.0) seed(42) : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}

// CHECK-LABEL: func.func @top_p_uniform
// CHECK-SAME: (%[[L:.*]]: tensor<4x1000xbf16>, %[[U:.*]]: tensor<4xf32>)
// CHECK: hkg.top_p_sample %[[L]] uniform(%[[U]] : tensor<4xf32>) p(1.000000e+00) temperature(5.000000e-01) : tensor<4x1000xbf16> -> tensor<4xi32>
func.func @top_p_uniform(%logits: tensor<4x1000xbf16>, %u: tensor<4xf32>) -> tensor<4xi32> {
  %0 = hkg.top_p_sample %logits uniform(%u : tensor<4xf32>) p(1.0) temperature(0.5) : tensor<4x1000xbf16> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @top_p_schedule
// CHECK: hkg.top_p_sample %{{.*}} p(5.000000e-01) temperature(2.000000e+00) seed(0) {schedule = #hkg.schedule<search_iters = 8, threads = 1024, vector_width = 2>} : tensor<1x32000xf16> -> tensor<1xi32>
func.func @top_p_schedule(%logits: tensor<1x32000xf16>) -> tensor<1xi32> {
  %0 = hkg.top_p_sample %logits p(0.5) temperature(2.0) seed(0) {schedule = #hkg.schedule<search_iters = 8, threads = 1024, vector_width = 2>} : tensor<1x32000xf16> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}
