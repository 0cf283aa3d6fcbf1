// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 \
// RUN:   | hkg-opt --hkg-verify-schedule="chip=gfx1100 require-schedule" | FileCheck %s --check-prefix=GFX1100

// One workgroup per slice, a thread per vector of it within [128, 1024];
// the lower bound sampled as sparsely as the pool allows (every 8th step of
// a long row at k = 50; k = 1024 below); 16-byte vectors along a contiguous
// axis, as wide as divides its size; none along a strided axis.

// GFX942-LABEL: func.func @logits
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<sample_every = 8, threads = 1024, unroll = 4, vector_width = 4>}
// SM90-LABEL: func.func @logits
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<sample_every = 8, threads = 1024, unroll = 4, vector_width = 4>}
// GFX1100-LABEL: func.func @logits
// GFX1100: hkg.topk {{.*}} {schedule = #hkg.schedule<sample_every = 8, threads = 1024, unroll = 4, vector_width = 4>}
func.func @logits(%x: tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi64>) {
  %v, %i = hkg.topk %x k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi64>
  return %v, %i : tensor<64x50xf32>, tensor<64x50xi64>
}

// GFX942-LABEL: func.func @gating_bf16
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<sample_every = 1, threads = 128, unroll = 4, vector_width = 8>}
func.func @gating_bf16(%x: tensor<4096x64xbf16>) -> (tensor<4096x2xbf16>, tensor<4096x2xi32>) {
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<4096x64xbf16> -> tensor<4096x2xbf16>, tensor<4096x2xi32>
  return %v, %i : tensor<4096x2xbf16>, tensor<4096x2xi32>
}

// SM90-LABEL: func.func @strided_axis
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<sample_every = 1, threads = 512, unroll = 4, vector_width = 1>}
func.func @strided_axis(%x: tensor<2x1000x8xf32>) -> (tensor<2x10x8xf32>, tensor<2x10x8xi32>) {
  %v, %i = hkg.topk %x k(10) axis(1) : tensor<2x1000x8xf32> -> tensor<2x10x8xf32>, tensor<2x10x8xi32>
  return %v, %i : tensor<2x10x8xf32>, tensor<2x10x8xi32>
}

// SM90-LABEL: func.func @logits_k1024
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<sample_every = 2, threads = 1024, unroll = 4, vector_width = 4>}
// GFX942-LABEL: func.func @logits_k1024
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<sample_every = 1, threads = 1024, unroll = 4, vector_width = 4>}
func.func @logits_k1024(%x: tensor<64x128256xf32>) -> (tensor<64x1024xf32>, tensor<64x1024xi32>) {
  %v, %i = hkg.topk %x k(1024) axis(1) : tensor<64x128256xf32> -> tensor<64x1024xf32>, tensor<64x1024xi32>
  return %v, %i : tensor<64x1024xf32>, tensor<64x1024xi32>
}
