// Input of sample.test: an elementwise op, whose schedule space is small.
module {
  func.func @neg(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = hkg.elementwise %x : tensor<64x64xf32> -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      %n = arith.negf %a : f32
      hkg.yield %n : f32
    }
    return %0 : tensor<64x64xf32>
  }
}
