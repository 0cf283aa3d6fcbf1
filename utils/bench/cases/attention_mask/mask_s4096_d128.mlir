// B4 H32 S4096 D128 bf16 with one additive mask [1, 1, S, S] for every batch and head (SDPA's attn_mask), non-causal.
func.func @attention(%q: tensor<4x32x4096x128xbf16>, %k: tensor<4x32x4096x128xbf16>, %v: tensor<4x32x4096x128xbf16>, %m: tensor<1x1x4096x4096xbf16>) -> tensor<4x32x4096x128xbf16> {
  %0 = hkg.attention %q, %k, %v mask(%m : tensor<1x1x4096x4096xbf16>)  : tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
  return %0 : tensor<4x32x4096x128xbf16>
}
