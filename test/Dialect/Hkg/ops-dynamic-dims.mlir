// RUN: hkg-opt %s | hkg-opt | FileCheck %s

// Dynamic batch, row and sequence dims: the dims before the reduced or
// normalized axes of the row ops, and every dim but the innermost of an
// elementwise result.

// CHECK-LABEL: func.func @row_ops
// CHECK: hkg.softmax %{{.*}} axis(1) : tensor<?x8192xbf16> -> tensor<?x8192xbf16>
// CHECK: hkg.softmax log %{{.*}} axis(2) : tensor<?x?x512xf32> -> tensor<?x?x512xf32>
// CHECK: hkg.layernorm %{{.*}} weight(%{{.*}} : tensor<4096xbf16>) bias(%{{.*}} : tensor<4096xbf16>) eps({{.*}}) : tensor<?x?x4096xbf16> -> tensor<?x?x4096xbf16>
// CHECK: hkg.rmsnorm %{{.*}} axes = [1, 2] eps({{.*}}) : tensor<?x8x128xf16> -> tensor<?x8x128xf16>
// CHECK: hkg.reduce sum %{{.*}} axes = [2] : tensor<?x8x1024xf32> -> tensor<?x8xf32>
// CHECK: hkg.reduce argmax %{{.*}} axes = [1] : tensor<?x32000xbf16> -> tensor<?x1xi64>
func.func @row_ops(%x: tensor<?x8192xbf16>, %y: tensor<?x?x512xf32>, %z: tensor<?x?x4096xbf16>, %w: tensor<4096xbf16>, %b: tensor<4096xbf16>, %h: tensor<?x8x128xf16>, %r: tensor<?x8x1024xf32>, %l: tensor<?x32000xbf16>) -> (tensor<?x8192xbf16>, tensor<?x?x512xf32>, tensor<?x?x4096xbf16>, tensor<?x8x128xf16>, tensor<?x8xf32>, tensor<?x1xi64>) {
  %0 = hkg.softmax %x axis(1) : tensor<?x8192xbf16> -> tensor<?x8192xbf16>
  %1 = hkg.softmax log %y axis(2) : tensor<?x?x512xf32> -> tensor<?x?x512xf32>
  %2 = hkg.layernorm %z weight(%w : tensor<4096xbf16>) bias(%b : tensor<4096xbf16>) eps(1.0e-05) : tensor<?x?x4096xbf16> -> tensor<?x?x4096xbf16>
  %3 = hkg.rmsnorm %h axes = [1, 2] eps(1.0e-06) : tensor<?x8x128xf16> -> tensor<?x8x128xf16>
  %4 = hkg.reduce sum %r axes = [2] : tensor<?x8x1024xf32> -> tensor<?x8xf32>
  %5 = hkg.reduce argmax %l axes = [1] : tensor<?x32000xbf16> -> tensor<?x1xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<?x8192xbf16>, tensor<?x?x512xf32>, tensor<?x?x4096xbf16>, tensor<?x8x128xf16>, tensor<?x8xf32>, tensor<?x1xi64>
}

// Cross-entropy over a dynamic number of tokens: the targets follow the
// rows.
// CHECK-LABEL: func.func @cross_entropy
// CHECK: hkg.reduce logsumexp, sum %{{.*}} ins(%{{.*}} : tensor<?xi64>) axes = [1] {indexing_maps = [#{{.*}}]} : tensor<?x32000xbf16> -> tensor<?xf32>
func.func @cross_entropy(%x: tensor<?x32000xbf16>, %t: tensor<?xi64>) -> tensor<?xf32> {
  %0 = hkg.reduce logsumexp, sum %x ins(%t : tensor<?xi64>) axes = [1] {indexing_maps = [affine_map<(d0, d1) -> (d0)>]} : tensor<?x32000xbf16> -> tensor<?xf32>
    prologue {
    ^bb0(%v: bf16, %tg: i64):
      %vf = arith.extf %v : bf16 to f32
      %j = hkg.index 1
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %tg : i64
      %zero = arith.constant 0.0 : f32
      %pick = arith.select %hit, %vf, %zero : f32
      hkg.yield %vf, %pick : f32, f32
    } epilogue {
    ^bb0(%lse: f32, %p: f32):
      %r = arith.subf %lse, %p : f32
      hkg.yield %r : f32
    }
  return %0 : tensor<?xf32>
}

// A bias of the static innermost dim, a per-row scale following the
// dynamic dim, a size-1 broadcast, and a rank-1 dynamic result.
// CHECK-LABEL: func.func @elementwise
// CHECK: hkg.elementwise %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}]} : tensor<?x4096xbf16>, tensor<4096xbf16>, tensor<?xf32>, tensor<1x4096xbf16> -> tensor<?x4096xbf16>
// CHECK: hkg.elementwise %{{.*}} : tensor<?xf32> -> tensor<?xf32>
func.func @elementwise(%x: tensor<?x4096xbf16>, %bias: tensor<4096xbf16>, %s: tensor<?xf32>, %o: tensor<1x4096xbf16>, %v: tensor<?xf32>) -> (tensor<?x4096xbf16>, tensor<?xf32>) {
  %0 = hkg.elementwise %x, %bias, %s, %o {indexing_maps = [
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
      affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (0, d1)>]}
      : tensor<?x4096xbf16>, tensor<4096xbf16>, tensor<?xf32>, tensor<1x4096xbf16> -> tensor<?x4096xbf16> {
  ^bb0(%a: bf16, %c: bf16, %k: f32, %p: bf16):
    %af = arith.extf %a : bf16 to f32
    %cf = arith.extf %c : bf16 to f32
    %pf = arith.extf %p : bf16 to f32
    %t = arith.addf %af, %cf : f32
    %u = arith.mulf %t, %k : f32
    %y = arith.addf %u, %pf : f32
    %r = arith.truncf %y : f32 to bf16
    hkg.yield %r : bf16
  }
  %1 = hkg.elementwise %v : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%a: f32):
    %r = math.exp %a : f32
    hkg.yield %r : f32
  }
  return %0, %1 : tensor<?x4096xbf16>, tensor<?xf32>
}
