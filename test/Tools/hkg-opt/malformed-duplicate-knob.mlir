// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// CHECK: malformed-duplicate-knob.mlir:[[@LINE+2]]:71: error: knob 'threads' is set twice
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 64, threads = 128>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
