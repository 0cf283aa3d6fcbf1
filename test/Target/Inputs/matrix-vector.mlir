// Matrix-vector products (issue 24): M = 1 with the weights as [K, N], and
// N = 16 with the weights as A [M, K]; the default schedules split K over
// workgroups that meet in a global workspace.
func.func @gemv_m1(%x: tensor<1x65536xbf16>, %w: tensor<65536x2048xbf16>) -> tensor<1x2048xbf16> {
  %0 = hkg.matmul %x, %w : tensor<1x65536xbf16>, tensor<65536x2048xbf16> -> tensor<1x2048xbf16>
  return %0 : tensor<1x2048xbf16>
}

func.func @gemv_n16(%a: tensor<4096x65536xbf16>, %x: tensor<65536x16xbf16>) -> tensor<4096x16xbf16> {
  %0 = hkg.matmul %a, %x : tensor<4096x65536xbf16>, tensor<65536x16xbf16> -> tensor<4096x16xbf16>
  return %0 : tensor<4096x16xbf16>
}
