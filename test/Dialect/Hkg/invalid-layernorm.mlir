// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'hkg.layernorm' op expected 'input' of rank >= 1, got rank 0}}
  %0 = hkg.layernorm %x eps(1.0e-05) : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @result_shape(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @below {{expected the result shape to equal the input shape [4, 8], got [4, 4]}}
  %0 = hkg.layernorm %x eps(1.0e-05) : tensor<4x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @eps_zero(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'eps' > 0 and finite, got 0.000000e+00}}
  %0 = hkg.layernorm %x eps(0.0) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @eps_negative(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'eps' > 0 and finite, got -1.000000e-05}}
  %0 = hkg.layernorm %x eps(-1.0e-05) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @eps_infinite(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'eps' > 0 and finite, got INF}}
  %0 = hkg.layernorm %x eps(0x7F800000) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @eps_nan(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'eps' > 0 and finite, got nan}}
  %0 = hkg.layernorm %x eps(0x7FC00000) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @weight_shape(%x: tensor<4x8xf32>, %w: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'weight' of shape [8] (the last dim of the input), got [4]}}
  %0 = hkg.layernorm %x weight(%w : tensor<4xf32>) eps(1.0e-05) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @bias_rank(%x: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'bias' of shape [8] (the last dim of the input), got [4, 8]}}
  %0 = hkg.layernorm %x bias(%b : tensor<4x8xf32>) eps(1.0e-05) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The weight has the normalized dims, which are static.
func.func @dynamic_weight(%x: tensor<4x8xf32>, %w: tensor<?xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'weight' of shape [8] (the last dim of the input), got [?]}}
  %0 = hkg.layernorm %x weight(%w : tensor<?xf32>) eps(1.0e-05) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
