func.func @argmax_cols(%arg0: tensor<8192x16384xbf16>) -> tensor<16384xi64> {
  %0 = hkg.reduce argmax %arg0 axes = [0] : tensor<8192x16384xbf16> -> tensor<16384xi64>
  return %0 : tensor<16384xi64>
}
