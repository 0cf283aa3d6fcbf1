// RUN: hkg-opt %s --split-input-file --hkg-reject-host-ops --verify-diagnostics
// RUN: hkg-opt %s --split-input-file --hkg-reject-host-ops=allow-host-ops=1 2>&1 | FileCheck %s --check-prefix=ALLOW
// RUN: not hkg-opt %s --split-input-file --hkg-to-rocdl=chip=gfx942 2>&1 | FileCheck %s --check-prefix=PIPELINE

// hkg ops, scalar constants and the return: nothing is left out.
func.func @kernels_only(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = arith.constant 1.0 : f32
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// -----

// Reshapes between kernels are views (the same bytes, a new shape): nothing
// to compute, so nothing is left out.
// ALLOW-NOT: remark: 'tensor.expand_shape'
// ALLOW-NOT: remark: 'tensor.collapse_shape'
func.func @reshape_views(%x: tensor<64x64xf32>) -> tensor<4096xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  %e = tensor.expand_shape %s [[0], [1, 2]] output_shape [64, 8, 8] : tensor<64x64xf32> into tensor<64x8x8xf32>
  %t = hkg.softmax %e axis(2) : tensor<64x8x8xf32> -> tensor<64x8x8xf32>
  %c = tensor.collapse_shape %t [[0, 1, 2]] : tensor<64x8x8xf32> into tensor<4096xf32>
  return %c : tensor<4096xf32>
}

// -----

// An op on tensors next to hkg ops would be missing from the kernels.
// ALLOW: remark: 'arith.addf' is left to the caller (allow-host-ops): no hkg kernel computes it
// PIPELINE: error: 'arith.addf' is not an hkg kernel op
func.func @add_after_softmax(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  // expected-error @below {{'arith.addf' is not an hkg kernel op: no kernel computes it, and it would be missing from the compiled kernels; express it with hkg ops, or allow host ops (hkg-compile --allow-host-ops) to leave it to the caller}}
  %y = arith.addf %s, %s : tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// -----

// A tensor constant is data no kernel produces.
// ALLOW: remark: 'arith.constant' is left to the caller
func.func @tensor_constant() -> tensor<4xf32> {
  // expected-error @below {{'arith.constant' is not an hkg kernel op}}
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
