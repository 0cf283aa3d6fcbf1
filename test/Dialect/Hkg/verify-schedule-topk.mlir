// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=sm_90 --verify-diagnostics

// TopKOp: vectors run along the axis, so they need a contiguous axis whose
// size they divide.

func.func @vector_on_strided_axis(%x: tensor<2x16x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xi32>) {
  // expected-error @below {{'hkg.topk' op schedule knob 'vector_width' = 4 is not legal for hkg.topk on sm_90; expected one of: 1}}
  %v, %i = hkg.topk %x k(4) axis(1) {schedule = #hkg.schedule<vector_width = 4>} : tensor<2x16x8xf32> -> tensor<2x4x8xf32>, tensor<2x4x8xi32>
  return %v, %i : tensor<2x4x8xf32>, tensor<2x4x8xi32>
}

// -----

func.func @vector_not_dividing(%x: tensor<4x1022xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  // expected-error @below {{'hkg.topk' op schedule knob 'vector_width' = 4 is not legal for hkg.topk on sm_90; expected one of: 1, 2}}
  %v, %i = hkg.topk %x k(2) axis(1) {schedule = #hkg.schedule<vector_width = 4>} : tensor<4x1022xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func @threads_too_few(%x: tensor<4x1024xf32>) -> (tensor<4x4xf32>, tensor<4x4xi32>) {
  // expected-error @below {{'hkg.topk' op schedule knob 'threads' = 64 is not legal for hkg.topk on sm_90; expected one of: 128, 256, 512, 1024}}
  %v, %i = hkg.topk %x k(4) axis(1) {schedule = #hkg.schedule<threads = 64>} : tensor<4x1024xf32> -> tensor<4x4xf32>, tensor<4x4xi32>
  return %v, %i : tensor<4x4xf32>, tensor<4x4xi32>
}

// -----

// A wave per slice only where the slice fits 32 elements a lane and k <= 32.
func.func @wave_too_long(%x: tensor<4x2048xf32>) -> (tensor<4x4xf32>, tensor<4x4xi32>) {
  // expected-error @below {{'hkg.topk' op schedule knob 'per_slice' = wave is not legal for hkg.topk on sm_90; expected one of: workgroup}}
  %v, %i = hkg.topk %x k(4) axis(1) {schedule = #hkg.schedule<per_slice = wave>} : tensor<4x2048xf32> -> tensor<4x4xf32>, tensor<4x4xi32>
  return %v, %i : tensor<4x4xf32>, tensor<4x4xi32>
}
