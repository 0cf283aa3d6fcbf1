// B4 H32 S4096 D128 bf16 with a key-padding mask [B, 1, 1, S], non-causal.
func.func @attention(%q: tensor<4x32x4096x128xbf16>, %k: tensor<4x32x4096x128xbf16>, %v: tensor<4x32x4096x128xbf16>, %m: tensor<4x1x1x4096xbf16>) -> tensor<4x32x4096x128xbf16> {
  %0 = hkg.attention %q, %k, %v mask(%m : tensor<4x1x1x4096xbf16>)  : tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
  return %0 : tensor<4x32x4096x128xbf16>
}
