// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @gelu_tanh
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xbf16>)
// CHECK: %[[R:.*]] = hkg.elementwise %[[X]] : tensor<64x128xbf16> -> tensor<64x128xbf16> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: bf16):
// CHECK: math.tanh
// CHECK: hkg.yield %{{.*}} : bf16
// CHECK-NEXT: }
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "gelu_tanh"
// GENERIC: "hkg.elementwise"(%{{.*}}) ({
// GENERIC: "hkg.yield"(%{{.*}}) : (bf16) -> ()
// GENERIC: }) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
func.func @gelu_tanh(%x: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %0 = hkg.elementwise %x : tensor<64x128xbf16> -> tensor<64x128xbf16> {
  ^bb0(%a: bf16):
    %f = arith.extf %a : bf16 to f32
    %c = arith.constant 0.7978845608 : f32
    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.044715 : f32
    %x2 = arith.mulf %f, %f : f32
    %x3 = arith.mulf %x2, %f : f32
    %kx3 = arith.mulf %k, %x3 : f32
    %in = arith.addf %f, %kx3 : f32
    %sc = arith.mulf %c, %in : f32
    %t = math.tanh %sc : f32
    %tp = arith.addf %one, %t : f32
    %hx = arith.mulf %h, %f : f32
    %y = arith.mulf %hx, %tp : f32
    %r = arith.truncf %y : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<64x128xbf16>
}

// SwiGLU: two same-shape inputs.
// CHECK-LABEL: func.func @swiglu
// CHECK: hkg.elementwise %{{.*}}, %{{.*}} : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16> {
// CHECK-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16):
// CHECK: math.exp
// CHECK: hkg.yield %{{.*}} : f16
func.func @swiglu(%gate: tensor<16x256xf16>, %up: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %0 = hkg.elementwise %gate, %up : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16> {
  ^bb0(%g: f16, %u: f16):
    %gf = arith.extf %g : f16 to f32
    %uf = arith.extf %u : f16 to f32
    %n = arith.negf %gf : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %gf, %d : f32
    %p = arith.mulf %s, %uf : f32
    %r = arith.truncf %p : f32 to f16
    hkg.yield %r : f16
  }
  return %0 : tensor<16x256xf16>
}

// Bias add: the bias [N] broadcasts over the rows; mixed element types.
// CHECK-LABEL: func.func @bias_add_broadcast
// CHECK: hkg.elementwise %{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<32xbf16> -> tensor<8x32xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: bf16):
func.func @bias_add_broadcast(%x: tensor<8x32xf32>, %b: tensor<32xbf16>) -> tensor<8x32xf32> {
  %0 = hkg.elementwise %x, %b : tensor<8x32xf32>, tensor<32xbf16> -> tensor<8x32xf32> {
  ^bb0(%a: f32, %c: bf16):
    %cf = arith.extf %c : bf16 to f32
    %s = arith.addf %a, %cf : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<8x32xf32>
}

// Rank-0 input broadcast to every element; the body may use comparisons.
// CHECK-LABEL: func.func @relu_scaled
// CHECK: hkg.elementwise %{{.*}}, %{{.*}} {schedule = #hkg.schedule<threads = 128, unroll = 2, vector_width = 4>} : tensor<1024xf32>, tensor<f32> -> tensor<1024xf32>
// CHECK: arith.cmpf
// CHECK: arith.select
func.func @relu_scaled(%x: tensor<1024xf32>, %s: tensor<f32>) -> tensor<1024xf32> {
  %0 = hkg.elementwise %x, %s {schedule = #hkg.schedule<vector_width = 4, threads = 128, unroll = 2>}
      : tensor<1024xf32>, tensor<f32> -> tensor<1024xf32> {
  ^bb0(%a: f32, %k: f32):
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %a, %zero : f32
    %r = arith.select %pos, %a, %zero : f32
    %y = arith.mulf %r, %k : f32
    hkg.yield %y : f32
  }
  return %0 : tensor<1024xf32>
}

// Broadcasts by explicit map: a per-row scale of a square matrix, a
// transposed read, and a size-1 dim; the maps print as written.
// CHECK-LABEL: func.func @maps
// CHECK: hkg.elementwise %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {indexing_maps = [#[[ID:.*]], #[[ROW:.*]], #[[T:.*]], #[[ONE:.*]]]}
// GENERIC-LABEL: sym_name = "maps"
// GENERIC: "hkg.elementwise"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{indexing_maps = [
func.func @maps(%x: tensor<64x64xf32>, %s: tensor<64xf32>, %t: tensor<64x64xf32>, %c: tensor<64x1xf32>) -> tensor<64x64xf32> {
  %0 = hkg.elementwise %x, %s, %t, %c {indexing_maps = [
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
      affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, 0)>]}
      : tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64x1xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32, %u: f32, %v: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %u : f32
    %r = arith.addf %q, %v : f32
    hkg.yield %r : f32
  }
  return %0 : tensor<64x64xf32>
}

// Implied maps (no attribute): a bias over the trailing dim, a size-1 dim
// lining up by position.
// CHECK-LABEL: func.func @implied_maps
// CHECK: hkg.elementwise %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
func.func @implied_maps(%x: tensor<8x64xf32>, %b: tensor<64xf32>, %r: tensor<8x1xf32>) -> tensor<8x64xf32> {
  %0 = hkg.elementwise %x, %b, %r : tensor<8x64xf32>, tensor<64xf32>, tensor<8x1xf32> -> tensor<8x64xf32> {
  ^bb0(%a: f32, %c: f32, %d: f32):
    %p = arith.addf %a, %c : f32
    %q = arith.mulf %p, %d : f32
    hkg.yield %q : f32
  }
  return %0 : tensor<8x64xf32>
}

// Integer inputs and hkg.index: the low or high nibble of a packed i8 by
// column parity, a causal mask from the element's indices, an i1 mask, an
// f64 result.
// CHECK-LABEL: func.func @ints_and_index
// CHECK: hkg.elementwise %{{.*}}, %{{.*}} : tensor<16x32xi8>, tensor<16x32xi1> -> tensor<16x32xf64> {
// CHECK: hkg.index 0
// CHECK: hkg.index 1
// GENERIC-LABEL: sym_name = "ints_and_index"
// GENERIC: "hkg.index"() <{dim = 1 : i64}> : () -> index
func.func @ints_and_index(%p: tensor<16x32xi8>, %m: tensor<16x32xi1>) -> tensor<16x32xf64> {
  %0 = hkg.elementwise %p, %m : tensor<16x32xi8>, tensor<16x32xi1> -> tensor<16x32xf64> {
  ^bb0(%a: i8, %k: i1):
    %r = hkg.index 0
    %c = hkg.index 1
    %c1 = arith.constant 1 : index
    %odd = arith.andi %c, %c1 : index
    %oddi = arith.index_cast %odd : index to i8
    %c4 = arith.constant 4 : i8
    %sh = arith.muli %oddi, %c4 : i8
    %n = arith.shrui %a, %sh : i8
    %c15 = arith.constant 15 : i8
    %nib = arith.andi %n, %c15 : i8
    %f = arith.uitofp %nib : i8 to f64
    %causal = arith.cmpi ule, %c, %r : index
    %keep = arith.andi %causal, %k : i1
    %zero = arith.constant 0.0 : f64
    %o = arith.select %keep, %f, %zero : f64
    hkg.yield %o : f64
  }
  return %0 : tensor<16x32xf64>
}

// A rank-0 result is one element; a rank-0 input broadcasts into any result.
// CHECK-LABEL: func.func @rank_zero
// CHECK: hkg.elementwise %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32> -> tensor<f32> {
// CHECK: hkg.elementwise %{{.*}}, %{{.*}} : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32> {
// GENERIC-LABEL: sym_name = "rank_zero"
// GENERIC: (tensor<f32>, tensor<f32>) -> tensor<f32>
func.func @rank_zero(%x: tensor<f32>, %y: tensor<f32>, %m: tensor<4x8xf32>) -> (tensor<f32>, tensor<4x8xf32>) {
  %0 = hkg.elementwise %x, %y : tensor<f32>, tensor<f32> -> tensor<f32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    hkg.yield %s : f32
  }
  %1 = hkg.elementwise %0, %m : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0, %1 : tensor<f32>, tensor<4x8xf32>
}
