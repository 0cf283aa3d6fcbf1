// f32 GEMM 4096^3, B as [K, N]: 3xTF32 (mma_16x8x8_tf32x3, tf32_split = rna), 128 x 128 x 16 tiles over 2 x 4 warps (220 registers, no spills; 2 x 2 warps spill) (docs/Matmul.md, "NVIDIA 3xTF32").
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 16, waves_m = 2, waves_n = 4, stages = 3, lds_pad = 0, lds_swizzle = 1>} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
