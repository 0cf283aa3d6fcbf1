// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @rank0(%x: tensor<f32>, %w: tensor<1xf32>) -> tensor<f32> {
  // expected-error @below {{'hkg.rmsnorm' op expected 'input' of rank >= 1, got rank 0}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<1xf32>) eps(1.0e-06) : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @result_shape(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<32xf32> {
  // expected-error @below {{expected the result shape to equal the input shape [4, 8], got [32]}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<8xf32>) eps(1.0e-06) : tensor<4x8xf32> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

func.func @eps_zero(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'eps' > 0 and finite, got 0.000000e+00}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<8xf32>) eps(0.0) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @weight_shape(%x: tensor<4x8xf32>, %w: tensor<16xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'weight' of shape [8] (the last dim of the input), got [16]}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<16xf32>) eps(1.0e-06) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @f64_weight(%x: tensor<4x8xf32>, %w: tensor<8xf64>) -> tensor<4x8xf32> {
  // expected-error @below {{operand #1 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<8xf64>'}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<8xf64>) eps(1.0e-06) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @eps_not_f32(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.rmsnorm' op attribute 'eps' failed to satisfy constraint: 32-bit float attribute}}
  %0 = "hkg.rmsnorm"(%x, %w) <{eps = 1.0e-06 : f64}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
