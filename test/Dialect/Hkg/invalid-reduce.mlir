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

// A reduced axis is static (dynamic dims: invalid-dynamic-dims.mlir).
func.func @dynamic_input(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected a static dim 1 of operand #0: it follows no dim of the result}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_kind(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected a reduction kind (sum, max, min, prod, argmax, argmin, logsumexp), got 'mean'}}
  %0 = hkg.reduce mean %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @arg_float_result(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected an i32 or i64 result for 'argmax' (a position), got 'f32'}}
  %0 = hkg.reduce argmax %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sum_int_result(%x: tensor<4x8xf32>) -> tensor<4xi32> {
  // expected-error @below {{expected a float result for 'sum', got 'i32'}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @two_kinds_no_epilogue(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected an 'epilogue' to combine the 2 reduced values into the result}}
  %0 = hkg.reduce sum, max %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ins without a prologue to read them.
func.func @ins_without_prologue(%x: tensor<4x8xf32>, %t: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @below {{expected a 'prologue' to read the 1 'ins' operand(s): without one, only the input is reduced}}
  %0 = hkg.reduce sum %x ins(%t : tensor<4xi64>) axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A per-row operand of a square input: which dim is ambiguous.
func.func @ambiguous_ins(%x: tensor<8x8xf32>, %t: tensor<8xi64>) -> tensor<8xf32> {
  // expected-error @below {{cannot tell which input dims 'ins' operand #0 of shape [8] follows in the input shape [8, 8]}}
  %0 = hkg.reduce sum %x ins(%t : tensor<8xi64>) axes = [1] : tensor<8x8xf32> -> tensor<8xf32>
    prologue {
    ^bb0(%v: f32, %i: i64):
      hkg.yield %v : f32
    }
  return %0 : tensor<8xf32>
}

// -----

func.func @prologue_yields_too_few(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected the prologue to yield one f32 per reduction kind (2), got 'f32'}}
  %0 = hkg.reduce sum, max %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
    prologue {
    ^bb0(%v: f32):
      hkg.yield %v : f32
    } epilogue {
    ^bb0(%a: f32, %b: f32):
      hkg.yield %a : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @prologue_arg_type(%x: tensor<4x8xbf16>) -> tensor<4xf32> {
  // expected-error @below {{expected prologue argument #0 to be 'bf16' (the input's element type), got 'f32'}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xbf16> -> tensor<4xf32>
    prologue {
    ^bb0(%v: f32):
      hkg.yield %v : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @epilogue_position_type(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected epilogue argument #0 to be 'i64' (what 'argmax' reduces to), got 'f32'}}
  %0 = hkg.reduce argmax %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
    epilogue {
    ^bb0(%i: f32):
      hkg.yield %i : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @epilogue_yield_type(%x: tensor<4x8xf32>) -> tensor<4xbf16> {
  // expected-error @below {{expected the epilogue to yield one value of the result element type 'bf16', got 'f32'}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xbf16>
    epilogue {
    ^bb0(%s: f32):
      hkg.yield %s : f32
    }
  return %0 : tensor<4xbf16>
}

// -----

func.func @index_in_epilogue(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
    epilogue {
    ^bb0(%s: f32):
      // expected-error @below {{'hkg.index' op expected to be in the prologue of 'hkg.reduce'}}
      %i = hkg.index 0
      hkg.yield %s : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @index_above_rank(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
    prologue {
    ^bb0(%v: f32):
      // expected-error @below {{'hkg.index' op expected 'dim' in [0, 2) for an input of rank 2, got 2}}
      %i = hkg.index 2
      hkg.yield %v : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @prologue_non_scalar_op(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected only arith and math ops in the body, got 'func.call'}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
    prologue {
    ^bb0(%v: f32):
      %y = func.call @f(%v) : (f32) -> f32
      hkg.yield %y : f32
    }
  return %0 : tensor<4xf32>
}
func.func private @f(f32) -> f32
