// B4 H32 S4096 D128 bf16, causal and a mask [1, 1, S, S] (SDPA takes both folded into one mask).
func.func @attention(%q: tensor<4x32x4096x128xbf16>, %k: tensor<4x32x4096x128xbf16>, %v: tensor<4x32x4096x128xbf16>, %m: tensor<1x1x4096x4096xbf16>) -> tensor<4x32x4096x128xbf16> {
  %0 = hkg.attention %q, %k, %v mask(%m : tensor<1x1x4096x4096xbf16>) causal : tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
  return %0 : tensor<4x32x4096x128xbf16>
}
