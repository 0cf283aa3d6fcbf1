// Causal attention, B4 H32 S4096 D128 bf16 (PERF.md anchor shape).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @attention(%q: tensor<4x32x4096x128xbf16>, %k: tensor<4x32x4096x128xbf16>,
                       %v: tensor<4x32x4096x128xbf16>) -> tensor<4x32x4096x128xbf16> {
    %0 = hkg.attention %q, %k, %v causal
        : tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16>,
          tensor<4x32x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
    return %0 : tensor<4x32x4096x128xbf16>
  }
}
