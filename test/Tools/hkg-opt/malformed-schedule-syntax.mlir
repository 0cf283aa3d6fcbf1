// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// A knob without a value.

// CHECK: malformed-schedule-syntax.mlir:[[@LINE+2]]:72: error: expected an integer or a keyword as the value of knob 'vector_width'
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = >} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
