// RUN: hkg-opt %s --split-input-file --verify-diagnostics

// Kernel ops take ranked tensors of f32, f16 or bf16: not unranked tensors,
// memrefs, vectors or scalars (ODS type constraints).

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @below {{'hkg.softmax' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<*xf32>'}}
  %0 = "hkg.softmax"(%x) <{axis = 0 : i64}> : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @memref(%x: memref<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.softmax' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'memref<4x8xf32>'}}
  %0 = "hkg.softmax"(%x) <{axis = 1 : i64}> : (memref<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @vector(%x: vector<4x8xf16>) -> tensor<4xf32> {
  // expected-error @below {{'hkg.reduce' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'vector<4x8xf16>'}}
  %0 = "hkg.reduce"(%x) <{axes = array<i64: 1>, kinds = [0 : i32]}> ({}, {}) : (vector<4x8xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scalar_bias(%x: tensor<4x8xf32>, %b: f32) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.elementwise' op operand #1 must be variadic of ranked tensor of 64-bit float or 32-bit float or 16-bit float or bfloat16 type or 1-bit signless integer or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'f32'}}
  %0 = "hkg.elementwise"(%x, %b) ({
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    hkg.yield %s : f32
  }) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @f8_attention(%q: tensor<1x2x64x32xf8E4M3FN>) -> tensor<1x2x64x32xf8E4M3FN> {
  // expected-error @below {{'hkg.attention' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<1x2x64x32xf8E4M3FN>'}}
  %0 = hkg.attention %q, %q, %q : tensor<1x2x64x32xf8E4M3FN>, tensor<1x2x64x32xf8E4M3FN>, tensor<1x2x64x32xf8E4M3FN> -> tensor<1x2x64x32xf8E4M3FN>
  return %0 : tensor<1x2x64x32xf8E4M3FN>
}

// -----

func.func @float_token_ids(%l: tensor<2x100xf32>) -> tensor<2xf32> {
  // expected-error @below {{'hkg.top_p_sample' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(1) : tensor<2x100xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
