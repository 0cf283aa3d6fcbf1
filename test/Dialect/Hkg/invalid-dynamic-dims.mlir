// RUN: hkg-opt %s --split-input-file --verify-diagnostics

// A reduced axis cannot be dynamic: it is no dim of the result.
func.func @dynamic_reduced_axis(%x: tensor<8x?xf32>) -> tensor<8xf32> {
  // expected-error @below {{'hkg.reduce' op expected a static dim 1 of operand #0: it follows no dim of the result, so a dynamic size cannot be checked or passed to the kernel}}
  %0 = hkg.reduce sum %x axes = [1] : tensor<8x?xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The softmax axis is static; only the dims before it may be dynamic.
func.func @dynamic_softmax_axis(%x: tensor<8x?xf32>) -> tensor<8x?xf32> {
  // expected-error @below {{'hkg.softmax' op expected a static result dim 1: only dims [0] (batch, row or sequence dims) may be dynamic}}
  %0 = hkg.softmax %x axis(1) : tensor<8x?xf32> -> tensor<8x?xf32>
  return %0 : tensor<8x?xf32>
}

// -----

// The normalized dims are static, so are the weight's.
func.func @dynamic_norm_dim(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error @below {{'hkg.rmsnorm' op expected a static result dim 1: only dims [0] (batch, row or sequence dims) may be dynamic}}
  %0 = hkg.rmsnorm %x eps(1.0e-06) : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// The innermost dim of an elementwise result of rank >= 2 stays static.
func.func @dynamic_inner_dim(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error @below {{'hkg.elementwise' op expected a static result dim 1: only dims [0] (batch, row or sequence dims) may be dynamic}}
  %0 = hkg.elementwise %x : tensor<4x?xf32> -> tensor<4x?xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<4x?xf32>
}

// -----

// A dim and the result dim it equals agree: both dynamic or both static.
func.func @dynamic_operand_static_result(%x: tensor<?x64xf32>) -> tensor<8x64xf32> {
  // expected-error @below {{'hkg.softmax' op expected the result shape to equal the input shape [?, 64], got [8, 64]}}
  %0 = hkg.softmax %x axis(1) : tensor<?x64xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

func.func @static_operand_dynamic_result(%x: tensor<8x64xf32>, %s: tensor<8xf32>) -> tensor<?x64xf32> {
  // expected-error @below {{'hkg.elementwise' op cannot tell which result dims input #0 of shape [8, 64] follows in the result shape [?, 64]: operand dim 0 has extent 8 where the result has ? (expected equal, or 1 to broadcast)}}
  %0 = hkg.elementwise %x : tensor<8x64xf32> -> tensor<?x64xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<?x64xf32>
}

// -----

// A dynamic result dim must be read from an operand at launch.
func.func @unreadable_size(%b: tensor<64xf32>) -> tensor<?x64xf32> {
  // expected-error @below {{'hkg.elementwise' op expected an operand dim equal to the result's dynamic dim 0, to read its size from at launch}}
  %0 = hkg.elementwise %b : tensor<64xf32> -> tensor<?x64xf32> {
  ^bb0(%a: f32):
    hkg.yield %a : f32
  }
  return %0 : tensor<?x64xf32>
}

// -----

// A reduce's `ins` operand: a dynamic dim must follow a dynamic kept dim.
func.func @ins_dynamic_on_reduced_axis(%x: tensor<8x32xf32>, %t: tensor<?xf32>) -> tensor<8xf32> {
  // expected-error @below {{'hkg.reduce' op indexing map #0 does not fit 'ins' operand #0 of shape [?] to the input shape [8, 32]: operand dim 0 has extent ? but follows result dim d1 of extent 32}}
  %0 = hkg.reduce sum %x ins(%t : tensor<?xf32>) axes = [1] {indexing_maps = [affine_map<(d0, d1) -> (d1)>]} : tensor<8x32xf32> -> tensor<8xf32>
    prologue {
    ^bb0(%v: f32, %u: f32):
      %p = arith.mulf %v, %u : f32
      hkg.yield %p : f32
    }
  return %0 : tensor<8xf32>
}

// -----

// Ops without dynamic-dim support say so.
func.func @dynamic_matmul(%a: tensor<?x64xf16>, %b: tensor<64x8xf16>) -> tensor<?x8xf16> {
  // expected-error @below {{'hkg.matmul' op expected operand #0 to have a static shape, got 'tensor<?x64xf16>'}}
  %0 = hkg.matmul %a, %b : tensor<?x64xf16>, tensor<64x8xf16> -> tensor<?x8xf16>
  return %0 : tensor<?x8xf16>
}

// -----

// A size hint is a positive integer on a kernel op.
func.func @bad_size_hint(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @below {{'hkg.softmax' op expected 'hkg.size_hint' to be a positive integer, got 0 : i64}}
  %0 = hkg.softmax %x axis(1) {hkg.size_hint = 0 : i64} : tensor<?x64xf32> -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
