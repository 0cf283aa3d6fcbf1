// Decode (B32, 32 query / 8 KV heads, KV 8192, D128 bf16) with a key-padding mask [B, 1, 1, Skv].
func.func @attention(%q: tensor<32x32x1x128xbf16>, %k: tensor<32x8x8192x128xbf16>, %v: tensor<32x8x8192x128xbf16>, %m: tensor<32x1x1x8192xbf16>) -> tensor<32x32x1x128xbf16> {
  %0 = hkg.attention %q, %k, %v mask(%m : tensor<32x1x1x8192xbf16>)  : tensor<32x32x1x128xbf16>, tensor<32x8x8192x128xbf16>, tensor<32x8x8192x128xbf16> -> tensor<32x32x1x128xbf16>
  return %0 : tensor<32x32x1x128xbf16>
}
