// RUN: not hkg-opt %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// The op's schedule must be an #hkg.schedule, not a plain dictionary.

// CHECK: error: invalid properties {axis = 1 : i64, schedule = {threads = 64 : i64}} for op hkg.softmax: Invalid attribute `schedule` in property conversion: {threads = 64 : i64}
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "hkg.softmax"(%x) <{axis = 1 : i64, schedule = {threads = 64 : i64}}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
