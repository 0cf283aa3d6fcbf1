// One of every hkg kernel op, without schedules, for the per-target
// hkg-default-schedule tests (default-schedule-<chip>.mlir).

func.func @matmul_bf16(%a: tensor<512x256xbf16>, %b: tensor<256x512xbf16>) -> tensor<512x512xbf16> {
  %0 = hkg.matmul %a, %b : tensor<512x256xbf16>, tensor<256x512xbf16> -> tensor<512x512xbf16>
  return %0 : tensor<512x512xbf16>
}

func.func @matmul_f32(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %0 = hkg.matmul %a, %b : tensor<128x64xf32>, tensor<64x128xf32> -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}

func.func @matmul_decode(%a: tensor<16x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<16x4096xf16> {
  %0 = hkg.matmul %a, %b : tensor<16x4096xf16>, tensor<4096x4096xf16> -> tensor<16x4096xf16>
  return %0 : tensor<16x4096xf16>
}

func.func @elementwise(%x: tensor<64x1024xbf16>, %b: tensor<1024xbf16>) -> tensor<64x1024xbf16> {
  %0 = hkg.elementwise %x, %b : tensor<64x1024xbf16>, tensor<1024xbf16> -> tensor<64x1024xbf16> {
  ^bb0(%a: bf16, %c: bf16):
    %s = arith.addf %a, %c : bf16
    hkg.yield %s : bf16
  }
  return %0 : tensor<64x1024xbf16>
}

func.func @reduce(%x: tensor<64x4096xf32>) -> tensor<64xf32> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @softmax(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}

func.func @softmax_short_rows(%x: tensor<4096x64xf32>) -> tensor<4096x64xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<4096x64xf32> -> tensor<4096x64xf32>
  return %0 : tensor<4096x64xf32>
}

func.func @layernorm(%x: tensor<128x4096xf16>, %w: tensor<4096xf16>, %b: tensor<4096xf16>) -> tensor<128x4096xf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<4096xf16>) bias(%b : tensor<4096xf16>) eps(1.0e-05) : tensor<128x4096xf16> -> tensor<128x4096xf16>
  return %0 : tensor<128x4096xf16>
}

func.func @rmsnorm(%x: tensor<8x131072xf32>, %w: tensor<131072xf32>) -> tensor<8x131072xf32> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<131072xf32>) eps(1.0e-06) : tensor<8x131072xf32> -> tensor<8x131072xf32>
  return %0 : tensor<8x131072xf32>
}

func.func @rope(%x: tensor<2x128x32x128xbf16>, %c: tensor<128x64xf32>, %s: tensor<128x64xf32>) -> tensor<2x128x32x128xbf16> {
  %0 = hkg.rope %x, %c, %s neox offset(0) : tensor<2x128x32x128xbf16>, tensor<128x64xf32>, tensor<128x64xf32> -> tensor<2x128x32x128xbf16>
  return %0 : tensor<2x128x32x128xbf16>
}

func.func @top_p(%l: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}

func.func @attention_bf16(%q: tensor<1x8x256x64xbf16>, %k: tensor<1x8x256x64xbf16>, %v: tensor<1x8x256x64xbf16>) -> tensor<1x8x256x64xbf16> {
  %0 = hkg.attention %q, %k, %v causal : tensor<1x8x256x64xbf16>, tensor<1x8x256x64xbf16>, tensor<1x8x256x64xbf16> -> tensor<1x8x256x64xbf16>
  return %0 : tensor<1x8x256x64xbf16>
}

func.func @attention_f32(%q: tensor<1x2x64x32xf32>, %k: tensor<1x2x64x32xf32>, %v: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
  %0 = hkg.attention %q, %k, %v : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf32>
  return %0 : tensor<1x2x64x32xf32>
}

// Shapes whose defaults depend on the wave size: tiny rows, a small rope
// head, a small vocabulary, an f32 decode GEMM (no matrix cores).
func.func @softmax_tiny_rows(%x: tensor<1024x8xf32>) -> tensor<1024x8xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<1024x8xf32> -> tensor<1024x8xf32>
  return %0 : tensor<1024x8xf32>
}

func.func @rope_small_head(%x: tensor<1x16x1x64xbf16>, %c: tensor<16x32xbf16>, %s: tensor<16x32xbf16>) -> tensor<1x16x1x64xbf16> {
  %0 = hkg.rope %x, %c, %s gptj offset(0) : tensor<1x16x1x64xbf16>, tensor<16x32xbf16>, tensor<16x32xbf16> -> tensor<1x16x1x64xbf16>
  return %0 : tensor<1x16x1x64xbf16>
}

func.func @top_p_small_vocab(%l: tensor<4x64xf32>) -> tensor<4xi32> {
  %0 = hkg.top_p_sample %l p(0.5) temperature(1.0) seed(7) : tensor<4x64xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @matmul_decode_f32(%a: tensor<8x256xf32>, %b: tensor<256x256xf32>) -> tensor<8x256xf32> {
  %0 = hkg.matmul %a, %b : tensor<8x256xf32>, tensor<256x256xf32> -> tensor<8x256xf32>
  return %0 : tensor<8x256xf32>
}

// Head dim 128 in bf16: double-buffered K/V tiles need 80 KiB of LDS, more
// than the 64 KiB chips have.
func.func @attention_d128(%q: tensor<1x8x512x128xbf16>, %k: tensor<1x8x512x128xbf16>, %v: tensor<1x8x512x128xbf16>) -> tensor<1x8x512x128xbf16> {
  %0 = hkg.attention %q, %k, %v causal : tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16> -> tensor<1x8x512x128xbf16>
  return %0 : tensor<1x8x512x128xbf16>
}
