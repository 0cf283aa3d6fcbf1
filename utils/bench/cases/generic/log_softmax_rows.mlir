func.func @log_softmax_rows(%arg0: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %0 = hkg.softmax log %arg0 axis(1) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  return %0 : tensor<8192x8192xbf16>
}
