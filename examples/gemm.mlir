// bf16 GEMM 4096^3 (PERF.md anchor shape).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @gemm(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
    %0 = hkg.matmul %a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
    return %0 : tensor<4096x4096xbf16>
  }
}
