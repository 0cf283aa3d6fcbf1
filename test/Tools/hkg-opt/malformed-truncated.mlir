// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// Input that ends in the middle of a schedule attribute.

// CHECK: malformed-truncated.mlir:[[@LINE+2]]:56: error: unbalanced '<' character in pretty dialect name
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 64
