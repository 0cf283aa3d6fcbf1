// f32 GEMM 4096^3, B as [K, N]: the default schedule (the FMA kernel; docs/Matmul.md, "FMA fallback").
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %0 = hkg.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
