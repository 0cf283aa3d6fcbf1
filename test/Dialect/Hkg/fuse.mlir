// RUN: hkg-opt %s --split-input-file --hkg-fuse | FileCheck %s

// A bias add after a plain matmul: the accumulator is converted to the
// matmul's element type, then the elementwise body runs on it.
// CHECK-LABEL: func.func @bias
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xbf16>, %[[W:.*]]: tensor<128x256xbf16>, %[[B:.*]]: tensor<256xbf16>)
// CHECK: %[[Y:.*]] = hkg.matmul %[[X]], %[[W]] epilogue(%[[B]] : tensor<256xbf16>) : tensor<64x128xbf16>, tensor<128x256xbf16> -> tensor<64x256xbf16> {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[E:.*]]: bf16):
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[ACC]] : f32 to bf16
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[T]], %[[E]] : bf16
// CHECK-NEXT: hkg.yield %[[S]] : bf16
// CHECK: return %[[Y]]
// CHECK-NOT: hkg.elementwise
func.func @bias(%x: tensor<64x128xbf16>, %w: tensor<128x256xbf16>, %b: tensor<256xbf16>) -> tensor<64x256xbf16> {
  %m = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x256xbf16> -> tensor<64x256xbf16>
  %y = hkg.elementwise %m, %b : tensor<64x256xbf16>, tensor<256xbf16> -> tensor<64x256xbf16> {
  ^bb0(%a: bf16, %c: bf16):
    %s = arith.addf %a, %c : bf16
    hkg.yield %s : bf16
  }
  return %y : tensor<64x256xbf16>
}

// -----

// A matmul with an epilogue (bias) followed by SiLU and a residual add:
// both fold, the epilogue operands accumulate, the schedule and the
// transposes are kept, and the result type becomes the elementwise's.
// CHECK-LABEL: func.func @chain
// CHECK: %[[Y:.*]] = hkg.matmul %{{.*}}, %{{.*}} epilogue(%[[B:.*]], %[[R:.*]] : tensor<256xbf16>, tensor<64x256xf32>) {schedule = #hkg.schedule<tile_m = 64>, transpose_b} : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xf32> {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[EB:.*]]: bf16, %[[ER:.*]]: f32):
// CHECK: arith.extf %[[EB]]
// CHECK: %[[V:.*]] = arith.truncf {{.*}} : f32 to bf16
// CHECK: %[[VF:.*]] = arith.extf %[[V]] : bf16 to f32
// CHECK: math.exp
// CHECK: %[[SL:.*]] = arith.divf %[[VF]]
// CHECK: %[[O:.*]] = arith.addf %[[SL]], %[[ER]] : f32
// CHECK-NEXT: hkg.yield %[[O]] : f32
// CHECK-NOT: hkg.elementwise
func.func @chain(%x: tensor<64x128xbf16>, %w: tensor<256x128xbf16>, %b: tensor<256xbf16>, %r: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %m = hkg.matmul %x, %w epilogue(%b : tensor<256xbf16>) {transpose_b, schedule = #hkg.schedule<tile_m = 64>} : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xbf16> {
  ^bb0(%acc: f32, %e: bf16):
    %ef = arith.extf %e : bf16 to f32
    %s = arith.addf %acc, %ef : f32
    %t = arith.truncf %s : f32 to bf16
    hkg.yield %t : bf16
  }
  %y = hkg.elementwise %m, %r : tensor<64x256xbf16>, tensor<64x256xf32> -> tensor<64x256xf32> {
  ^bb0(%a: bf16, %res: f32):
    %af = arith.extf %a : bf16 to f32
    %n = arith.negf %af : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %ex : f32
    %sl = arith.divf %af, %d : f32
    %o = arith.addf %sl, %res : f32
    hkg.yield %o : f32
  }
  return %y : tensor<64x256xf32>
}

// -----

// A matmul result used twice is not folded (it would be computed twice).
// CHECK-LABEL: func.func @two_uses
// CHECK: hkg.matmul
// CHECK-NOT: epilogue
// CHECK: hkg.elementwise
func.func @two_uses(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %m = hkg.matmul %x, %w : tensor<64x128xf32>, tensor<128x256xf32> -> tensor<64x256xf32>
  %y = hkg.elementwise %m : tensor<64x256xf32> -> tensor<64x256xf32> {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    hkg.yield %s : f32
  }
  return %y, %m : tensor<64x256xf32>, tensor<64x256xf32>
}

// -----

