// hkg ops for test/Target/NVVM/index-bitwidth.test: two kernels that may use
// 32-bit indices (at most 2^30 elements per memref) and one that may not
// (32768 x 32769 = 2^30 + 32768 elements).
module {
  func.func @small(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
    %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
    return %0 : tensor<64x8192xbf16>
  }
  func.func @big(%x: tensor<32768x32769xbf16>) -> tensor<32768x32769xbf16> {
    %0 = hkg.elementwise %x : tensor<32768x32769xbf16> -> tensor<32768x32769xbf16> {
    ^bb0(%a: bf16):
      %v = arith.extf %a : bf16 to f32
      %m = arith.mulf %v, %v : f32
      %r = arith.truncf %m : f32 to bf16
      hkg.yield %r : bf16
    }
    return %0 : tensor<32768x32769xbf16>
  }
}
