// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @rank0(%x: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @below {{'hkg.topk' op expected 'input' of rank >= 1, got rank 0}}
  %v, %i = hkg.topk %x k(1) axis(0) : tensor<f32> -> tensor<f32>, tensor<i32>
  return %v, %i : tensor<f32>, tensor<i32>
}

// -----

func.func @axis_too_large(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>) {
  // expected-error @below {{'hkg.topk' op expected 'axis' in [0, 1], got 2}}
  %v, %i = hkg.topk %x k(1) axis(2) : tensor<4x8xf32> -> tensor<4x1xf32>, tensor<4x1xi32>
  return %v, %i : tensor<4x1xf32>, tensor<4x1xi32>
}

// -----

func.func @axis_negative(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>) {
  // expected-error @below {{attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
  %v, %i = hkg.topk %x k(1) axis(-1) : tensor<4x8xf32> -> tensor<4x1xf32>, tensor<4x1xi32>
  return %v, %i : tensor<4x1xf32>, tensor<4x1xi32>
}

// -----

func.func @k_zero(%x: tensor<4x8xf32>) -> (tensor<4x0xf32>, tensor<4x0xi32>) {
  // expected-error @below {{attribute 'k' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 1024}}
  %v, %i = hkg.topk %x k(0) axis(1) : tensor<4x8xf32> -> tensor<4x0xf32>, tensor<4x0xi32>
  return %v, %i : tensor<4x0xf32>, tensor<4x0xi32>
}

// -----

func.func @k_above_1024(%x: tensor<4x4096xf32>) -> (tensor<4x2048xf32>, tensor<4x2048xi32>) {
  // expected-error @below {{attribute 'k' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 1024}}
  %v, %i = hkg.topk %x k(2048) axis(1) : tensor<4x4096xf32> -> tensor<4x2048xf32>, tensor<4x2048xi32>
  return %v, %i : tensor<4x2048xf32>, tensor<4x2048xi32>
}

// -----

func.func @k_above_axis(%x: tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x9xi32>) {
  // expected-error @below {{'hkg.topk' op expected 'k' <= the size of axis 1 (8), got 9}}
  %v, %i = hkg.topk %x k(9) axis(1) : tensor<4x8xf32> -> tensor<4x9xf32>, tensor<4x9xi32>
  return %v, %i : tensor<4x9xf32>, tensor<4x9xi32>
}

// -----

func.func @values_shape(%x: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x2xi32>) {
  // expected-error @below {{'hkg.topk' op expected 'values' of shape [4, 2] (the input's, with axis 1 of size k), got [4, 3]}}
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<4x8xf32> -> tensor<4x3xf32>, tensor<4x2xi32>
  return %v, %i : tensor<4x3xf32>, tensor<4x2xi32>
}

// -----

func.func @indices_shape(%x: tensor<4x8xf32>) -> (tensor<1x8xf32>, tensor<4x1xi32>) {
  // expected-error @below {{'hkg.topk' op expected 'indices' of shape [1, 8] (the input's, with axis 0 of size k), got [4, 1]}}
  %v, %i = hkg.topk %x k(1) axis(0) : tensor<4x8xf32> -> tensor<1x8xf32>, tensor<4x1xi32>
  return %v, %i : tensor<1x8xf32>, tensor<4x1xi32>
}

// -----

func.func @values_type(%x: tensor<4x8xf32>) -> (tensor<4x2xbf16>, tensor<4x2xi32>) {
  // expected-error @below {{'hkg.topk' op expected 'values' of the input's element type 'f32', got 'bf16'}}
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<4x8xf32> -> tensor<4x2xbf16>, tensor<4x2xi32>
  return %v, %i : tensor<4x2xbf16>, tensor<4x2xi32>
}

// -----

func.func @indices_type(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi16>) {
  // expected-error @below {{'hkg.topk' op result #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4x2xi16>'}}
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi16>
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi16>
}

// -----

func.func @dynamic(%x: tensor<?x8xf32>) -> (tensor<?x2xf32>, tensor<?x2xi32>) {
  // expected-error @below {{'hkg.topk' op expected operand #0 to have a static shape, got 'tensor<?x8xf32>'}}
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<?x8xf32> -> tensor<?x2xf32>, tensor<?x2xi32>
  return %v, %i : tensor<?x2xf32>, tensor<?x2xi32>
}

// -----

func.func @unknown_attr(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  // expected-error @below {{'hkg.topk' op has unknown attribute 'largest'; expected only its own attributes (axis, k, schedule) or a dialect's ('<dialect>.<name>')}}
  %v, %i = hkg.topk %x k(2) axis(1) {largest = false} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
