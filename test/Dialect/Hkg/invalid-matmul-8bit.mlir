// hkg.matmul over 8-bit operands: what the op verifier refuses.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @mixed_fp8(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E5M2>) -> tensor<64x64xf32> {
  // expected-error @below {{'hkg.matmul' op expected 'lhs' and 'rhs' of one 8-bit float type, got 'f8E4M3FN' and 'f8E5M2' (mixed fp8 formats are not implemented); convert one operand to the other's type}}
  %c = hkg.matmul %a, %b : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E5M2> -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

func.func @fp8_times_i8(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xi8>) -> tensor<64x64xf32> {
  // expected-error @below {{'hkg.matmul' op expected 'lhs' and 'rhs' to have the same element type, got 'f8E4M3FN' and 'i8'}}
  %c = hkg.matmul %a, %b : tensor<64x64xf8E4M3FN>, tensor<64x64xi8> -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

func.func @i32_result_of_floats(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E4M3FN>) -> tensor<64x64xi32> {
  // expected-error @below {{'hkg.matmul' op expected a float result for 'f8E4M3FN' operands, got 'i32' (i32 results hold the exact sums of i8 operands)}}
  %c = hkg.matmul %a, %b : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E4M3FN> -> tensor<64x64xi32>
  return %c : tensor<64x64xi32>
}

// -----

func.func @i8_epilogue_takes_i32(%a: tensor<64x64xi8>, %b: tensor<64x64xi8>) -> tensor<64x64xf32> {
  // expected-error @below {{'hkg.matmul' op expected the epilogue's first argument (the accumulator) to be 'i32' for 'i8' operands, got 'f32'}}
  %c = hkg.matmul %a, %b : tensor<64x64xi8>, tensor<64x64xi8> -> tensor<64x64xf32> {
  ^bb0(%acc: f32):
    hkg.yield %acc : f32
  }
  return %c : tensor<64x64xf32>
}

// -----

func.func @fp8_epilogue_takes_f32(%a: tensor<64x64xf8E5M2>, %b: tensor<64x64xf8E5M2>) -> tensor<64x64xbf16> {
  // expected-error @below {{'hkg.matmul' op expected the epilogue's first argument (the accumulator) to be 'f32' for 'f8E5M2' operands, got 'bf16'}}
  %c = hkg.matmul %a, %b : tensor<64x64xf8E5M2>, tensor<64x64xf8E5M2> -> tensor<64x64xbf16> {
  ^bb0(%acc: bf16):
    hkg.yield %acc : bf16
  }
  return %c : tensor<64x64xbf16>
}

// -----

func.func @i4_operands(%a: tensor<64x64xi4>, %b: tensor<64x64xi4>) -> tensor<64x64xi32> {
  // expected-error @below {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type or f8E4M3FN type or f8E5M2 type or f8E4M3FNUZ type or f8E5M2FNUZ type or 8-bit signless integer values, but got 'tensor<64x64xi4>'}}
  %c = hkg.matmul %a, %b : tensor<64x64xi4>, tensor<64x64xi4> -> tensor<64x64xi32>
  return %c : tensor<64x64xi32>
}
