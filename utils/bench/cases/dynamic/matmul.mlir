// The same op with a static and a dynamic row (token) dim, one bundle:
// timed side by side at 4096 rows (RUNNER=hkg-run, --sizes=4096; docs/perf).
func.func @matmul_static(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}
func.func @matmul_dynamic(%a: tensor<?x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<?x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<?x4096xbf16>, tensor<4096x4096xbf16> -> tensor<?x4096xbf16>
  return %0 : tensor<?x4096xbf16>
}
