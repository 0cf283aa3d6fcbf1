// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx942 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule="chip=gfx942 require-schedule" | FileCheck %s

// Legal explicit schedules pass and are left exactly as written.

// CHECK-LABEL: func.func @matmul
// CHECK: {schedule = #hkg.schedule<lds_pad = 8, mma = mfma_32x32x8, split_k = 1, stages = 2, tile_k = 64, tile_m = 128, tile_n = 64, vector_width = 8, waves_m = 2, waves_n = 2>}
func.func @matmul(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 128, tile_n = 64, tile_k = 64, waves_m = 2, waves_n = 2, mma = mfma_32x32x8, stages = 2, vector_width = 8, lds_pad = 8, split_k = 1>}
      : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %0 : tensor<512x512xbf16>
}

// CHECK-LABEL: func.func @elementwise
// CHECK: {schedule = #hkg.schedule<threads = 1024, unroll = 1, vector_width = 2>}
func.func @elementwise(%x: tensor<16x6xf32>, %b: tensor<6xf32>) -> tensor<16x6xf32> {
  %0 = hkg.elementwise %x, %b {schedule = #hkg.schedule<threads = 1024, unroll = 1, vector_width = 2>} : tensor<16x6xf32>, tensor<6xf32> -> tensor<16x6xf32> {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<16x6xf32>
}

// CHECK-LABEL: func.func @reduce
// CHECK: {schedule = #hkg.schedule<rows_per_block = 64, threads = 64, unroll = 8, vector_width = 1>}
func.func @reduce(%x: tensor<64x4096xf32>) -> tensor<64xf32> {
  %0 = hkg.reduce max %x axes = [1] {schedule = #hkg.schedule<rows_per_block = 64, threads = 64, unroll = 8, vector_width = 1>} : tensor<64x4096xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// 4 rows of 8064 bf16 in LDS plus 1 KiB of reduction scratch: exactly 64 KiB.
// CHECK-LABEL: func.func @softmax
// CHECK: {schedule = #hkg.schedule<online = 0, row_cache = lds, rows_per_block = 4, threads = 512>}
func.func @softmax(%x: tensor<64x8064xbf16>) -> tensor<64x8064xbf16> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_cache = lds, rows_per_block = 4, threads = 512, online = 0>} : tensor<64x8064xbf16> -> tensor<64x8064xbf16>
  return %0 : tensor<64x8064xbf16>
}

// CHECK-LABEL: func.func @norms
// CHECK: {schedule = #hkg.schedule<row_cache = none>}
// CHECK: {schedule = #hkg.schedule<row_cache = registers, threads = 1024, vector_width = 8>}
func.func @norms(%x: tensor<8x8192xbf16>, %w: tensor<8192xbf16>) -> (tensor<8x8192xbf16>, tensor<8x8192xbf16>) {
  %0 = hkg.layernorm %x eps(1.0e-05) {schedule = #hkg.schedule<row_cache = none>} : tensor<8x8192xbf16> -> tensor<8x8192xbf16>
  %1 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<row_cache = registers, threads = 1024, vector_width = 8>} : tensor<8x8192xbf16> -> tensor<8x8192xbf16>
  return %0, %1 : tensor<8x8192xbf16>, tensor<8x8192xbf16>
}

// CHECK-LABEL: func.func @rope
// CHECK: {schedule = #hkg.schedule<threads = 128, tokens_per_block = 8, vector_width = 2>}
func.func @rope(%x: tensor<1x16x4x12xf16>, %c: tensor<16x6xf16>) -> tensor<1x16x4x12xf16> {
  %0 = hkg.rope %x, %c, %c neox offset(0) {schedule = #hkg.schedule<threads = 128, tokens_per_block = 8, vector_width = 2>} : tensor<1x16x4x12xf16>, tensor<16x6xf16>, tensor<16x6xf16> -> tensor<1x16x4x12xf16>
  return %0 : tensor<1x16x4x12xf16>
}

// CHECK-LABEL: func.func @top_p
// CHECK: {schedule = #hkg.schedule<bins = 256, threads = 64, vector_width = 1>}
func.func @top_p(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<threads = 64, bins = 256, vector_width = 1>} : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @attention
// CHECK: {schedule = #hkg.schedule<mma = none, stages = 1, tile_kv = 16, tile_q = 128, waves = 8>}
func.func @attention(%q: tensor<1x8x256x128xbf16>) -> tensor<1x8x256x128xbf16> {
  %0 = hkg.attention %q, %q, %q causal {schedule = #hkg.schedule<tile_q = 128, tile_kv = 16, waves = 8, mma = none, stages = 1>} : tensor<1x8x256x128xbf16>, tensor<1x8x256x128xbf16>, tensor<1x8x256x128xbf16> -> tensor<1x8x256x128xbf16>
  return %0 : tensor<1x8x256x128xbf16>
}
