// RUN: hkg-opt %s --split-input-file --verify-diagnostics

// hkg.yield only terminates hkg.elementwise bodies and hkg.matmul epilogues.
func.func @yield_in_func(%a: f32) {
  // expected-error @below {{'hkg.yield' op expects parent op to be one of 'hkg.elementwise, hkg.matmul, hkg.reduce'}}
  hkg.yield %a : f32
}

// -----

// A body that yields nothing is reported by its op, which verifies before
// the yield does.
func.func @yield_nothing(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{'hkg.elementwise' op expected the body to yield one value of the result element type 'f32', got}}
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    hkg.yield
  }
  return %0 : tensor<8xf32>
}

// -----

// A yield in the middle of the body is not its terminator.
func.func @yield_not_last(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = hkg.elementwise %x : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32):
    // expected-error @below {{'hkg.yield' op must be the last operation in the parent block}}
    hkg.yield %a, %a : f32, f32
    hkg.yield %a : f32
  }
  return %0 : tensor<8xf32>
}
