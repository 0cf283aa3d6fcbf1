// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @no_inputs() -> tensor<4xf32> {
  // expected-error @below {{'hkg.elementwise' op expected at least one input}}
  %0 = "hkg.elementwise"() ({
    %c = arith.constant 1.0 : f32
    hkg.yield %c : f32
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Without a map, a lower-rank input must line up with the result's trailing
// dims: [4] fits d0 of [4, 8] but is not a suffix, so hkg asks for a map
// rather than guess.
func.func @input_not_suffix(%x: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{cannot tell which result dims input #1 of shape [4] follows in the result shape [4, 8]: its dims are not a suffix of the result's (dim 0 has extent 4, result dim d1 has 8) (it fits result dims (d0)); say which with 'indexing_maps'}}
  %0 = hkg.elementwise %x, %b : tensor<4x8xf32>, tensor<4xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

// An input of higher rank than the result follows no map.
func.func @input_larger_than_result(%x: tensor<2x4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{cannot tell which result dims input #0 of shape [2, 4, 8] follows in the result shape [4, 8]: the operand has rank 3, more than the result's 2; say which with 'indexing_maps'}}
  %0 = hkg.elementwise %x : tensor<2x4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @body_arg_count(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected the body to have one argument per input (2), got 1}}
  %0 = hkg.elementwise %x, %y : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @body_arg_type(%x: tensor<8xbf16>) -> tensor<8xf32> {
  // expected-error @below {{expected body argument #0 to be 'bf16' (the element type of input #0), got 'f32'}}
  %0 = hkg.elementwise %x : tensor<8xbf16> -> tensor<8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @foreign_op_in_body(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected only arith and math ops in the body, got 'tensor.empty'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    %e = tensor.empty() : tensor<8xf32>
    hkg.yield %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @vector_in_body(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected scalar values in the body, got 'vector<2xf32>' from 'arith.constant'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    %v = arith.constant dense<0.0> : vector<2xf32>
    hkg.yield %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @yield_wrong_type(%x: tensor<8xf32>) -> tensor<8xbf16> {
  // expected-error @below {{expected the body to yield one value of the result element type 'bf16', got 'f32'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xbf16> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<8xbf16>
}

// -----

// The op checks its body before hkg.yield checks its own operand count.
func.func @yield_two_values(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected the body to yield one value of the result element type 'f32', got 'f32', 'f32'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a, %a : f32, f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @body_without_yield(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected the body to end with 'hkg.yield'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @empty_body_block(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected the body to end with 'hkg.yield'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @body_ends_with_foreign_terminator(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected only arith and math ops in the body, got 'func.return'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    func.return %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @no_body_block(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{'hkg.elementwise' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "hkg.elementwise"(%x) ({}) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A dynamic input dim where the result's is static (dynamic dims:
// invalid-dynamic-dims.mlir).
func.func @dynamic_input(%x: tensor<?xf32>) -> tensor<8xf32> {
  // expected-error @below {{cannot tell which result dims input #0 of shape [?] follows in the result shape [8]: operand dim 0 has extent ? where the result has 8}}
  %0 = hkg.elementwise %x : tensor<?xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @f8_result(%x: tensor<8xf32>) -> tensor<8xf8E4M3FN> {
  // expected-error @below {{result #0 must be ranked tensor of 64-bit float or 32-bit float or 16-bit float or bfloat16 type or 1-bit signless integer or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<8xf8E4M3FN>'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf8E4M3FN> {
  ^bb0(%a: f32):
    %e = arith.truncf %a : f32 to f8E4M3FN
    hkg.yield %e : f8E4M3FN
  }
  return %0 : tensor<8xf8E4M3FN>
}

// -----

// The silent wrong answer this rule exists for: [N] over a square [N, N]
// fits the rows and the columns; hkg asks which.
func.func @square_broadcast_is_ambiguous(%x: tensor<64x64xf32>, %s: tensor<64xf32>) -> tensor<64x64xf32> {
  // expected-error @below {{cannot tell which result dims input #1 of shape [64] follows in the result shape [64, 64]: it can follow result dims (d0) or (d1); say which with 'indexing_maps'}}
  %0 = hkg.elementwise %x, %s : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<64x64xf32>
}

// -----

func.func @ambiguous_rank2_in_rank3(%x: tensor<8x8x8xf32>, %s: tensor<8x8xf32>) -> tensor<8x8x8xf32> {
  // expected-error @below {{input #1 of shape [8, 8] follows in the result shape [8, 8, 8]: it can follow result dims (d0, d1) or (d0, d2) (or others)}}
  %0 = hkg.elementwise %x, %s : tensor<8x8x8xf32>, tensor<8x8xf32> -> tensor<8x8x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<8x8x8xf32>
}

// -----

func.func @same_rank_mismatch(%x: tensor<4x8xf32>, %s: tensor<4x2xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{input #1 of shape [4, 2] follows in the result shape [4, 8]: operand dim 1 has extent 2 where the result has 8 (expected equal, or 1 to broadcast)}}
  %0 = hkg.elementwise %x, %s : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @map_count(%x: tensor<4x8xf32>, %s: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected one indexing map per input (2), got 1}}
  %0 = hkg.elementwise %x, %s {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>]} : tensor<4x8xf32>, tensor<4xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @map_wrong_extent(%x: tensor<4x8xf32>, %s: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{indexing map #1 does not fit input #1 of shape [4] to the result shape [4, 8]: operand dim 0 has extent 4 but follows result dim d1 of extent 8}}
  %0 = hkg.elementwise %x, %s {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>]} : tensor<4x8xf32>, tensor<4xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @map_dims(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{indexing map #0 does not fit input #0 of shape [4, 8] to the result shape [4, 8]: expected a map of the result's 2 dims and no symbols, got (d0, d1, d2) -> (d0, d1)}}
  %0 = hkg.elementwise %x {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>]} : tensor<4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @map_not_a_dim(%x: tensor<4x8xf32>, %s: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{indexing map #1 does not fit input #1 of shape [8] to the result shape [4, 8]: map result #0 (d0 + d1) must be a result dim or the constant 0}}
  %0 = hkg.elementwise %x, %s {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 + d1)>]} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @map_dim_twice(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{indexing map #0 does not fit input #0 of shape [8, 8] to the result shape [8, 8]: result dim d0 is used twice in (d0, d1) -> (d0, d0)}}
  %0 = hkg.elementwise %x {indexing_maps = [affine_map<(d0, d1) -> (d0, d0)>]} : tensor<8x8xf32> -> tensor<8x8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<8x8xf32>
}

// -----

func.func @map_constant_not_broadcast(%x: tensor<4x8xf32>, %s: tensor<4x2xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{indexing map #1 does not fit input #1 of shape [4, 2] to the result shape [4, 8]: map result #1 is the constant 0 but operand dim 1 has extent 2 (only a dim of extent 1 broadcasts)}}
  %0 = hkg.elementwise %x, %s {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>]} : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @index_dim_out_of_range(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hkg.elementwise %x : tensor<4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    // expected-error @below {{'hkg.index' op expected 'dim' in [0, 2) for a result of rank 2, got 2}}
    %i = hkg.index 2
    hkg.yield %a : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @index_outside_elementwise() -> index {
  // expected-error @below {{'hkg.index' op expects parent op to be one of 'hkg.elementwise, hkg.reduce'}}
  %i = hkg.index 0
  return %i : index
}

// -----

func.func @index_of_rank_zero_result(%x: tensor<f32>) -> tensor<f32> {
  %0 = hkg.elementwise %x : tensor<f32> -> tensor<f32> {
  ^bb0(%a: f32):
    // expected-error @below {{'hkg.index' op expected 'dim' in [0, 0) for a result of rank 0, got 0}}
    %i = hkg.index 0
    hkg.yield %a : f32
  }
  return %0 : tensor<f32>
}
