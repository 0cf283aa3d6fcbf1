func.func @log_softmax_mid(%arg0: tensor<8x2048x4096xbf16>) -> tensor<8x2048x4096xbf16> {
  %0 = hkg.softmax log %arg0 axis(1) : tensor<8x2048x4096xbf16> -> tensor<8x2048x4096xbf16>
  return %0 : tensor<8x2048x4096xbf16>
}
