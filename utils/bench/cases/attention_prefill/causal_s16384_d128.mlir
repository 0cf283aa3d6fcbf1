// Issue 28's prefill shape: B4 H32 S16384 D128 bf16, causal (cuDNN SDPA
// measured 568 TFLOP/s on the H200); sm_90's default is warpgroup MMA.
func.func @attention(%q: tensor<4x32x16384x128xbf16>, %k: tensor<4x32x16384x128xbf16>, %v: tensor<4x32x16384x128xbf16>) -> tensor<4x32x16384x128xbf16> {
  %0 = hkg.attention %q, %k, %v causal : tensor<4x32x16384x128xbf16>, tensor<4x32x16384x128xbf16>, tensor<4x32x16384x128xbf16> -> tensor<4x32x16384x128xbf16>
  return %0 : tensor<4x32x16384x128xbf16>
}
