// bench.py case gemv.1x2048x1048576 (x @ W, W as [K, N]): the source of its schedule variants (utils/bench/schedule_variants.py; docs/perf, "Matrix-vector products").
module {
  func.func @gemv(%x: tensor<1x1048576xbf16>, %w: tensor<1048576x2048xbf16>) -> tensor<1x2048xbf16> {
    %0 = hkg.matmul %x, %w : tensor<1x1048576xbf16>, tensor<1048576x2048xbf16> -> tensor<1x2048xbf16>
    return %0 : tensor<1x2048xbf16>
  }
}
