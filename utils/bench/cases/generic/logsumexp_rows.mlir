func.func @logsumexp_rows(%arg0: tensor<8192x32000xbf16>) -> tensor<8192xf32> {
  %0 = hkg.reduce logsumexp %arg0 axes = [1] : tensor<8192x32000xbf16> -> tensor<8192xf32>
  return %0 : tensor<8192xf32>
}
