// INT8 GEMM 8192^3 (issue 30): i8 x i8 with B as [N, K] (transpose_b), the
// exact i32 sums out: the default schedule (sm_90: s8 wgmma_64x256x32, 128 x
// 256 tiles, 4 stages, wgmma_pending = 1, no LDS epilogue: it stages f32).
// bench.py's gemm_i8: torch._int_mm(a, b.t()).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm_i8(%a: tensor<8192x8192xi8>, %b: tensor<8192x8192xi8>) -> tensor<8192x8192xi32> {
    %0 = hkg.matmul %a, %b {transpose_b} : tensor<8192x8192xi8>, tensor<8192x8192xi8> -> tensor<8192x8192xi32>
    return %0 : tensor<8192x8192xi32>
  }
}
