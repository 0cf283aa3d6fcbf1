// A 128x256 GEMM tile over 3 stages (72 KiB of LDS: dynamic shared memory on
// NVIDIA) and the 128x128 mma.sync tile (48 KiB, static; sm_90's default is
// wgmma now, test/Target/NVVM/wgmma.test).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemms(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> (tensor<512x512xbf16>, tensor<512x512xbf16>) {
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 128, tile_n = 256, tile_k = 32, waves_m = 2, waves_n = 4, stages = 3, mma = mma_16x8x16, vector_width = 8, lds_pad = 0, lds_swizzle = 1, unroll = 1, split_k = 1>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
    %1 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 2, stages = 3, mma = mma_16x8x16, vector_width = 8, lds_pad = 0, lds_swizzle = 1, unroll = 1, split_k = 1>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
    return %0, %1 : tensor<512x512xbf16>, tensor<512x512xbf16>
  }
}
