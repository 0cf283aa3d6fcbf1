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

func.func @input_not_suffix(%x: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected input #1 of shape [4] to be a suffix of the result shape [4, 8]}}
  %0 = hkg.elementwise %x, %b : tensor<4x8xf32>, tensor<4xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<4x8xf32>
}

// -----

// An input larger than the result is not a suffix either.
func.func @input_larger_than_result(%x: tensor<2x4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{expected input #0 of shape [2, 4, 8] to be a suffix of the result shape [4, 8]}}
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

func.func @dynamic_input(%x: tensor<?xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected operand #0 to have a static shape, got 'tensor<?xf32>'}}
  %0 = hkg.elementwise %x : tensor<?xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @f64_result(%x: tensor<8xf32>) -> tensor<8xf64> {
  // expected-error @below {{result #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<8xf64>'}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf64> {
  ^bb0(%a: f32):
    %e = arith.extf %a : f32 to f64
    hkg.yield %e : f64
  }
  return %0 : tensor<8xf64>
}
