// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @lhs_rank(%a: tensor<64xf16>, %b: tensor<64x8xf16>) -> tensor<1x8xf16> {
  // expected-error @below {{'hkg.matmul' op expected 'lhs' of rank >= 2, got rank 1}}
  %0 = hkg.matmul %a, %b : tensor<64xf16>, tensor<64x8xf16> -> tensor<1x8xf16>
  return %0 : tensor<1x8xf16>
}

// -----

func.func @rhs_rank(%a: tensor<4x64xf16>, %b: tensor<64xf16>) -> tensor<4x1xf16> {
  // expected-error @below {{expected 'rhs' of rank >= 2, got rank 1}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64xf16> -> tensor<4x1xf16>
  return %0 : tensor<4x1xf16>
}

// -----

func.func @result_rank(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<32xf16> {
  // expected-error @below {{expected 'result' of rank >= 2, got rank 1}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<32xf16>
  return %0 : tensor<32xf16>
}

// -----

func.func @ranks_differ(%a: tensor<2x4x64xf16>, %b: tensor<64x8xf16>) -> tensor<2x4x8xf16> {
  // expected-error @below {{expected 'lhs', 'rhs' and the result to have the same rank, got 3, 2 and 3}}
  %0 = hkg.matmul %a, %b : tensor<2x4x64xf16>, tensor<64x8xf16> -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// -----

func.func @element_types_differ(%a: tensor<4x64xf16>, %b: tensor<64x8xbf16>) -> tensor<4x8xf32> {
  // expected-error @below {{expected 'lhs' and 'rhs' to have the same element type, got 'f16' and 'bf16'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xbf16> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @batch_dims_differ(%a: tensor<2x4x64xf16>, %b: tensor<3x64x8xf16>) -> tensor<2x4x8xf16> {
  // expected-error @below {{expected equal batch dims, got [2] for 'lhs', [3] for 'rhs' and [2] for the result}}
  %0 = hkg.matmul %a, %b : tensor<2x4x64xf16>, tensor<3x64x8xf16> -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// -----

func.func @contraction_mismatch(%a: tensor<4x64xf16>, %b: tensor<32x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected the contraction dims to match, got K = 64 for 'lhs' and K = 32 for 'rhs'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<32x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// With transpose_b, rhs is [N, K]: K is its last dim.
func.func @contraction_mismatch_transposed(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x64xf16> {
  // expected-error @below {{expected the contraction dims to match, got K = 64 for 'lhs' and K = 8 for 'rhs'}}
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

func.func @result_mn(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<8x4xf16> {
  // expected-error @below {{expected the result's trailing dims to be [M, N] = [4, 8], got [8, 4]}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

// -----

// With transpose_a, lhs is [K, M].
func.func @result_mn_transposed(%a: tensor<64x4xf16>, %b: tensor<64x8xf16>) -> tensor<64x8xf16> {
  // expected-error @below {{expected the result's trailing dims to be [M, N] = [4, 8], got [64, 8]}}
  %0 = hkg.matmul %a, %b {transpose_a} : tensor<64x4xf16>, tensor<64x8xf16> -> tensor<64x8xf16>
  return %0 : tensor<64x8xf16>
}

// -----

// A dynamic M where the result's is static (dynamic dims:
// invalid-dynamic-dims.mlir).
func.func @dynamic_operand(%a: tensor<?x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected the result's trailing dims to be [M, N] = [?, 8], got [4, 8]}}
  %0 = hkg.matmul %a, %b : tensor<?x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @dynamic_result(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x?xf16> {
  // expected-error @below {{expected the result's trailing dims to be [M, N] = [4, 8], got [4, ?]}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x?xf16>
  return %0 : tensor<4x?xf16>
}

// -----

// i8 is a matmul operand type (test/Dialect/Hkg/matmul-8bit.mlir); wider
// integers are not.
func.func @integer_operands(%a: tensor<4x64xi32>, %b: tensor<64x8xi32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.matmul' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type or f8E4M3FN type or f8E5M2 type or f8E4M3FNUZ type or f8E5M2FNUZ type or 8-bit signless integer values, but got 'tensor<4x64xi32>'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xi32>, tensor<64x8xi32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @epilogue_operands_without_region(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>, %bias: tensor<8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected an epilogue region to consume the 1 epilogue operand(s)}}
  %0 = hkg.matmul %a, %b epilogue(%bias : tensor<8xf16>) : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_operand_not_suffix(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>, %bias: tensor<4xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{cannot tell which result dims epilogue operand #0 of shape [4] follows in the result [4, 8]: its dims are not a suffix of the result's (dim 0 has extent 4, result dim d1 has 8) (it fits result dims (d0)); say which with 'indexing_maps' (one affine map per epilogue operand), or give it the result's rank, with 1 for each dim it does not follow}}
  %0 = hkg.matmul %a, %b epilogue(%bias : tensor<4xf16>) : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32, %x: f16):
    %r = arith.truncf %acc : f32 to f16
    hkg.yield %r : f16
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_arg_count(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>, %bias: tensor<8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected the epilogue to have 2 arguments (the f32 accumulator, then one per epilogue operand), got 1}}
  %0 = hkg.matmul %a, %b epilogue(%bias : tensor<8xf16>) : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32):
    %r = arith.truncf %acc : f32 to f16
    hkg.yield %r : f16
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_accumulator_type(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected the epilogue's first argument (the accumulator) to be 'f32' for 'f16' operands, got 'f16'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f16):
    hkg.yield %acc : f16
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_arg_type(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>, %bias: tensor<8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected epilogue argument #1 to be 'f16' (the element type of epilogue operand #0), got 'f32'}}
  %0 = hkg.matmul %a, %b epilogue(%bias : tensor<8xf16>) : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    %r = arith.truncf %s : f32 to f16
    hkg.yield %r : f16
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_foreign_op(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected only arith and math ops in the body, got 'tensor.empty'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32):
    %e = tensor.empty() : tensor<4xf32>
    %r = arith.truncf %acc : f32 to f16
    hkg.yield %r : f16
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_vector_value(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected scalar values in the body, got 'vector<4xf32>' from 'arith.constant'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32):
    %v = arith.constant dense<1.0> : vector<4xf32>
    %r = arith.truncf %acc : f32 to f16
    hkg.yield %r : f16
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_yield_type(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected the epilogue to yield one value of the result element type 'f16', got 'f32'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32):
    hkg.yield %acc : f32
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_without_yield(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected the epilogue to end with 'hkg.yield'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32):
    %r = arith.truncf %acc : f32 to f16
  }
  return %0 : tensor<4x8xf16>
}

// -----

func.func @epilogue_empty_block(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) -> tensor<4x8xf16> {
  // expected-error @below {{expected the epilogue to end with 'hkg.yield'}}
  %0 = hkg.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16> {
  ^bb0(%acc: f32):
  }
  return %0 : tensor<4x8xf16>
}

// -----

// A transposed epilogue operand cannot be read by the epilogue.
func.func @epilogue_transposed(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>, %t: tensor<64x32xf32>) -> tensor<32x64xf32> {
  // expected-error @below {{epilogue operand #0 of shape [64, 32] mapped by affine_map<(d0, d1) -> (d1, d0)> cannot be read by the epilogue: it must be contiguous along n (the result's last dim); apply it in an hkg.elementwise}}
  %0 = hkg.matmul %x, %w epilogue(%t : tensor<64x32xf32>) {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>]} : tensor<32x16xf32>, tensor<16x64xf32> -> tensor<32x64xf32> {
  ^bb0(%acc: f32, %v: f32):
    %s = arith.addf %acc, %v : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<32x64xf32>
}

// -----

func.func @epilogue_map_count(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<32x64xf32> {
  // expected-error @below {{expected one indexing map per epilogue operand (1), got 2}}
  %0 = hkg.matmul %x, %w epilogue(%b : tensor<64xf32>) {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>]} : tensor<32x16xf32>, tensor<16x64xf32> -> tensor<32x64xf32> {
  ^bb0(%acc: f32, %v: f32):
    %s = arith.addf %acc, %v : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<32x64xf32>
}

// -----

func.func @epilogue_map_wrong_extent(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<32x64xf32> {
  // expected-error @below {{indexing map #0 does not fit epilogue operand #0 of shape [64] to the result shape [32, 64]}}
  %0 = hkg.matmul %x, %w epilogue(%b : tensor<64xf32>) {indexing_maps = [affine_map<(d0, d1) -> (d0)>]} : tensor<32x16xf32>, tensor<16x64xf32> -> tensor<32x64xf32> {
  ^bb0(%acc: f32, %v: f32):
    %s = arith.addf %acc, %v : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<32x64xf32>
}

// -----

func.func @maps_without_epilogue(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>) -> tensor<32x64xf32> {
  // expected-error @below {{expected 'indexing_maps' only with epilogue operands}}
  %0 = hkg.matmul %x, %w {indexing_maps = []} : tensor<32x16xf32>, tensor<16x64xf32> -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
