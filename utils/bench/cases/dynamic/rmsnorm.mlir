// The same op with a static and a dynamic row (token) dim, one bundle:
// timed side by side at 4096 rows (RUNNER=hkg-run, --sizes=4096; docs/perf).
func.func @rmsnorm_static(%x: tensor<4096x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<4096x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<4096x8192xbf16> -> tensor<4096x8192xbf16>
  return %0 : tensor<4096x8192xbf16>
}
func.func @rmsnorm_dynamic(%x: tensor<?x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<?x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<?x8192xbf16> -> tensor<?x8192xbf16>
  return %0 : tensor<?x8192xbf16>
}
