func.func @layernorm_inner(%arg0: tensor<16x4096x2048xbf16>, %arg1: tensor<4096xbf16>, %arg2: tensor<4096xbf16>) -> tensor<16x4096x2048xbf16> {
  %0 = hkg.layernorm %arg0 axes = [1] weight(%arg1 : tensor<4096xbf16>) bias(%arg2 : tensor<4096xbf16>) eps(1.0e-05) : tensor<16x4096x2048xbf16> -> tensor<16x4096x2048xbf16>
  return %0 : tensor<16x4096x2048xbf16>
}
