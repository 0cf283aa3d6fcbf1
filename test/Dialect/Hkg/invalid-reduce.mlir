// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @axis_above_rank(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{'hkg.reduce' op expected axes in [0, 2) for an input of rank 2, got 2}}
  %0 = hkg.reduce sum %x axes = [2] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @no_axes(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.reduce' op expected at least one axis to reduce}}
  %0 = hkg.reduce sum %x axes = [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @rank0_input(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{expected axes in [0, 0) for an input of rank 0, got 0}}
  %0 = hkg.reduce max %x axes = [0] : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @axes_out_of_order(%x: tensor<4x8x2xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected distinct axes in increasing order, got 2 before 1}}
  %0 = hkg.reduce sum %x axes = [2, 1] : tensor<4x8x2xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @axes_not_adjacent(%x: tensor<4x8x2xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected adjacent axes, got 0 and 2 (reduce them with two hkg.reduce ops, or permute first)}}
  %0 = hkg.reduce sum %x axes = [0, 2] : tensor<4x8x2xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @result_shape(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected result shape [4] (the input shape without the reduced axes) or [4, 1] (keeping them as 1), got [8]}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @result_keeps_wrong_dim(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  // expected-error @below {{expected result shape [4] (the input shape without the reduced axes) or [4, 1] (keeping them as 1), got [1, 8]}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @dynamic_input(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected operand #0 to have a static shape, got 'tensor<4x?xf32>'}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_kind(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, max, min, prod]}}
  %0 = hkg.reduce mean %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
