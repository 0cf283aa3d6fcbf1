// bench.py case gemv.4x4096x16384 (x @ W, W as [K, N]): the source of its schedule variants (utils/bench/schedule_variants.py; docs/perf, "Matrix-vector products").
module {
  func.func @gemv(%x: tensor<4x16384xbf16>, %w: tensor<16384x4096xbf16>) -> tensor<4x4096xbf16> {
    %0 = hkg.matmul %x, %w : tensor<4x16384xbf16>, tensor<16384x4096xbf16> -> tensor<4x4096xbf16>
    return %0 : tensor<4x4096xbf16>
  }
}
