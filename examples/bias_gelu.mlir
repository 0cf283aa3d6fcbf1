// Bias add + GELU (tanh) over 8192 x 8192 bf16: one bias value per column
// (the map (d0, d1) -> (d1); on a square result the shape alone cannot say
// whether [8192] is per row or per column).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @bias_gelu(%x: tensor<8192x8192xbf16>, %bias: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
    %0 = hkg.elementwise %x, %bias {indexing_maps = [
        affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>]}
        : tensor<8192x8192xbf16>, tensor<8192xbf16> -> tensor<8192x8192xbf16> {
    ^bb0(%a: bf16, %b: bf16):
      %av = arith.extf %a : bf16 to f32
      %bv = arith.extf %b : bf16 to f32
      %v = arith.addf %av, %bv : f32
      %c0 = arith.constant 0.5 : f32
      %c1 = arith.constant 1.0 : f32
      %k = arith.constant 0.7978845608 : f32
      %c3 = arith.constant 0.044715 : f32
      %x2 = arith.mulf %v, %v : f32
      %x3 = arith.mulf %x2, %v : f32
      %t0 = arith.mulf %c3, %x3 : f32
      %t1 = arith.addf %v, %t0 : f32
      %t2 = arith.mulf %k, %t1 : f32
      %th = math.tanh %t2 : f32
      %t3 = arith.addf %c1, %th : f32
      %t4 = arith.mulf %v, %t3 : f32
      %r = arith.mulf %c0, %t4 : f32
      %o = arith.truncf %r : f32 to bf16
      hkg.yield %o : bf16
    }
    return %0 : tensor<8192x8192xbf16>
  }
}
