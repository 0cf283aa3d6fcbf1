// FP8 GEMM 8192^3 as gemm_fp8, each K step's sum promoted into f32
// accumulators (wgmma_promote = 1: cuBLAS's default accumulation, not its
// fast one): 128 x 128 tiles of wgmma_64x128x32 over 4 stages, wgmma_pending
// = 0 (182 registers, no spills). Compile it as the `promote` variant of
// gemm_fp8.8192x8192x8192 (docs/Matmul.md, "8-bit operands").
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm_fp8(%a: tensor<8192x8192xf8E4M3FN>, %b: tensor<8192x8192xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<8192x8192xbf16> {
    %0 = hkg.matmul %a, %b epilogue(%sa, %sb : tensor<f32>, tensor<f32>) {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 0, wgmma_promote = 1>}
        : tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN> -> tensor<8192x8192xbf16> {
    ^bb0(%acc: f32, %x: f32, %w: f32):
      %s = arith.mulf %x, %w : f32
      %v = arith.mulf %acc, %s : f32
      %r = arith.truncf %v : f32 to bf16
      hkg.yield %r : bf16
    }
    return %0 : tensor<8192x8192xbf16>
  }
}
