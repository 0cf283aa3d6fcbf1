// LayerNorm 8192 x 8192 bf16 with and without the `occupancy` knob
// (test/Target/occupancy-knob.test): kernels 0 and 1 at 256 threads, 2 and 3
// at 128.
module {
  func.func @plain256(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256>} : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
  func.func @occupancy5(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, occupancy = 5>} : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
  func.func @plain128(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 128>} : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
  func.func @occupancy8(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 128, occupancy = 8>} : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
}
