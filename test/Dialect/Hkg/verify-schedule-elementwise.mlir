// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=gfx942 --verify-diagnostics

// ElementwiseOp: a broadcast input's element count must be a multiple of
// the vector width; inputs of the result's size are exempt.

func.func @broadcast_not_divisible(%x: tensor<16x6xf32>, %b: tensor<6xf32>) -> tensor<16x6xf32> {
  // expected-error @below {{'hkg.elementwise' op schedule knob 'vector_width' = 4 must divide the 6 elements of broadcast input #1}}
  %0 = hkg.elementwise %x, %b {schedule = #hkg.schedule<vector_width = 4>} : tensor<16x6xf32>, tensor<6xf32> -> tensor<16x6xf32> {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<16x6xf32>
}

// -----

func.func @scalar_broadcast(%x: tensor<64xf32>, %k: tensor<f32>) -> tensor<64xf32> {
  // expected-error @below {{'hkg.elementwise' op schedule knob 'vector_width' = 2 must divide the 1 elements of broadcast input #1}}
  %0 = hkg.elementwise %x, %k {schedule = #hkg.schedule<vector_width = 2>} : tensor<64xf32>, tensor<f32> -> tensor<64xf32> {
  ^bb0(%a: f32, %c: f32):
    %s = arith.mulf %a, %c : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<64xf32>
}

// -----

func.func @unroll_illegal(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @below {{schedule knob 'unroll' = 3 is not legal for hkg.elementwise on gfx942; expected one of: 1, 2, 4, 8}}
  %0 = hkg.elementwise %x {schedule = #hkg.schedule<unroll = 3>} : tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<64xf32>
}
