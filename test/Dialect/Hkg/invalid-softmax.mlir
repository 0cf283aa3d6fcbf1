// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'hkg.softmax' op expected 'input' of rank >= 1, got rank 0}}
  %0 = hkg.softmax %x axis(0) : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @axis_too_large(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'axis' in [0, 1], got 2}}
  %0 = hkg.softmax %x axis(2) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @axis_negative(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'axis' in [0, 1], got -1}}
  %0 = hkg.softmax %x axis(-1) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @result_shape(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @below {{expected the result shape to equal the input shape [4, 8], got [8, 4]}}
  %0 = hkg.softmax %x axis(1) : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A dynamic result dim where the input's is static.
func.func @dynamic_result(%x: tensor<4x8xf32>) -> tensor<?x8xf32> {
  // expected-error @below {{expected the result shape to equal the input shape [4, 8], got [?, 8]}}
  %0 = hkg.softmax %x axis(1) : tensor<4x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @integer_input(%x: tensor<4x8xi32>) -> tensor<4x8xf32> {
  // expected-error @below {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4x8xi32>'}}
  %0 = hkg.softmax %x axis(1) : tensor<4x8xi32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
