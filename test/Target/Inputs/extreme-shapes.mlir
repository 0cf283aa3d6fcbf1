// One op per extreme shape of issue 24 (utils/extreme_shapes.py maps many
// more), each with the target's default schedule: M = N = K = 1, K = 1,
// matrix-vector, odd primes; 1-element and 1M-element rows; the smallest
// RoPE head and an odd one; top-k and top-p over 1..1M logits; attention
// decode (1 and 13 queries) over odd key lengths with GQA, and D = 1024.

func.func @matmul_mnk1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %0 = hkg.matmul %a, %b : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

func.func @matmul_k1(%a: tensor<4096x1xbf16>, %b: tensor<1x4096xbf16>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<4096x1xbf16>, tensor<1x4096xbf16> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}

func.func @matmul_n1(%a: tensor<4096x4096xbf16>, %b: tensor<4096x1xbf16>) -> tensor<4096x1xbf16> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xbf16>, tensor<4096x1xbf16> -> tensor<4096x1xbf16>
  return %0 : tensor<4096x1xbf16>
}

func.func @matmul_primes(%a: tensor<4099x7xf16>, %b: tensor<13x7xf16>) -> tensor<4099x13xf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4099x7xf16>, tensor<13x7xf16> -> tensor<4099x13xf16>
  return %0 : tensor<4099x13xf16>
}

func.func @softmax_1x1(%x: tensor<1x1xbf16>) -> tensor<1x1xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<1x1xbf16> -> tensor<1x1xbf16>
  return %0 : tensor<1x1xbf16>
}

func.func @softmax_1m(%x: tensor<2x1048579xf32>) -> tensor<2x1048579xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<2x1048579xf32> -> tensor<2x1048579xf32>
  return %0 : tensor<2x1048579xf32>
}

func.func @layernorm_prime(%x: tensor<7x4099xbf16>, %w: tensor<4099xbf16>) -> tensor<7x4099xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<4099xbf16>) bias(%w : tensor<4099xbf16>) eps(1.0e-05) : tensor<7x4099xbf16> -> tensor<7x4099xbf16>
  return %0 : tensor<7x4099xbf16>
}

func.func @rmsnorm_batch1(%x: tensor<1x65536xbf16>, %w: tensor<65536xbf16>) -> tensor<1x65536xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<65536xbf16>) eps(1.0e-06) : tensor<1x65536xbf16> -> tensor<1x65536xbf16>
  return %0 : tensor<1x65536xbf16>
}

func.func @reduce_1m(%x: tensor<1x1048576xf32>) -> tensor<1xf32> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<1x1048576xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

func.func @rope_d2(%x: tensor<1x1x1x2xbf16>, %c: tensor<1x1xf32>) -> tensor<1x1x1x2xbf16> {
  %0 = hkg.rope %x, %c, %c gptj offset(0) : tensor<1x1x1x2xbf16>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1x1x2xbf16>
  return %0 : tensor<1x1x1x2xbf16>
}

func.func @rope_odd(%x: tensor<1x4099x7x126xbf16>, %c: tensor<4099x63xf32>) -> tensor<1x4099x7x126xbf16> {
  %0 = hkg.rope %x, %c, %c neox offset(0) : tensor<1x4099x7x126xbf16>, tensor<4099x63xf32>, tensor<4099x63xf32> -> tensor<1x4099x7x126xbf16>
  return %0 : tensor<1x4099x7x126xbf16>
}

func.func @topk_1m(%x: tensor<1x1048576xf32>) -> (tensor<1x1xf32>, tensor<1x1xi32>) {
  %v, %i = hkg.topk %x k(1) axis(1) : tensor<1x1048576xf32> -> tensor<1x1xf32>, tensor<1x1xi32>
  return %v, %i : tensor<1x1xf32>, tensor<1x1xi32>
}

func.func @topk_all7(%x: tensor<1x7xbf16>) -> (tensor<1x7xbf16>, tensor<1x7xi32>) {
  %v, %i = hkg.topk %x k(7) axis(1) : tensor<1x7xbf16> -> tensor<1x7xbf16>, tensor<1x7xi32>
  return %v, %i : tensor<1x7xbf16>, tensor<1x7xi32>
}

func.func @top_p_1(%x: tensor<1x1xf32>) -> tensor<1xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(7) : tensor<1x1xf32> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

func.func @top_p_1m(%x: tensor<1x1048576xbf16>) -> tensor<1xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(7) : tensor<1x1048576xbf16> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

func.func @attention_decode(%q: tensor<1x32x1x128xbf16>, %k: tensor<1x8x4099x128xbf16>) -> tensor<1x32x1x128xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<1x32x1x128xbf16>, tensor<1x8x4099x128xbf16>, tensor<1x8x4099x128xbf16> -> tensor<1x32x1x128xbf16>
  return %0 : tensor<1x32x1x128xbf16>
}

func.func @attention_q13_causal(%q: tensor<2x4x13x64xf32>) -> tensor<2x4x13x64xf32> {
  %0 = hkg.attention %q, %q, %q causal : tensor<2x4x13x64xf32>, tensor<2x4x13x64xf32>, tensor<2x4x13x64xf32> -> tensor<2x4x13x64xf32>
  return %0 : tensor<2x4x13x64xf32>
}

func.func @attention_d1024(%q: tensor<1x8x1x1024xbf16>, %k: tensor<1x2x515x1024xbf16>) -> tensor<1x8x1x1024xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<1x8x1x1024xbf16>, tensor<1x2x515x1024xbf16>, tensor<1x2x515x1024xbf16> -> tensor<1x8x1x1024xbf16>
  return %0 : tensor<1x8x1x1024xbf16>
}
