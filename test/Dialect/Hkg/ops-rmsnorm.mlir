// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @rmsnorm
// CHECK-SAME: (%[[X:.*]]: tensor<8192x8192xbf16>, %[[W:.*]]: tensor<8192xbf16>)
// CHECK: hkg.rmsnorm %[[X]] weight(%[[W]] : tensor<8192xbf16>) eps(9.99999997E-7) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
// GENERIC-LABEL: sym_name = "rmsnorm"
// GENERIC: "hkg.rmsnorm"(%{{.*}}, %{{.*}}) <{eps = 9.99999997E-7 : f32}> : (tensor<8192x8192xbf16>, tensor<8192xbf16>) -> tensor<8192x8192xbf16>
func.func @rmsnorm(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  return %0 : tensor<8192x8192xbf16>
}

// Mixed element types (f32 weight on f16 activations), rank 1 and rank 3.
// CHECK-LABEL: func.func @rmsnorm_mixed
// CHECK: hkg.rmsnorm %{{.*}} weight(%{{.*}} : tensor<4096xf32>) eps(1.000000e-01) : tensor<4096xf16> -> tensor<4096xf16>
// CHECK: hkg.rmsnorm %{{.*}} weight(%{{.*}} : tensor<4096xf32>) eps(1.000000e-01) {schedule = #hkg.schedule<threads = 64, vector_width = 4>} : tensor<2x4x4096xf16> -> tensor<2x4x4096xf32>
func.func @rmsnorm_mixed(%x: tensor<4096xf16>, %y: tensor<2x4x4096xf16>, %w: tensor<4096xf32>) -> (tensor<4096xf16>, tensor<2x4x4096xf32>) {
  %0 = hkg.rmsnorm %x weight(%w : tensor<4096xf32>) eps(0.1) : tensor<4096xf16> -> tensor<4096xf16>
  %1 = hkg.rmsnorm %y weight(%w : tensor<4096xf32>) eps(0.1) {schedule = #hkg.schedule<vector_width = 4, threads = 64>} : tensor<2x4x4096xf16> -> tensor<2x4x4096xf32>
  return %0, %1 : tensor<4096xf16>, tensor<2x4x4096xf32>
}

// Without a weight; over the last two dims; over one inner axis.
// CHECK-LABEL: func.func @rmsnorm_axes
// CHECK: hkg.rmsnorm %{{.*}} eps(9.99999997E-7) : tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK: hkg.rmsnorm %{{.*}} axes = [1, 2] weight(%{{.*}} : tensor<16x64xf16>) eps(9.99999997E-7) : tensor<8x16x64xf16> -> tensor<8x16x64xf16>
// CHECK: hkg.rmsnorm %{{.*}} axes = [0] weight(%{{.*}} : tensor<8xf32>) eps(9.99999997E-7) : tensor<8x64xf32> -> tensor<8x64xf32>
// GENERIC-LABEL: sym_name = "rmsnorm_axes"
// GENERIC: "hkg.rmsnorm"(%{{[^,]*}}) <{eps = 9.99999997E-7 : f32}>
// GENERIC: "hkg.rmsnorm"(%{{.*}}, %{{.*}}) <{axes = array<i64: 1, 2>, eps = 9.99999997E-7 : f32}>
// GENERIC: "hkg.rmsnorm"(%{{.*}}, %{{.*}}) <{axes = array<i64: 0>, eps = 9.99999997E-7 : f32}>
func.func @rmsnorm_axes(%x: tensor<8x64xf32>, %y: tensor<8x16x64xf16>, %w: tensor<16x64xf16>, %c: tensor<8xf32>) -> (tensor<8x64xf32>, tensor<8x16x64xf16>, tensor<8x64xf32>) {
  %0 = hkg.rmsnorm %x eps(1.0e-06) : tensor<8x64xf32> -> tensor<8x64xf32>
  %1 = hkg.rmsnorm %y axes = [1, 2] weight(%w : tensor<16x64xf16>) eps(1.0e-06) : tensor<8x16x64xf16> -> tensor<8x16x64xf16>
  %2 = hkg.rmsnorm %x axes = [0] weight(%c : tensor<8xf32>) eps(1.0e-06) : tensor<8x64xf32> -> tensor<8x64xf32>
  return %0, %1, %2 : tensor<8x64xf32>, tensor<8x16x64xf16>, tensor<8x64xf32>
}
