// f32 GEMM 4096^3, B as [N, K] (transpose_b): the FMA kernel (mma = none), spelled out: main's default for this shape before 3xTF32 (docs/Matmul.md, "NVIDIA 3xTF32").
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %0 = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 4, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 4, waves_m = 2, waves_n = 2, wgmma_pending = 0>} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
