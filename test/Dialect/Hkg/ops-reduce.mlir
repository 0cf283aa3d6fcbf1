// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @reduce_kinds
// CHECK-SAME: (%[[X:.*]]: tensor<64x4096xf32>)
// CHECK: hkg.reduce sum %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// CHECK: hkg.reduce max %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// CHECK: hkg.reduce min %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// CHECK: hkg.reduce prod %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// GENERIC-LABEL: sym_name = "reduce_kinds"
// GENERIC: "hkg.reduce"(%{{.*}}) <{axes = array<i64: 1>, kind = 0 : i32}> : (tensor<64x4096xf32>) -> tensor<64xf32>
func.func @reduce_kinds(%x: tensor<64x4096xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0 = hkg.reduce sum %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  %1 = hkg.reduce max %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  %2 = hkg.reduce min %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  %3 = hkg.reduce prod %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// Several trailing dims; all dims give a rank-0 result.
// CHECK-LABEL: func.func @reduce_trailing_dims
// CHECK: hkg.reduce sum %{{.*}} axes = [1, 2] : tensor<4x8x16xbf16> -> tensor<4xbf16>
// CHECK: hkg.reduce max %{{.*}} axes = [0, 1, 2] : tensor<4x8x16xbf16> -> tensor<bf16>
func.func @reduce_trailing_dims(%x: tensor<4x8x16xbf16>) -> (tensor<4xbf16>, tensor<bf16>) {
  %0 = hkg.reduce sum %x axes = [1, 2] : tensor<4x8x16xbf16> -> tensor<4xbf16>
  %1 = hkg.reduce max %x axes = [0, 1, 2] : tensor<4x8x16xbf16> -> tensor<bf16>
  return %0, %1 : tensor<4xbf16>, tensor<bf16>
}

// CHECK-LABEL: func.func @reduce_f16_to_f32_with_schedule
// CHECK: hkg.reduce sum %{{.*}} axes = [1] {schedule = #hkg.schedule<rows_per_block = 4, threads = 256>} : tensor<32x512xf16> -> tensor<32xf32>
func.func @reduce_f16_to_f32_with_schedule(%x: tensor<32x512xf16>) -> tensor<32xf32> {
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<threads = 256, rows_per_block = 4>} : tensor<32x512xf16> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// Any adjacent axes, keeping them as 1 or not: the result type says which.
// CHECK-LABEL: func.func @reduce_middle_axes
// CHECK: hkg.reduce sum %{{.*}} axes = [1] : tensor<8x512x64xbf16> -> tensor<8x64xbf16>
// CHECK: hkg.reduce max %{{.*}} axes = [1] : tensor<8x512x64xbf16> -> tensor<8x1x64xbf16>
// CHECK: hkg.reduce min %{{.*}} axes = [0, 1] : tensor<8x512x64xbf16> -> tensor<64xf32>
func.func @reduce_middle_axes(%x: tensor<8x512x64xbf16>) -> (tensor<8x64xbf16>, tensor<8x1x64xbf16>, tensor<64xf32>) {
  %0 = hkg.reduce sum %x axes = [1] : tensor<8x512x64xbf16> -> tensor<8x64xbf16>
  %1 = hkg.reduce max %x axes = [1] : tensor<8x512x64xbf16> -> tensor<8x1x64xbf16>
  %2 = hkg.reduce min %x axes = [0, 1] : tensor<8x512x64xbf16> -> tensor<64xf32>
  return %0, %1, %2 : tensor<8x64xbf16>, tensor<8x1x64xbf16>, tensor<64xf32>
}
