// The ops the Tuner lit tests use; `hkg-tune signature` prints their
// signatures (Inputs/records.jsonl is keyed by them).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @softmax(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    %0 = hkg.softmax %x axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
    return %0 : tensor<64x8192xf32>
  }
  func.func @rmsnorm(%x: tensor<4096x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<4096x4096xbf16> {
    %0 = hkg.rmsnorm %x weight(%w : tensor<4096xbf16>) eps(1.0e-06) : tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
    return %0 : tensor<4096x4096xbf16>
  }
}
