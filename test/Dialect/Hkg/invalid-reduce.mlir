// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @dims_above_rank(%x: tensor<4x8xf32>) -> tensor<f32> {
  // expected-error @below {{'hkg.reduce' op expected 'dims' in [1, 2] for an input of rank 2, got 3}}
  %0 = hkg.reduce sum %x dims(3) : tensor<4x8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @dims_zero(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.reduce' op attribute 'dims' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  %0 = hkg.reduce sum %x dims(0) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @rank0_input(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{expected 'dims' in [1, 0] for an input of rank 0, got 1}}
  %0 = hkg.reduce max %x dims(1) : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @result_shape(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected result shape [4] (the input shape without its 1 trailing dim(s)), got [8]}}
  %0 = hkg.reduce sum %x dims(1) : tensor<4x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @result_keeps_reduced_dim(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  // expected-error @below {{expected result shape [4] (the input shape without its 1 trailing dim(s)), got [4, 1]}}
  %0 = hkg.reduce sum %x dims(1) : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @dynamic_input(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected operand #0 to have a static shape, got 'tensor<4x?xf32>'}}
  %0 = hkg.reduce sum %x dims(1) : tensor<4x?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_kind(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, max, min, prod]}}
  %0 = hkg.reduce mean %x dims(1) : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
