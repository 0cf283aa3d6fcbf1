// bf16 GEMM 8192^3 (PERF.md anchor shape).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @gemm8192(%a: tensor<8192x8192xbf16>, %b: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.matmul %a, %b : tensor<8192x8192xbf16>, tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
}
