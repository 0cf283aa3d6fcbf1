// Row softmax over 8192 x 8192 bf16 (PERF.md anchor shape).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @softmax(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.softmax %x axis(1) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
}
