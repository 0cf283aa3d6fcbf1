func.func @argmax_rows(%arg0: tensor<8192x32000xbf16>) -> tensor<8192xi64> {
  %0 = hkg.reduce argmax %arg0 axes = [1] : tensor<8192x32000xbf16> -> tensor<8192xi64>
  return %0 : tensor<8192xi64>
}
