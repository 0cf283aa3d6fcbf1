// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// The type written in the op disagrees with the operand's type.

// CHECK: malformed-wrong-types.mlir:[[@LINE+2]]:20: error: use of value '%x' expects different type than prior uses: 'tensor<4x8xf16>' vs 'tensor<4x8xf32>'
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %0 = hkg.softmax %x axis(1) : tensor<4x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
