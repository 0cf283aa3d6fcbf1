// RUN: hkg-opt %s --split-input-file --hkg-raise-linalg | FileCheck %s
// RUN: hkg-opt %s --split-input-file --hkg-raise-linalg --hkg-fuse | FileCheck %s --check-prefix=FUSE

// Torch's Linear, GELU, Linear: the weight transposes become `transpose_b`,
// the bias add and the GELU one elementwise body (hkg-fuse then folds each
// into its matmul's epilogue: two kernels).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @mlp
// CHECK-NOT: linalg.
// CHECK: %[[M1:.*]] = hkg.matmul %arg0, %arg1 {transpose_b} : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xbf16>
// CHECK: %[[G:.*]] = hkg.elementwise %[[M1]], %arg2 {indexing_maps = [#{{.*}}, #{{.*}}]}
// CHECK: arith.addf
// CHECK: math.erf
// CHECK: %[[M2:.*]] = hkg.matmul %[[G]], %arg3 {transpose_b}
// CHECK: hkg.elementwise %[[M2]], %arg4
// CHECK-NOT: linalg.
// FUSE-LABEL: func.func @mlp
// FUSE: hkg.matmul %arg0, %arg1 epilogue(%arg2 : tensor<256xbf16>)
// FUSE: math.erf
// FUSE: hkg.matmul %{{.*}}, %arg3 epilogue(%arg4 : tensor<128xbf16>)
// FUSE-NOT: hkg.elementwise
func.func @mlp(%x: tensor<64x128xbf16>, %w1: tensor<256x128xbf16>, %b1: tensor<256xbf16>, %w2: tensor<128x256xbf16>, %b2: tensor<128xbf16>) -> tensor<64x128xbf16> {
  %cst = arith.constant 0.0 : bf16
  %e0 = tensor.empty() : tensor<128x256xbf16>
  %t1 = linalg.transpose ins(%w1 : tensor<256x128xbf16>) outs(%e0 : tensor<128x256xbf16>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x256xbf16>
  %f1 = linalg.fill ins(%cst : bf16) outs(%e1 : tensor<64x256xbf16>) -> tensor<64x256xbf16>
  %m1 = linalg.matmul ins(%x, %t1 : tensor<64x128xbf16>, tensor<128x256xbf16>) outs(%f1 : tensor<64x256xbf16>) -> tensor<64x256xbf16>
  %a1 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m1, %b1 : tensor<64x256xbf16>, tensor<256xbf16>) outs(%e1 : tensor<64x256xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %s = arith.addf %in, %in_0 : bf16
    linalg.yield %s : bf16
  } -> tensor<64x256xbf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a1 : tensor<64x256xbf16>) outs(%e1 : tensor<64x256xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %c1 = arith.constant 0.70710678 : bf16
    %c2 = arith.constant 1.0 : bf16
    %c3 = arith.constant 0.5 : bf16
    %0 = arith.mulf %in, %c1 : bf16
    %1 = math.erf %0 : bf16
    %2 = arith.addf %1, %c2 : bf16
    %3 = arith.mulf %in, %2 : bf16
    %4 = arith.mulf %3, %c3 : bf16
    linalg.yield %4 : bf16
  } -> tensor<64x256xbf16>
  %e2 = tensor.empty() : tensor<256x128xbf16>
  %t2 = linalg.transpose ins(%w2 : tensor<128x256xbf16>) outs(%e2 : tensor<256x128xbf16>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<64x128xbf16>
  %f3 = linalg.fill ins(%cst : bf16) outs(%e3 : tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %m2 = linalg.matmul ins(%g, %t2 : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%f3 : tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %a2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m2, %b2 : tensor<64x128xbf16>, tensor<128xbf16>) outs(%e3 : tensor<64x128xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %s = arith.addf %in, %in_0 : bf16
    linalg.yield %s : bf16
  } -> tensor<64x128xbf16>
  return %a2 : tensor<64x128xbf16>
}

// -----

// A result written transposed: the new op iterates over the result's dims,
// so the input's map is composed with the inverse; linalg.index follows.
// CHECK: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @transposed_result
// FUSE-LABEL: func.func @transposed_result
// CHECK: hkg.elementwise %arg0 {indexing_maps = [#[[T]]]} : tensor<16x32xf32> -> tensor<32x16xf32>
// CHECK: %[[I:.*]] = hkg.index 0
// CHECK: arith.index_cast %[[I]]
func.func @transposed_result(%x: tensor<16x32xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %s = arith.addf %in, %jf : f32
    linalg.yield %s : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// A payload that reads its init accumulates into it: the init is an input.
// CHECK: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @accumulate
// CHECK: hkg.elementwise %arg0, %arg1 {indexing_maps = [#[[COL]], #[[ID]]]}
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: arith.addf %[[X]], %[[ACC]]
func.func @accumulate(%x: tensor<8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Sum over the middle axis; max keeping it (arith.maximumf: a NaN wins, the
// `maximum` kind; arith.maxnumf: a NaN loses, `max`); a non-zero init joins
// in the epilogue.
// CHECK-LABEL: func.func @sum_middle
// CHECK: hkg.reduce sum %arg0 axes = [1] : tensor<8x512x64xf32> -> tensor<8x64xf32>
// CHECK-NOT: prologue
func.func @sum_middle(%x: tensor<8x512x64xf32>) -> tensor<8x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<8x512x64xf32>) outs(%f : tensor<8x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @amax_keepdim
// CHECK: hkg.reduce maximum %arg0 axes = [1] : tensor<8x512x64xbf16> -> tensor<8x1x64xbf16>
// CHECK-NOT: prologue
// CHECK-NOT: epilogue
// CHECK-NEXT: return
func.func @amax_keepdim(%x: tensor<8x512x64xbf16>) -> tensor<8x1x64xbf16> {
  %c0 = arith.constant 0xFF80 : bf16
  %e = tensor.empty() : tensor<8x1x64xbf16>
  %f = linalg.fill ins(%c0 : bf16) outs(%e : tensor<8x1x64xbf16>) -> tensor<8x1x64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<8x512x64xbf16>) outs(%f : tensor<8x1x64xbf16>) {
  ^bb0(%in: bf16, %acc: bf16):
    %s = arith.maximumf %in, %acc : bf16
    linalg.yield %s : bf16
  } -> tensor<8x1x64xbf16>
  return %r : tensor<8x1x64xbf16>
}

// CHECK-LABEL: func.func @maxnum
// CHECK: hkg.reduce max %arg0 axes = [1] : tensor<8x512xf32> -> tensor<8xf32>
func.func @maxnum(%x: tensor<8x512xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x512xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maxnumf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @sum_from_one
// CHECK: hkg.reduce sum %arg0 axes = [1]
// CHECK: epilogue
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: arith.addf %{{.*}}, %[[ONE]]
func.func @sum_from_one(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  %c1 = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%c1 : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Torch's softmax: max, exp(x - max), sum, divide. The exp is fused into
// the sum's prologue and into the divide: two reductions and a map.
// CHECK-LABEL: func.func @softmax_parts
// CHECK: %[[MAX:.*]] = hkg.reduce maximum %arg0 axes = [1]
// CHECK: %[[SUM:.*]] = hkg.reduce sum %arg0 ins(%[[MAX]] : tensor<64x1xf32>) axes = [1]
// CHECK: prologue
// CHECK: math.exp
// CHECK: hkg.elementwise %arg0, %[[MAX]], %[[SUM]]
// CHECK: math.exp
// CHECK: arith.divf
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
func.func @softmax_parts(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x1xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64x1xf32>) -> tensor<64x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x1024xf32>) outs(%f1 : tensor<64x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x1xf32>
  %e = tensor.empty() : tensor<64x1024xf32>
  %ex = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<64x1024xf32>, tensor<64x1xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<64x1024xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<64x1xf32>) -> tensor<64x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<64x1024xf32>) outs(%f2 : tensor<64x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<64x1024xf32>, tensor<64x1xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %d = arith.divf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}

// -----

// batch_matmul; a [B, S, K] x [K, N] contraction flattens its M dims
// (views, no copies) and adds the tensor it accumulates into.
// CHECK-LABEL: func.func @bmm
// CHECK: hkg.matmul %arg0, %arg1 : tensor<4x64x32xf32>, tensor<4x32x16xf32> -> tensor<4x64x16xf32>
func.func @bmm(%a: tensor<4x64x32xf32>, %b: tensor<4x32x16xf32>) -> tensor<4x64x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64x16xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x64x16xf32>) -> tensor<4x64x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x64x32xf32>, tensor<4x32x16xf32>) outs(%f : tensor<4x64x16xf32>) -> tensor<4x64x16xf32>
  return %r : tensor<4x64x16xf32>
}

