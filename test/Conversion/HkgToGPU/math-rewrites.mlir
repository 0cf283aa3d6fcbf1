// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// GELU (tanh form): 1 + tanh(y) becomes 2 / (1 + exp2(-2 log2(e) y)), the
// exp2 and the division marked afn; no tanh is left.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0(
// CHECK-NOT:     {{^ *%[0-9]+ = math.tanh}}
// CHECK:         %[[C:.*]] = arith.constant -2.885390{{[0-9]*}}e+00 : f32
// CHECK:         %[[A:.*]] = arith.mulf %{{.*}}, %[[C]] : f32
// CHECK:         %[[E:.*]] = math.exp2 %[[A]] fastmath<afn> : f32
// CHECK:         %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// CHECK:         arith.divf %{{.*}}, %[[D]] fastmath<afn> : f32
// CHECK-NOT:     {{^ *%[0-9]+ = math.tanh}}
// CHECK:         gpu.return
func.func @gelu(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = hkg.elementwise %x : tensor<4096xf32> -> tensor<4096xf32> {
  ^bb0(%v: f32):
    %c0 = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608 : f32
    %c3 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %v, %v : f32
    %x3 = arith.mulf %x2, %v : f32
    %t0 = arith.mulf %c3, %x3 : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %k, %t1 : f32
    %th = math.tanh %t2 : f32
    %t3 = arith.addf %th, %c1 : f32
    %t4 = arith.mulf %v, %t3 : f32
    %r = arith.mulf %c0, %t4 : f32
    hkg.yield %r : f32
  }
  return %0 : tensor<4096xf32>
}
}

// -----

// Not 1 + tanh: left alone.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0(
// CHECK-NOT:     math.exp2
// CHECK:         {{^ *%[0-9]+ = math.tanh}}
// CHECK-NOT:     math.exp2
// CHECK:         gpu.return
func.func @two_plus_tanh(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = hkg.elementwise %x : tensor<4096xf32> -> tensor<4096xf32> {
  ^bb0(%v: f32):
    %c2 = arith.constant 2.0 : f32
    %th = math.tanh %v : f32
    %r = arith.addf %c2, %th : f32
    hkg.yield %r : f32
  }
  return %0 : tensor<4096xf32>
}
}

// -----

// Also in a matmul's fused epilogue: it runs once per output while the
// matrix cores wait (on an H100 the MLP's bias + GELU epilogue took 75 of
// the 2048x11008x4096 GEMM's 375 us, docs/perf), so it is on the
// throughput path too.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-NOT:     {{^ *%[0-9]+ = math.tanh}}
// CHECK:         math.exp2 {{.*}} fastmath<afn> : f32
// CHECK-NOT:     {{^ *%[0-9]+ = math.tanh}}
// CHECK:         gpu.return
func.func @mm_gelu(%a: tensor<128x256xbf16>, %b: tensor<256x128xbf16>) -> tensor<128x128xbf16> {
  %0 = hkg.matmul %a, %b : tensor<128x256xbf16>, tensor<256x128xbf16> -> tensor<128x128xbf16> {
  ^bb0(%acc: f32):
    %c0 = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %th = math.tanh %acc : f32
    %t3 = arith.addf %c1, %th : f32
    %t4 = arith.mulf %acc, %t3 : f32
    %r = arith.mulf %c0, %t4 : f32
    %o = arith.truncf %r : f32 to bf16
    hkg.yield %o : bf16
  }
  return %0 : tensor<128x128xbf16>
}
}
