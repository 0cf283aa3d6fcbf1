// f32 matmuls as 3xTF32 on warpgroup MMA for sm_90
// (test/Target/NVVM/matmul-tf32x3-wgmma.test): 4096^3 with B as [N, K]
// (its staged tile is the big term) and a step in flight, and with B as
// [K, N] (transposed into K-major big and small tiles), each step's sum
// promoted into f32.
func.func @nk(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1, vector_width = 4, tf32_split = trunc, wgmma_pending = 1, wgmma_promote = 1, unroll = 2>} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
func.func @kn(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x128x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1, vector_width = 4, tf32_split = trunc, wgmma_pending = 0, wgmma_promote = 1>} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
