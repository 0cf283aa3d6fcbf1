// LayerNorm with weight and bias over 8192 x 8192 bf16.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @layernorm(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>,
                       %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>)
        eps(1.0e-05) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
}
