// f32 GEMM 4096^3, B as [K, N]: 3xTF32 with tf32_split = fast (add-and-mask split, 4 instructions an element instead of 9) (docs/Matmul.md, "NVIDIA 3xTF32").
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tf32_split = fast>} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
