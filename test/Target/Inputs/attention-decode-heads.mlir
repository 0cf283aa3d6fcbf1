// Decode steps (1 query, 32 query heads over 8 key/value heads, 8192 keys)
// at head dims 128 and 256, bf16: NVVM/attention-decode-registers.test.
func.func @decode_d128(%q: tensor<32x32x1x128xbf16>, %k: tensor<32x8x8192x128xbf16>) -> tensor<32x32x1x128xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<32x32x1x128xbf16>, tensor<32x8x8192x128xbf16>, tensor<32x8x8192x128xbf16> -> tensor<32x32x1x128xbf16>
  return %0 : tensor<32x32x1x128xbf16>
}
func.func @decode_d256(%q: tensor<32x32x1x256xbf16>, %k: tensor<32x8x8192x256xbf16>) -> tensor<32x32x1x256xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<32x32x1x256xbf16>, tensor<32x8x8192x256xbf16>, tensor<32x8x8192x256xbf16> -> tensor<32x32x1x256xbf16>
  return %0 : tensor<32x32x1x256xbf16>
}
