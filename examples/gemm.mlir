// bf16 GEMMs: square 4096^3 and a decode shape (16 x 4096 x 4096).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @gemm(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
    %0 = hkg.matmul %a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
    return %0 : tensor<4096x4096xbf16>
  }
  func.func @gemm_decode(%a: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
    %0 = hkg.matmul %a, %w {transpose_b} : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
    return %0 : tensor<16x4096xbf16>
  }
}
