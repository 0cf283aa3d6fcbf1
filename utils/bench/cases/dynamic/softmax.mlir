// The same op with a static and a dynamic row (token) dim, one bundle:
// timed side by side at 4096 rows (RUNNER=hkg-run, --sizes=4096; docs/perf).
func.func @softmax_static(%x: tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<4096x8192xbf16> -> tensor<4096x8192xbf16>
  return %0 : tensor<4096x8192xbf16>
}
func.func @softmax_dynamic(%x: tensor<?x8192xbf16>) -> tensor<?x8192xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<?x8192xbf16> -> tensor<?x8192xbf16>
  return %0 : tensor<?x8192xbf16>
}