// x * x of the same matmul result: both body arguments take the product.
// CHECK-LABEL: func.func @square
// CHECK: hkg.matmul %{{.*}}, %{{.*}} : tensor<64x128xf32>, tensor<128x256xf32> -> tensor<64x256xf32> {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT: hkg.yield %[[S]] : f32
func.func @square(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %m = hkg.matmul %x, %w : tensor<64x128xf32>, tensor<128x256xf32> -> tensor<64x256xf32>
  %y = hkg.elementwise %m, %m : tensor<64x256xf32>, tensor<64x256xf32> -> tensor<64x256xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %b : f32
    hkg.yield %s : f32
  }
  return %y : tensor<64x256xf32>
}

// -----

// Inputs the matmul epilogue cannot read as mapped stay in their
// elementwise op: a transposed read, a body that reads hkg.index, an integer
// input. A per-row scale ([M] following d0) folds with its map; a [1, N]
// bias of the result's rank folds as its shape implies.
// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @unfusable_maps
// CHECK: hkg.matmul %{{.*}}, %{{.*}} epilogue(%{{.*}} : tensor<64xbf16>) {indexing_maps = [#[[ROW]]]} : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: bf16):
// CHECK: %[[M2:.*]] = hkg.matmul %{{.*}}, %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
// CHECK: hkg.elementwise %[[M2]] {indexing_maps = [#{{.*}}]} : tensor<64x64xbf16> -> tensor<64x64xbf16>
// CHECK: %[[M3:.*]] = hkg.matmul %{{.*}}, %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
// CHECK: hkg.elementwise %[[M3]] : tensor<64x64xbf16> -> tensor<64x64xbf16>
// CHECK: hkg.index
// CHECK: %[[M4:.*]] = hkg.matmul %{{.*}}, %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
// CHECK: hkg.elementwise %[[M4]], %{{.*}} : tensor<64x64xbf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
// CHECK: hkg.matmul %{{.*}}, %{{.*}} epilogue(%{{.*}} : tensor<1x64xbf16>)
func.func @unfusable_maps(%x: tensor<64x128xbf16>, %w: tensor<128x64xbf16>, %s: tensor<64xbf16>, %t: tensor<64x64xi32>, %c: tensor<1x64xbf16>) -> (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>) {
  %m = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
  %row = hkg.elementwise %m, %s {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]} : tensor<64x64xbf16>, tensor<64xbf16> -> tensor<64x64xbf16> {
  ^bb0(%a: bf16, %b: bf16):
    %p = arith.mulf %a, %b : bf16
    hkg.yield %p : bf16
  }
  %m2 = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
  %tr = hkg.elementwise %m2 {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>]} : tensor<64x64xbf16> -> tensor<64x64xbf16> {
  ^bb0(%a: bf16):
    hkg.yield %a : bf16
  }
  %m3 = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
  %ix = hkg.elementwise %m3 : tensor<64x64xbf16> -> tensor<64x64xbf16> {
  ^bb0(%a: bf16):
    %r = hkg.index 0
    %c0 = arith.constant 0 : index
    %z = arith.cmpi eq, %r, %c0 : index
    %zero = arith.constant 0.0 : bf16
    %o = arith.select %z, %zero, %a : bf16
    hkg.yield %o : bf16
  }
  %m4 = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
  %it = hkg.elementwise %m4, %t : tensor<64x64xbf16>, tensor<64x64xi32> -> tensor<64x64xbf16> {
  ^bb0(%a: bf16, %b: i32):
    %f = arith.sitofp %b : i32 to bf16
    %o = arith.addf %a, %f : bf16
    hkg.yield %o : bf16
  }
  %m5 = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16>
  %col = hkg.elementwise %m5, %c : tensor<64x64xbf16>, tensor<1x64xbf16> -> tensor<64x64xbf16> {
  ^bb0(%a: bf16, %b: bf16):
    %o = arith.addf %a, %b : bf16
    hkg.yield %o : bf16
  }
  return %row, %tr, %ix, %it, %col : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>
}

// -----

