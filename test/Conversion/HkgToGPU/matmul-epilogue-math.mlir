// The matmul epilogue runs once per result element while the matrix cores
// wait, so its math takes the cheaper forms of MathRewrites.h: with a 16-bit
// result, divisions are f32 `afn` divisions (div.approx.f32 on sm_90), a
// 16-bit one computed on the widened operands; with an f32 result they stay
// exact. 1 + tanh(y) becomes the sigmoid form whatever the result type.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | FileCheck %s

// SiLU as torch-mlir writes it (bf16 result): 1 / (1 + exp(-x)) in f32.
// CHECK-LABEL: func.func @silu_bf16
// CHECK: gpu.func
// CHECK-NOT: arith.divf %{{[^ ]+}}, %{{[^ ]+}} : f32{{$}}
// CHECK: {{^ *}}%[[E:[0-9]+]] = math.exp
// CHECK: {{^ *}}%[[D:[0-9]+]] = arith.addf %[[E]]
// CHECK: {{^ *}}%{{[0-9]+}} = arith.divf %{{.*}}, %[[D]] fastmath<afn> : f32
// CHECK-NOT: arith.divf %{{[^ ]+}}, %{{[^ ]+}} : f32{{$}}
// CHECK: gpu.return
func.func @silu_bf16(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>) -> tensor<128x128xbf16> {
  %0 = hkg.matmul %a, %b : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xbf16> {
  ^bb0(%acc: f32):
    %one = arith.constant 1.000000e+00 : f32
    %n = arith.negf %acc : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %y = arith.mulf %acc, %s : f32
    %r = arith.truncf %y : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<128x128xbf16>
}

// -----

// GELU's x / sqrt(2) in bf16: widened, divided in f32 (afn), narrowed.
// CHECK-LABEL: func.func @gelu_bf16_division
// CHECK: gpu.func
// CHECK: {{^ *}}%[[X:[0-9]+]] = arith.extf %{{.*}} : bf16 to f32
// CHECK: {{^ *}}%[[C:[0-9]+]] = arith.extf %{{.*}} : bf16 to f32
// CHECK: {{^ *}}%[[Q:[0-9]+]] = arith.divf %[[X]], %[[C]] fastmath<afn> : f32
// CHECK: arith.truncf %[[Q]] : f32 to bf16
// CHECK-NOT: arith.divf {{.*}} : bf16
func.func @gelu_bf16_division(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>) -> tensor<128x128xbf16> {
  %0 = hkg.matmul %a, %b : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xbf16> {
  ^bb0(%acc: f32):
    %two = arith.constant 2.000000e+00 : bf16
    %x = arith.truncf %acc : f32 to bf16
    %r2 = math.sqrt %two : bf16
    %q = arith.divf %x, %r2 : bf16
    %g = math.erf %q : bf16
    hkg.yield %g : bf16
  }
  return %0 : tensor<128x128xbf16>
}

// -----

// An f32 result keeps the exact division.
// CHECK-LABEL: func.func @silu_f32
// CHECK: gpu.func
// CHECK: {{^ *}}%{{[0-9]+}} = arith.divf %{{.*}}, %{{.*}} : f32{{$}}
// CHECK-NOT: fastmath<afn>
func.func @silu_f32(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>) -> tensor<128x128xf32> {
  %0 = hkg.matmul %a, %b : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32> {
  ^bb0(%acc: f32):
    %one = arith.constant 1.000000e+00 : f32
    %n = arith.negf %acc : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %y = arith.mulf %acc, %s : f32
    hkg.yield %y : f32
  }
  return %0 : tensor<128x128xf32>
}
