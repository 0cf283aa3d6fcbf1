// SwiGLU: silu(gate) * up over 8192 x 8192 bf16.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @swiglu(%gate: tensor<8192x8192xbf16>, %up: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.elementwise %gate, %up : tensor<8192x8192xbf16>, tensor<8192x8192xbf16> -> tensor<8192x8192xbf16> {
    ^bb0(%g: bf16, %u: bf16):
      %gf = arith.extf %g : bf16 to f32
      %uf = arith.extf %u : bf16 to f32
      %n = arith.negf %gf : f32
      %e = math.exp %n : f32
      %one = arith.constant 1.0 : f32
      %d = arith.addf %one, %e : f32
      %s = arith.divf %gf, %d : f32
      %p = arith.mulf %s, %uf : f32
      %r = arith.truncf %p : f32 to bf16
      hkg.yield %r : bf16
    }
    return %0 : tensor<8192x8192xbf16>
  }
}
