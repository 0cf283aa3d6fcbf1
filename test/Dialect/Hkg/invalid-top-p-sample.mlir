// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @logits_rank(%l: tensor<1000xf32>) -> tensor<1xi32> {
  // expected-error @below {{'hkg.top_p_sample' op expected 'logits' of rank 2 [B, V], got rank 1}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(1) : tensor<1000xf32> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// -----

func.func @p_zero(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  // expected-error @below {{expected 'p' in (0, 1], got 0.000000e+00}}
  %0 = hkg.top_p_sample %l p(0.0) temperature(1.0) seed(1) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @p_above_one(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  // expected-error @below {{expected 'p' in (0, 1], got 1.500000e+00}}
  %0 = hkg.top_p_sample %l p(1.5) temperature(1.0) seed(1) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @temperature_zero(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  // expected-error @below {{expected 'temperature' > 0 and finite, got 0.000000e+00}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(0.0) seed(1) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @temperature_infinite(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  // expected-error @below {{expected 'temperature' > 0 and finite, got INF}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(0x7F800000) seed(1) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @neither_seed_nor_uniform(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  // expected-error @below {{expected exactly one of 'seed' and 'uniform', got neither}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @both_seed_and_uniform(%l: tensor<2x1000xf32>, %u: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @below {{expected exactly one of 'seed' and 'uniform', got both}}
  %0 = hkg.top_p_sample %l uniform(%u : tensor<2xf32>) p(0.9) temperature(1.0) seed(3) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @uniform_shape(%l: tensor<2x1000xf32>, %u: tensor<4xf32>) -> tensor<2xi32> {
  // expected-error @below {{expected 'uniform' of type tensor<2xf32>, got 'tensor<4xf32>'}}
  %0 = hkg.top_p_sample %l uniform(%u : tensor<4xf32>) p(0.9) temperature(1.0) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @uniform_type(%l: tensor<2x1000xf32>, %u: tensor<2xf16>) -> tensor<2xi32> {
  // expected-error @below {{expected 'uniform' of type tensor<2xf32>, got 'tensor<2xf16>'}}
  %0 = hkg.top_p_sample %l uniform(%u : tensor<2xf16>) p(0.9) temperature(1.0) : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @result_shape(%l: tensor<2x1000xf32>) -> tensor<4xi32> {
  // expected-error @below {{expected the result of type tensor<2xi32>, got 'tensor<4xi32>'}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(1) : tensor<2x1000xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @result_element_type(%l: tensor<2x1000xf32>) -> tensor<2xi64> {
  // expected-error @below {{result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<2xi64>'}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(1) : tensor<2x1000xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
