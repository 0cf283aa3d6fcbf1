// RUN: hkg-opt %s --split-input-file --verify-diagnostics

// hkg.layernorm / hkg.rmsnorm `axes`: trailing axes or one axis, adjacent,
// increasing, in range; weight and bias of exactly the normalized dims'
// shape.

func.func @axes_empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected at least one axis to normalize over (omit 'axes' for the last dim)}}
  %0 = hkg.layernorm %x axes = [] eps(1.0e-05) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @axis_out_of_range(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.rmsnorm' op expected axes in [0, 2) for an input of rank 2, got 2}}
  %0 = hkg.rmsnorm %x axes = [2] eps(1.0e-06) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @axis_negative(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected axes in [0, 2) for an input of rank 2, got -1}}
  %0 = hkg.layernorm %x axes = [-1] eps(1.0e-05) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @axes_decreasing(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected distinct axes in increasing order, got 2 before 1}}
  %0 = hkg.layernorm %x axes = [2, 1] eps(1.0e-05) : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @axes_repeated(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @below {{'hkg.rmsnorm' op expected distinct axes in increasing order, got 2 before 2}}
  %0 = hkg.rmsnorm %x axes = [2, 2] eps(1.0e-06) : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @axes_not_adjacent(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected adjacent axes, got 0 and 2}}
  %0 = hkg.layernorm %x axes = [0, 2] eps(1.0e-05) : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// Several axes with kept dims after them: neither trailing nor one axis.
func.func @axes_inner_pair(%x: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  // expected-error @below {{'hkg.rmsnorm' op expected trailing axes (ending at the last dim, 3) or a single axis, got [1, 2] for an input of rank 4}}
  %0 = hkg.rmsnorm %x axes = [1, 2] eps(1.0e-06) : tensor<2x4x8x16xf32> -> tensor<2x4x8x16xf32>
  return %0 : tensor<2x4x8x16xf32>
}

// -----

// Trailing axes [1, 2] of [B, S, H]: the weight is [S, H], not [H].
func.func @weight_last_dim_only(%x: tensor<2x4x8xf32>, %w: tensor<8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected 'weight' of shape [4, 8] (the input's dims at axes [1, 2]), got [8]}}
  %0 = hkg.layernorm %x axes = [1, 2] weight(%w : tensor<8xf32>) eps(1.0e-05) : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// Nor flattened: the weight has the normalized dims' shape exactly.
func.func @weight_flattened(%x: tensor<2x4x8xf32>, %w: tensor<32xf32>) -> tensor<2x4x8xf32> {
  // expected-error @below {{'hkg.rmsnorm' op expected 'weight' of shape [4, 8] (the input's dims at axes [1, 2]), got [32]}}
  %0 = hkg.rmsnorm %x axes = [1, 2] weight(%w : tensor<32xf32>) eps(1.0e-06) : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// One inner axis of [B, C, L]: the weight follows C, not L.
func.func @weight_follows_axis(%x: tensor<2x4x8xf32>, %w: tensor<8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected 'weight' of shape [4] (the input's dims at axes [1]), got [8]}}
  %0 = hkg.layernorm %x axes = [1] weight(%w : tensor<8xf32>) eps(1.0e-05) : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// A square input: [8] fits either dim, and the axis says which; a weight
// broadcast with a leading 1 is not the normalized dims' shape.
func.func @bias_leading_one(%x: tensor<8x8xf32>, %b: tensor<1x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected 'bias' of shape [8] (the input's dims at axes [0]), got [1, 8]}}
  %0 = hkg.layernorm %x axes = [0] bias(%b : tensor<1x8xf32>) eps(1.0e-05) : tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @bias_shape_default_axis(%x: tensor<2x4x8xf32>, %w: tensor<8xf32>, %b: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @below {{'hkg.layernorm' op expected 'bias' of shape [8] (the last dim of the input), got [4, 8]}}
  %0 = hkg.layernorm %x weight(%w : tensor<8xf32>) bias(%b : tensor<4x8xf32>) eps(1.0e-05) : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}
