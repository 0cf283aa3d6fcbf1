func.func @sum_mid(%arg0: tensor<16x4096x2048xbf16>) -> tensor<16x2048xbf16> {
  %0 = hkg.reduce sum %arg0 axes = [1] : tensor<16x4096x2048xbf16> -> tensor<16x2048xbf16>
  return %0 : tensor<16x2048xbf16>
}
