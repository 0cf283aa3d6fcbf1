// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// Kernel ops compute on f32, f16 and bf16 only.

// CHECK: error: 'hkg.rmsnorm' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4x8xi8>'
func.func @f(%x: tensor<4x8xi8>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8xf32>) eps(1.0e-06) : tensor<4x8xi8> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
