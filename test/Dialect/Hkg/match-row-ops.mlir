// RUN: hkg-opt %s --split-input-file --hkg-match-row-ops | FileCheck %s

// softmax as a max, a sum of exp(x - m) and a map: one hkg.softmax (the
// reductions, and the views of them, go).
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[Y:.*]] = hkg.softmax %arg0 axis(1) : tensor<64x1024xbf16> -> tensor<64x1024xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @softmax(%x: tensor<64x1024xbf16>) -> tensor<64x1024xbf16> {
  %m = hkg.reduce max %x axes = [1] : tensor<64x1024xbf16> -> tensor<64xf32>
  %mv = tensor.expand_shape %m [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32>
  %s = hkg.reduce sum %x ins(%mv : tensor<64x1xf32>) axes = [1]
      {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>]}
      : tensor<64x1024xbf16> -> tensor<64x1xf32> prologue {
  ^bb0(%a: bf16, %b: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %b : f32
    %e = math.exp %d : f32
    hkg.yield %e : f32
  }
  %y = hkg.elementwise %x, %mv, %s {indexing_maps = [
        affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>,
        affine_map<(d0, d1) -> (d0, 0)>]}
      : tensor<64x1024xbf16>, tensor<64x1xf32>, tensor<64x1xf32> -> tensor<64x1024xbf16> {
  ^bb0(%a: bf16, %b: f32, %c: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %b : f32
    %e = math.exp %d : f32
    %q = arith.divf %e, %c : f32
    %r = arith.truncf %q : f32 to bf16
    hkg.yield %r : bf16
  }
  return %y : tensor<64x1024xbf16>
}

// -----

// log_softmax over the middle axis: (x - m) - log(s).
// CHECK-LABEL: func.func @log_softmax_middle
// CHECK-NEXT: %[[Y:.*]] = hkg.softmax log %arg0 axis(1) : tensor<8x512x64xf32> -> tensor<8x512x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @log_softmax_middle(%x: tensor<8x512x64xf32>) -> tensor<8x512x64xf32> {
  %m = hkg.reduce max %x axes = [1] : tensor<8x512x64xf32> -> tensor<8x64xf32>
  %s = hkg.reduce sum %x ins(%m : tensor<8x64xf32>) axes = [1]
      {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>]}
      : tensor<8x512x64xf32> -> tensor<8x64xf32> prologue {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    hkg.yield %e : f32
  }
  %y = hkg.elementwise %x, %m, %s {indexing_maps = [
        affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>,
        affine_map<(d0, d1, d2) -> (d0, d2)>]}
      : tensor<8x512x64xf32>, tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x512x64xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %l = math.log %c : f32
    %d = arith.subf %a, %b : f32
    %r = arith.subf %d, %l : f32
    hkg.yield %r : f32
  }
  return %y : tensor<8x512x64xf32>
}

// -----

// RMSNorm as torch writes it: mean of x^2 (fpowi), rsqrt(+ eps), times x,
// then the weight.
// CHECK-LABEL: func.func @rmsnorm
// CHECK-NEXT: %[[Y:.*]] = hkg.rmsnorm %arg0 weight(%arg1 : tensor<4096xbf16>) eps(9.99999974E-6) : tensor<1x64x4096xbf16> -> tensor<1x64x4096xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @rmsnorm(%x: tensor<1x64x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<1x64x4096xbf16> {
  %s = hkg.reduce sum %x axes = [2] : tensor<1x64x4096xbf16> -> tensor<1x64x1xf32> prologue {
  ^bb0(%a: bf16):
    %two = arith.constant 2 : i64
    %af = arith.extf %a : bf16 to f32
    %p = math.fpowi %af, %two : f32, i64
    hkg.yield %p : f32
  }
  %y = hkg.elementwise %w, %x, %s {indexing_maps = [
        affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
        affine_map<(d0, d1, d2) -> (d0, d1, 0)>]}
      : tensor<4096xbf16>, tensor<1x64x4096xbf16>, tensor<1x64x1xf32> -> tensor<1x64x4096xbf16> {
  ^bb0(%wv: bf16, %xv: bf16, %sv: f32):
    %n = arith.constant 4096.0 : f32
    %eps = arith.constant 1.0e-05 : f64
    %mean = arith.divf %sv, %n : f32
    %e = arith.truncf %eps : f64 to f32
    %a = arith.addf %mean, %e : f32
    %r = math.rsqrt %a : f32
    %xf = arith.extf %xv : bf16 to f32
    %p = arith.mulf %xf, %r : f32
    %t = arith.truncf %p : f32 to bf16
    %o = arith.mulf %wv, %t : bf16
    hkg.yield %o : bf16
  }
  return %y : tensor<1x64x4096xbf16>
}

// -----

// Not an RMSNorm: the mean divides by another count than the row's.
// CHECK-LABEL: func.func @wrong_count
// CHECK: hkg.reduce sum
// CHECK: hkg.elementwise
// CHECK-NOT: hkg.rmsnorm
func.func @wrong_count(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %s = hkg.reduce sum %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32> prologue {
  ^bb0(%a: f32):
    %p = arith.mulf %a, %a : f32
    hkg.yield %p : f32
  }
  %y = hkg.elementwise %x, %s {indexing_maps = [
        affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]}
      : tensor<64x4096xf32>, tensor<64xf32> -> tensor<64x4096xf32> {
  ^bb0(%xv: f32, %sv: f32):
    %n = arith.constant 2048.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %sv, %n : f32
    %a = arith.addf %mean, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %xv, %r : f32
    hkg.yield %o : f32
  }
  return %y : tensor<64x4096xf32>
}

