// Issue 28's decode step: batch 32, 32 query heads over 8 key/value heads
// (GQA 4), one query token over a KV cache of 8192, D 128, bf16, bhsd.
// K and V are 2 x 32 x 8 x 8192 x 128 x 2 bytes = 1 GiB: the KV-read floor
// is 1 GiB at the copy rate (252.6 us at 4.25 TB/s). Non-causal: with one
// query at the end of the sequence, causal (bottom-right) sees every key
// too. utils/bench/attention_bench.py reads the shape from the bundle.
func.func @attention(%q: tensor<32x32x1x128xbf16>, %k: tensor<32x8x8192x128xbf16>,
                     %v: tensor<32x8x8192x128xbf16>) -> tensor<32x32x1x128xbf16> {
  %0 = hkg.attention %q, %k, %v : tensor<32x32x1x128xbf16>, tensor<32x8x8192x128xbf16>, tensor<32x8x8192x128xbf16> -> tensor<32x32x1x128xbf16>
  return %0 : tensor<32x32x1x128xbf16>
}
