// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 \
// RUN:   | hkg-opt --hkg-verify-schedule="chip=gfx1100 require-schedule" | FileCheck %s --check-prefix=GFX1100

// A wave per slice (256-thread workgroups) when the slice fits 32
// elements a lane and k <= 32 (gating; the strided axis of 1000); otherwise
// one workgroup per slice, a thread per vector of it within [128, 1024];
// the lower bound sampled as sparsely as the pool allows (every 8th step of
// a long row at k = 50; k = 1024 below); 16-byte vectors along a contiguous
// axis, as wide as divides its size; none along a strided axis.

// GFX942-LABEL: func.func @logits
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 8, threads = 1024, unroll = 4, vector_width = 4>}
// SM90-LABEL: func.func @logits
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 8, threads = 1024, unroll = 4, vector_width = 4>}
// GFX1100-LABEL: func.func @logits
// GFX1100: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 8, threads = 1024, unroll = 4, vector_width = 4>}
func.func @logits(%x: tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi64>) {
  %v, %i = hkg.topk %x k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi64>
  return %v, %i : tensor<64x50xf32>, tensor<64x50xi64>
}

// GFX942-LABEL: func.func @gating_bf16
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = wave, sample_every = 1, threads = 256, unroll = 4, vector_width = 8>}
func.func @gating_bf16(%x: tensor<4096x64xbf16>) -> (tensor<4096x2xbf16>, tensor<4096x2xi32>) {
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<4096x64xbf16> -> tensor<4096x2xbf16>, tensor<4096x2xi32>
  return %v, %i : tensor<4096x2xbf16>, tensor<4096x2xi32>
}

// SM90-LABEL: func.func @strided_axis
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = wave, sample_every = 1, threads = 256, unroll = 4, vector_width = 1>}
func.func @strided_axis(%x: tensor<2x1000x8xf32>) -> (tensor<2x10x8xf32>, tensor<2x10x8xi32>) {
  %v, %i = hkg.topk %x k(10) axis(1) : tensor<2x1000x8xf32> -> tensor<2x10x8xf32>, tensor<2x10x8xi32>
  return %v, %i : tensor<2x10x8xf32>, tensor<2x10x8xi32>
}

// SM90-LABEL: func.func @logits_k1024
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 2, threads = 1024, unroll = 4, vector_width = 4>}
// GFX942-LABEL: func.func @logits_k1024
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 1, threads = 1024, unroll = 4, vector_width = 4>}
func.func @logits_k1024(%x: tensor<64x128256xf32>) -> (tensor<64x1024xf32>, tensor<64x1024xi32>) {
  %v, %i = hkg.topk %x k(1024) axis(1) : tensor<64x128256xf32> -> tensor<64x1024xf32>, tensor<64x1024xi32>
  return %v, %i : tensor<64x1024xf32>, tensor<64x1024xi32>
}

// Past a wave's 32 elements a lane (1024 on sm_90, 2048 on gfx942's wave64)
// or k > 32: a workgroup per slice.
// SM90-LABEL: func.func @wave_limits
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 1, threads = 512, unroll = 4, vector_width = 4>}
// SM90: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 1, threads = 256, unroll = 4, vector_width = 4>}
// GFX942-LABEL: func.func @wave_limits
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = wave, sample_every = 1, threads = 256, unroll = 4, vector_width = 4>}
// GFX942: hkg.topk {{.*}} {schedule = #hkg.schedule<per_slice = workgroup, sample_every = 1, threads = 256, unroll = 4, vector_width = 4>}
func.func @wave_limits(%x: tensor<8x2048xf32>, %y: tensor<8x1024xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x33xf32>, tensor<8x33xi32>) {
  %v, %i = hkg.topk %x k(4) axis(1) : tensor<8x2048xf32> -> tensor<8x4xf32>, tensor<8x4xi32>
  %w, %j = hkg.topk %y k(33) axis(1) : tensor<8x1024xf32> -> tensor<8x33xf32>, tensor<8x33xi32>
  return %v, %i, %w, %j : tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x33xf32>, tensor<8x33xi32>
}