// -----

// Not a softmax: the max is over another axis than the sum.
// CHECK-LABEL: func.func @axes_differ
// CHECK-NOT: hkg.softmax
func.func @axes_differ(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %m = hkg.reduce max %x axes = [0] : tensor<64x64xf32> -> tensor<64xf32>
  %s = hkg.reduce sum %x ins(%m : tensor<64xf32>) axes = [1]
      {indexing_maps = [affine_map<(d0, d1) -> (d1)>]}
      : tensor<64x64xf32> -> tensor<64xf32> prologue {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    hkg.yield %e : f32
  }
  %y = hkg.elementwise %x, %m, %s {indexing_maps = [
        affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
        affine_map<(d0, d1) -> (d0)>]}
      : tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %q = arith.divf %e, %c : f32
    hkg.yield %q : f32
  }
  return %y : tensor<64x64xf32>
}

// -----

// LayerNorm: (x - sum/N) * rsqrt(var/N + eps) * w + b, var the sum of
// (x - mean)^2 (its mean from another sum of x).
// CHECK-LABEL: func.func @layernorm
// CHECK-NEXT: %[[Y:.*]] = hkg.layernorm %arg0 weight(%arg1 : tensor<256xf32>) bias(%arg2 : tensor<256xf32>) eps(9.99999974E-6) : tensor<64x256xf32> -> tensor<64x256xf32>
// CHECK-NEXT: return %[[Y]]
func.func @layernorm(%x: tensor<64x256xf32>, %w: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %s1 = hkg.reduce sum %x axes = [1] : tensor<64x256xf32> -> tensor<64xf32>
  %s0 = hkg.reduce sum %x axes = [1] : tensor<64x256xf32> -> tensor<64xf32>
  %s2 = hkg.reduce sum %x ins(%s0 : tensor<64xf32>) axes = [1]
      {indexing_maps = [affine_map<(d0, d1) -> (d0)>]}
      : tensor<64x256xf32> -> tensor<64xf32> prologue {
  ^bb0(%a: f32, %m: f32):
    %n = arith.constant 256.0 : f32
    %mean = arith.divf %m, %n : f32
    %d = arith.subf %a, %mean : f32
    %q = arith.mulf %d, %d : f32
    hkg.yield %q : f32
  }
  %y = hkg.elementwise %x, %s1, %s2, %w, %b {indexing_maps = [
        affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
        affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>,
        affine_map<(d0, d1) -> (d1)>]}
      : tensor<64x256xf32>, tensor<64xf32>, tensor<64xf32>, tensor<256xf32>, tensor<256xf32> -> tensor<64x256xf32> {
  ^bb0(%xv: f32, %sv: f32, %vv: f32, %wv: f32, %bv: f32):
    %n = arith.constant 256.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %sv, %n : f32
    %var = arith.divf %vv, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %c = arith.subf %xv, %mean : f32
    %p = arith.mulf %c, %r : f32
    %pw = arith.mulf %p, %wv : f32
    %o = arith.addf %pw, %bv : f32
    hkg.yield %o : f32
  }
  return %y : tensor<64x256xf32>
}

// -----

// Not a softmax: the sum subtracts the max of another row (its `ins` map
// follows the reduced dim), so the shift is not constant along the row.
// CHECK-LABEL: func.func @sum_reads_other_max
// CHECK-NOT: hkg.softmax
func.func @sum_reads_other_max(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %m = hkg.reduce max %x axes = [1] : tensor<16x16xf32> -> tensor<16xf32>
  %s = hkg.reduce sum %x ins(%m : tensor<16xf32>) axes = [1]
      {indexing_maps = [affine_map<(d0, d1) -> (d1)>]}
      : tensor<16x16xf32> -> tensor<16xf32> prologue {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    hkg.yield %e : f32
  }
  %y = hkg.elementwise %x, %m, %s {indexing_maps = [
        affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
        affine_map<(d0, d1) -> (d0)>]}
      : tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<16x16xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %q = arith.divf %e, %c : f32
    hkg.yield %q : f32
  }
  return %y : tensor<16x16xf32>
}

// -----

// Not a LayerNorm: the variance centres each element on the mean of
// another row.
// CHECK-LABEL: func.func @variance_reads_other_mean
// CHECK-NOT: hkg.layernorm
func.func @variance_reads_other_mean(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s1 = hkg.reduce sum %x axes = [1] : tensor<16x16xf32> -> tensor<16xf32>
  %s2 = hkg.reduce sum %x ins(%s1 : tensor<16xf32>) axes = [1]
      {indexing_maps = [affine_map<(d0, d1) -> (d1)>]}
      : tensor<16x16xf32> -> tensor<16xf32> prologue {
  ^bb0(%a: f32, %m: f32):
    %n = arith.constant 16.0 : f32
    %mean = arith.divf %m, %n : f32
    %d = arith.subf %a, %mean : f32
    %q = arith.mulf %d, %d : f32
    hkg.yield %q : f32
  }
  %y = hkg.elementwise %x, %s1, %s2 {indexing_maps = [
        affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
        affine_map<(d0, d1) -> (d0)>]}
      : tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<16x16xf32> {
  ^bb0(%xv: f32, %sv: f32, %vv: f32):
    %n = arith.constant 16.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %sv, %n : f32
    %var = arith.divf %vv, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %c = arith.subf %xv, %mean : f32
    %p = arith.mulf %c, %r : f32
    hkg.yield %p : f32
  }
  return %y : tensor<16x16xf32>
}