// CHECK-LABEL: func.func @linear3d
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<2x64x32xbf16> into tensor<128x32xbf16>
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg2 {{\[}}[0, 1], [2]] : tensor<2x64x16xf32> into tensor<128x16xf32>
// CHECK: %[[M:.*]] = hkg.matmul %[[A]], %arg1 epilogue(%[[C]] : tensor<128x16xf32>)
// CHECK: arith.addf
// CHECK: tensor.expand_shape %[[M]] {{\[}}[0, 1], [2]] output_shape [2, 64, 16]
func.func @linear3d(%a: tensor<2x64x32xbf16>, %w: tensor<32x16xbf16>, %c: tensor<2x64x16xf32>) -> tensor<2x64x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %w : tensor<2x64x32xbf16>, tensor<32x16xbf16>) outs(%c : tensor<2x64x16xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x64x16xf32>
  return %r : tensor<2x64x16xf32>
}

// -----

// A producer that reads linalg.index, fused into its consumer: fusion
// rewrites the index as an affine.apply of the consumer's indices, which
// the body spells out (here just the index).
// CHECK-LABEL: func.func @index_producer
// CHECK: hkg.elementwise %arg0, %arg1
// CHECK: %[[J:.*]] = hkg.index 1
// CHECK: arith.index_cast %[[J]]
// CHECK-NOT: affine.apply
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @index_producer(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %p = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %m = arith.mulf %a, %jf : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p, %y : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// An all over the last dim of a comparison (torch's fully-masked-row guard)
// is hkg.reduce min of the comparisons as 0.0 / 1.0; its consumer reads the
// f32 result and compares it with 0. An any is the max.
// CHECK-LABEL: func.func @all_and_any
// CHECK: %[[ALL:.*]] = hkg.reduce min %arg0 axes = [1] : tensor<8x64xf32> -> tensor<8x1xf32> prologue {
// CHECK:   %[[EQ:.*]] = arith.cmpf oeq
// CHECK:   %[[F:.*]] = arith.uitofp %[[EQ]] : i1 to f32
// CHECK:   hkg.yield %[[F]] : f32
// CHECK-NOT: epilogue
// CHECK: %[[ANY:.*]] = hkg.reduce max %arg0 axes = [1] : tensor<8x64xf32> -> tensor<8x1xf32> prologue {
// CHECK:   arith.cmpf uno
// CHECK:   arith.uitofp
// CHECK: hkg.elementwise %[[ALL]], %[[ANY]], %arg0
// CHECK:   arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK:   arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK:   arith.ori %{{.*}}, %{{.*}} : i1
func.func @all_and_any(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %true = arith.constant true
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x1xi1>
  %t = linalg.fill ins(%true : i1) outs(%e : tensor<8x1xi1>) -> tensor<8x1xi1>
  %all = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%t : tensor<8x1xi1>) {
  ^bb0(%in: f32, %acc: i1):
    %eq = arith.cmpf oeq, %in, %ninf : f32
    %a = arith.andi %eq, %acc : i1
    linalg.yield %a : i1
  } -> tensor<8x1xi1>
  %f = linalg.fill ins(%false : i1) outs(%e : tensor<8x1xi1>) -> tensor<8x1xi1>
  %any = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%f : tensor<8x1xi1>) {
  ^bb0(%in: f32, %acc: i1):
    %nan = arith.cmpf uno, %in, %in : f32
    %o = arith.ori %nan, %acc : i1
    linalg.yield %o : i1
  } -> tensor<8x1xi1>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%all, %any, %x : tensor<8x1xi1>, tensor<8x1xi1>, tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%m: i1, %n: i1, %in: f32, %out: f32):
    %c = arith.ori %m, %n : i1
    %s = arith.select %c, %zero, %in : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
