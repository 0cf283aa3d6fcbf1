// RUN: hkg-opt %s --hkg-reject-host-ops --verify-diagnostics
// RUN: hkg-opt %s --hkg-reject-host-ops=allow-host-ops=1 2>&1 | FileCheck %s --check-prefix=ALLOW

// A host op's init (its tensor.empty, the linalg.fill of it) is part of what
// the host op computes: the error names the op, not its inits. With
// allow-host-ops every one is left to the caller, inits included.
// ALLOW: remark: 'tensor.empty' is left to the caller
// ALLOW: remark: 'linalg.fill' is left to the caller
// ALLOW: remark: 'linalg.generic' is left to the caller
// ALLOW: remark: 'tensor.empty' is left to the caller
// ALLOW: remark: 'linalg.fill' is left to the caller
func.func @row_sums(%x: tensor<8x16xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  // expected-error @below {{'linalg.generic' is not an hkg kernel op}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x16xi32>) outs(%f : tensor<8xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %s = arith.addi %in, %acc : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  // A fill the function returns is computed by no kernel: named.
  %e2 = tensor.empty() : tensor<8xi32>
  // expected-error @below {{'linalg.fill' is not an hkg kernel op}}
  %z = linalg.fill ins(%c0 : i32) outs(%e2 : tensor<8xi32>) -> tensor<8xi32>
  return %r, %z : tensor<8xi32>, tensor<8xi32>
}
