// RMSNorm over 8192 x 8192 bf16.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @rmsnorm(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06)
        : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
}
