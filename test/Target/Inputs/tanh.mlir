// A bare tanh (not under 1 + tanh, which hkg-lower-to-gpu rewrites): the
// OCML path of hkg-to-rocdl.
module {
  func.func @tanh(%x: tensor<65536xbf16>) -> tensor<65536xbf16> {
    %0 = hkg.elementwise %x : tensor<65536xbf16> -> tensor<65536xbf16> {
    ^bb0(%a: bf16):
      %v = arith.extf %a : bf16 to f32
      %t = math.tanh %v : f32
      %o = arith.truncf %t : f32 to bf16
      hkg.yield %o : bf16
    }
    return %0 : tensor<65536xbf16>
  }
}
