// Decode GEMM: 16 tokens x 4096 against a 4096x4096 weight stored [N, K]
// (PERF.md anchor shape).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @gemm_decode(%a: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
    %0 = hkg.matmul %a, %w {transpose_b} : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
    return %0 : tensor<16x4096xbf16>
  }
}