// A mean: the divide after the sum joins the reduction's epilogue.
// CHECK-LABEL: func.func @mean
// CHECK: %[[R:.*]] = hkg.reduce sum %arg0 axes = [1] : tensor<64x128xf32> -> tensor<64xbf16>
// CHECK: epilogue {
// CHECK: ^bb0(%[[S:.*]]: f32):
// CHECK: %[[D:.*]] = arith.divf %[[S]], %{{.*}} : f32
// CHECK: %[[T:.*]] = arith.truncf %[[D]] : f32 to bf16
// CHECK: hkg.yield %[[T]] : bf16
// CHECK-NOT: hkg.elementwise
// CHECK: return %[[R]]
func.func @mean(%x: tensor<64x128xf32>) -> tensor<64xbf16> {
  %s = hkg.reduce sum %x axes = [1] : tensor<64x128xf32> -> tensor<64xf32>
  %m = hkg.elementwise %s : tensor<64xf32> -> tensor<64xbf16> {
  ^bb0(%v: f32):
    %n = arith.constant 128.0 : f32
    %d = arith.divf %v, %n : f32
    %t = arith.truncf %d : f32 to bf16
    hkg.yield %t : bf16
  }
  return %m : tensor<64xbf16>
}

// -----

// argmax's position (i64 without an epilogue) feeds the body.
// CHECK-LABEL: func.func @argmax_then_cast
// CHECK: hkg.reduce argmax %arg0 axes = [1] : tensor<64x128xf32> -> tensor<64xi32> epilogue {
// CHECK: ^bb0(%[[P:.*]]: i64):
// CHECK: arith.trunci %[[P]] : i64 to i32
func.func @argmax_then_cast(%x: tensor<64x128xf32>) -> tensor<64xi32> {
  %i = hkg.reduce argmax %x axes = [1] : tensor<64x128xf32> -> tensor<64xi64>
  %c = hkg.elementwise %i : tensor<64xi64> -> tensor<64xi32> {
  ^bb0(%v: i64):
    %t = arith.trunci %v : i64 to i32
    hkg.yield %t : i32
  }
  return %c : tensor<64xi32>
}

// -----

// A second user keeps the reduction; a second input stays outside.
// CHECK-LABEL: func.func @not_folded
// CHECK: hkg.reduce sum
// CHECK: hkg.elementwise
// CHECK: hkg.elementwise
func.func @not_folded(%x: tensor<64x128xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %s = hkg.reduce sum %x axes = [1] : tensor<64x128xf32> -> tensor<64xf32>
  %a = hkg.elementwise %s, %y : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%v: f32, %w: f32):
    %d = arith.addf %v, %w : f32
    hkg.yield %d : f32
  }
  %b = hkg.elementwise %s : tensor<64xf32> -> tensor<64xf32> {
  ^bb0(%v: f32):
    %d = arith.negf %v : f32
    hkg.yield %d : f32
  }
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// The matmul's [S, N] result read as [1, S, N] (a batch-1 residual add):
// the fused matmul writes [S, N], the residual's map drops the unit dim,
// and the result is viewed back.
// CHECK-DAG: #[[RES:.*]] = affine_map<(d0, d1) -> (0, d0, d1)>
// CHECK-LABEL: func.func @through_unit_view
// CHECK: %[[M:.*]] = hkg.matmul %arg0, %arg1 epilogue(%arg2 : tensor<1x64x256xbf16>) {indexing_maps = [#[[RES]]]} : tensor<64x128xbf16>, tensor<128x256xbf16> -> tensor<64x256xbf16>
// CHECK: arith.addf
// CHECK: %[[V:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2]] output_shape [1, 64, 256]
// CHECK-NOT: hkg.elementwise
// CHECK: return %[[V]]
func.func @through_unit_view(%x: tensor<64x128xbf16>, %w: tensor<128x256xbf16>, %r: tensor<1x64x256xbf16>) -> tensor<1x64x256xbf16> {
  %m = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x256xbf16> -> tensor<64x256xbf16>
  %v = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 64, 256] : tensor<64x256xbf16> into tensor<1x64x256xbf16>
  %y = hkg.elementwise %v, %r : tensor<1x64x256xbf16>, tensor<1x64x256xbf16> -> tensor<1x64x256xbf16> {
  ^bb0(%a: bf16, %b: bf16):
    %s = arith.addf %a, %b : bf16
    hkg.yield %s : bf16
  }
  return %y : tensor<1x64x256xbf16>
}

// -----

// c + transpose(c): the epilogue sees only c's element at the result's
// index, so the add stays an elementwise op (folding it would compute 2c).
// CHECK-LABEL: func.func @product_plus_its_transpose
// CHECK: %[[M:.*]] = hkg.matmul %arg0, %arg1 : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
// CHECK: hkg.elementwise %[[M]], %[[M]]
func.func @product_plus_its_transpose(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %m = hkg.matmul %a, %b : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %y = hkg.elementwise %m, %m {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>]}
      : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32> {
  ^bb0(%x: f32, %t: f32):
    %s = arith.addf %x, %t : f32
    hkg.yield %s : f32
  }
  return %y : tensor<64x64xf32>
}
