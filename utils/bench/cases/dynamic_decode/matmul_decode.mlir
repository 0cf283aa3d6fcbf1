// A decode projection with a static M = 8 and a dynamic M tuned for 8
// (hkg.size_hint), timed side by side at M = 8 (--sizes=8; docs/perf).
func.func @decode_static(%a: tensor<8x4096xbf16>, %w: tensor<11008x4096xbf16>) -> tensor<8x11008xbf16> {
  %0 = hkg.matmul %a, %w {transpose_b} : tensor<8x4096xbf16>, tensor<11008x4096xbf16> -> tensor<8x11008xbf16>
  return %0 : tensor<8x11008xbf16>
}
func.func @decode_dynamic(%a: tensor<?x4096xbf16>, %w: tensor<11008x4096xbf16>) -> tensor<?x11008xbf16> {
  %0 = hkg.matmul %a, %w {transpose_b, hkg.size_hint = 8 : i64} : tensor<?x4096xbf16>, tensor<11008x4096xbf16> -> tensor<?x11008xbf16>
  return %0 : tensor<?x11008xbf16>
}
