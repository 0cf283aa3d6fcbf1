// 8-bit matmuls for sm_90 (test/Target/NVVM/matmul-8bit.test): e4m3 with
// per-tensor scales to bf16 and i8 to i32 at 4096^3 (the wide default:
// wgmma_64x256x32), e5m2 at 512^3 (wgmma_64x128x32), e4m3 at 4096^3 with
// each K step's sum promoted to f32 (wgmma_promote = 1), at once and
// while the next step's MMAs run (wgmma_pending = 1, unroll = 4), all with
// B as [N, K].
func.func @fp8_scaled(%a: tensor<4096x4096xf8E4M3FN>, %b: tensor<4096x4096xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b epilogue(%sa, %sb : tensor<f32>, tensor<f32>) {transpose_b}
      : tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xbf16> {
  ^bb0(%acc: f32, %x: f32, %w: f32):
    %s = arith.mulf %x, %w : f32
    %v = arith.mulf %acc, %s : f32
    %r = arith.truncf %v : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<4096x4096xbf16>
}
func.func @i8(%a: tensor<4096x4096xi8>, %b: tensor<4096x4096xi8>) -> tensor<4096x4096xi32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4096x4096xi8>, tensor<4096x4096xi8> -> tensor<4096x4096xi32>
  return %0 : tensor<4096x4096xi32>
}
func.func @e5m2(%a: tensor<512x512xf8E5M2>, %b: tensor<512x512xf8E5M2>) -> tensor<512x512xf32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<512x512xf8E5M2>, tensor<512x512xf8E5M2> -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}
func.func @fp8_promote(%a: tensor<4096x4096xf8E4M3FN>, %b: tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 0, wgmma_promote = 1>} : tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}
func.func @fp8_promote_pending(%a: tensor<4096x4096xf8E4M3FN>, %b: tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 1, wgmma_promote = 1, unroll = 4>} : tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
