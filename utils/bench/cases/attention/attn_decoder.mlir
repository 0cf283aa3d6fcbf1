// The decoder layer's attention (test/Inputs/torch/decoder_layer.mlir as hkg-compile raises it: 1x2048, 32 query / 8 KV heads, D 128, causal, bshd), for schedule variants timed by hkg-run (docs/perf, "Whole programs from PyTorch").
func.func @attn_decoder(%q: tensor<1x2048x32x128xbf16>, %k: tensor<1x2048x8x128xbf16>, %v: tensor<1x2048x8x128xbf16>) -> tensor<1x2048x32x128xbf16> {
  %0 = hkg.attention %q, %k, %v causal scale(0.0883883387) layout(bshd) : tensor<1x2048x32x128xbf16>, tensor<1x2048x8x128xbf16>, tensor<1x2048x8x128xbf16> -> tensor<1x2048x32x128xbf16>
  return %0 : tensor<1x2048x32x128xbf16>
}
