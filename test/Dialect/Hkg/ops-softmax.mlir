// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @softmax_last_axis
// CHECK-SAME: (%[[X:.*]]: tensor<8192x8192xbf16>)
// CHECK: %[[R:.*]] = hkg.softmax %[[X]] axis(1) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "softmax_last_axis"
// GENERIC: "hkg.softmax"(%{{.*}}) <{axis = 1 : i64}> : (tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
func.func @softmax_last_axis(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  return %0 : tensor<8192x8192xbf16>
}

// CHECK-LABEL: func.func @softmax_inner_axis_rank3
// CHECK: hkg.softmax %{{.*}} axis(0) : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
// CHECK: hkg.softmax %{{.*}} axis(1) : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
func.func @softmax_inner_axis_rank3(%x: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x16xf32>) {
  %0 = hkg.softmax %x axis(0) : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %1 = hkg.softmax %x axis(1) : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  return %0, %1 : tensor<4x8x16xf32>, tensor<4x8x16xf32>
}

// CHECK-LABEL: func.func @softmax_mixed_types_schedule
// CHECK: hkg.softmax %{{.*}} axis(0) {schedule = #hkg.schedule<online = 0, row_cache = lds>} : tensor<1024xf16> -> tensor<1024xf32>
func.func @softmax_mixed_types_schedule(%x: tensor<1024xf16>) -> tensor<1024xf32> {
  %0 = hkg.softmax %x axis(0) {schedule = #hkg.schedule<row_cache = lds, online = 0>} : tensor<1024xf16> -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}
