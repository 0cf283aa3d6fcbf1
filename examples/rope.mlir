// Rotary embedding (neox layout), B8 S4096 H32 D128 bf16, f32 cos/sin tables.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @rope(%x: tensor<8x4096x32x128xbf16>, %cos: tensor<4096x64xf32>,
                  %sin: tensor<4096x64xf32>) -> tensor<8x4096x32x128xbf16> {
    %0 = hkg.rope %x, %cos, %sin neox offset(0)
        : tensor<8x4096x32x128xbf16>, tensor<4096x64xf32>, tensor<4096x64xf32>
        -> tensor<8x4096x32x128xbf16>
    return %0 : tensor<8x4096x32x128xbf16>
  }
}
