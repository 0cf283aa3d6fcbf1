// f32 GEMM 4096^3, B as [N, K] (transpose_b): the default schedule (the FMA kernel; docs/Matmul.md, "FMA fallback"). bench.py's gemm_f32; the 3xTF32 variants (mma_16x8x8_tf32x3, 128 x 128 x 16 tiles over 2 x 4 warps, tf32_split = rna or fast) come from schedule_variants.py (docs/perf/README.md, "Matmul").
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %0 = hkg.matmul %a, %b {transpose_b} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
