// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// An unregistered op in the generic form is refused (hkg-opt does not allow
// unregistered dialect ops).

// CHECK: error: operation being parsed with an unregistered dialect
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "hkgx.softmax"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
