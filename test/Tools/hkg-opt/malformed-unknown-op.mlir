// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// An op the hkg dialect does not define is a parse error with a location
// and a non-zero exit, not a crash.

// CHECK: malformed-unknown-op.mlir:[[@LINE+2]]:8: error: custom op 'hkg.conv2d' is unknown
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hkg.conv2d %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
