// Every non-matmul hkg op with its default and 3 non-default schedules that are
// legal on all 8 targets (picked once by verifying against each chip).

func.func @elementwise_default(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.elementwise %arg0, %arg1 : tensor<64x1000xbf16>, tensor<1000xbf16> -> tensor<64x1000xbf16> {
    ^bb0(%a: bf16, %b: bf16):
      %s = arith.addf %a, %b : bf16
      hkg.yield %s : bf16
    }
  return %0 : tensor<64x1000xbf16>
}

func.func @elementwise_s0(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.elementwise %arg0, %arg1 {schedule = #hkg.schedule<threads = 512, unroll = 1, vector_width = 8>} : tensor<64x1000xbf16>, tensor<1000xbf16> -> tensor<64x1000xbf16> {
    ^bb0(%a: bf16, %b: bf16):
      %s = arith.addf %a, %b : bf16
      hkg.yield %s : bf16
    }
  return %0 : tensor<64x1000xbf16>
}

func.func @elementwise_s1(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.elementwise %arg0, %arg1 {schedule = #hkg.schedule<threads = 512, unroll = 8, vector_width = 2>} : tensor<64x1000xbf16>, tensor<1000xbf16> -> tensor<64x1000xbf16> {
    ^bb0(%a: bf16, %b: bf16):
      %s = arith.addf %a, %b : bf16
      hkg.yield %s : bf16
    }
  return %0 : tensor<64x1000xbf16>
}

func.func @elementwise_s2(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.elementwise %arg0, %arg1 {schedule = #hkg.schedule<threads = 512, unroll = 2, vector_width = 8>} : tensor<64x1000xbf16>, tensor<1000xbf16> -> tensor<64x1000xbf16> {
    ^bb0(%a: bf16, %b: bf16):
      %s = arith.addf %a, %b : bf16
      hkg.yield %s : bf16
    }
  return %0 : tensor<64x1000xbf16>
}

func.func @reduce_default(%arg0: tensor<64x1000xf32>) -> tensor<64xf32> {
  %0 = hkg.reduce max %arg0 axes = [1] : tensor<64x1000xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @reduce_s0(%arg0: tensor<64x1000xf32>) -> tensor<64xf32> {
  %0 = hkg.reduce max %arg0 axes = [1] {schedule = #hkg.schedule<rows_per_block = 4, threads = 128, unroll = 1, vector_width = 4>} : tensor<64x1000xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @reduce_s1(%arg0: tensor<64x1000xf32>) -> tensor<64xf32> {
  %0 = hkg.reduce max %arg0 axes = [1] {schedule = #hkg.schedule<rows_per_block = 2, threads = 256, unroll = 1, vector_width = 2>} : tensor<64x1000xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @reduce_s2(%arg0: tensor<64x1000xf32>) -> tensor<64xf32> {
  %0 = hkg.reduce max %arg0 axes = [1] {schedule = #hkg.schedule<rows_per_block = 2, threads = 128, unroll = 1, vector_width = 4>} : tensor<64x1000xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @softmax_default(%arg0: tensor<64x1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.softmax %arg0 axis(1) : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @softmax_s0(%arg0: tensor<64x1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.softmax %arg0 axis(1) {schedule = #hkg.schedule<online = 1, row_cache = lds, rows_per_block = 1, threads = 128, unroll = 2, vector_width = 4>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @softmax_s1(%arg0: tensor<64x1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.softmax %arg0 axis(1) {schedule = #hkg.schedule<online = 1, row_cache = lds, rows_per_block = 1, threads = 128, unroll = 2, vector_width = 2>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @softmax_s2(%arg0: tensor<64x1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.softmax %arg0 axis(1) {schedule = #hkg.schedule<online = 0, row_cache = lds, rows_per_block = 2, threads = 64, unroll = 4, vector_width = 4>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @layernorm_default(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>, %arg2: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.layernorm %arg0 weight(%arg1 : tensor<1000xbf16>) bias(%arg2 : tensor<1000xbf16>) eps(1.0e-05) : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @layernorm_s0(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>, %arg2: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.layernorm %arg0 weight(%arg1 : tensor<1000xbf16>) bias(%arg2 : tensor<1000xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<row_cache = none, rows_per_block = 2, threads = 256, unroll = 2, vector_width = 2>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @layernorm_s1(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>, %arg2: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.layernorm %arg0 weight(%arg1 : tensor<1000xbf16>) bias(%arg2 : tensor<1000xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<row_cache = registers, rows_per_block = 1, threads = 64, unroll = 4, vector_width = 4>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @layernorm_s2(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>, %arg2: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.layernorm %arg0 weight(%arg1 : tensor<1000xbf16>) bias(%arg2 : tensor<1000xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<row_cache = lds, rows_per_block = 1, threads = 256, unroll = 1, vector_width = 4>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @rmsnorm_default(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.rmsnorm %arg0 weight(%arg1 : tensor<1000xbf16>) eps(1.0e-06) : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @rmsnorm_s0(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.rmsnorm %arg0 weight(%arg1 : tensor<1000xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<row_cache = registers, rows_per_block = 1, threads = 128, unroll = 2, vector_width = 8>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @rmsnorm_s1(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.rmsnorm %arg0 weight(%arg1 : tensor<1000xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<row_cache = registers, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 8>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @rmsnorm_s2(%arg0: tensor<64x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<64x1000xbf16> {
  %0 = hkg.rmsnorm %arg0 weight(%arg1 : tensor<1000xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<row_cache = none, rows_per_block = 2, threads = 128, unroll = 1, vector_width = 2>} : tensor<64x1000xbf16> -> tensor<64x1000xbf16>
  return %0 : tensor<64x1000xbf16>
}

func.func @rope_default(%arg0: tensor<2x16x4x64xf16>, %arg1: tensor<16x32xf32>, %arg2: tensor<16x32xf32>) -> tensor<2x16x4x64xf16> {
  %0 = hkg.rope %arg0, %arg1, %arg2 gptj offset(0) : tensor<2x16x4x64xf16>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<2x16x4x64xf16>
  return %0 : tensor<2x16x4x64xf16>
}

func.func @rope_s0(%arg0: tensor<2x16x4x64xf16>, %arg1: tensor<16x32xf32>, %arg2: tensor<16x32xf32>) -> tensor<2x16x4x64xf16> {
  %0 = hkg.rope %arg0, %arg1, %arg2 gptj offset(0) {schedule = #hkg.schedule<threads = 64, tokens_per_block = 1, vector_width = 2>} : tensor<2x16x4x64xf16>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<2x16x4x64xf16>
  return %0 : tensor<2x16x4x64xf16>
}

func.func @rope_s1(%arg0: tensor<2x16x4x64xf16>, %arg1: tensor<16x32xf32>, %arg2: tensor<16x32xf32>) -> tensor<2x16x4x64xf16> {
  %0 = hkg.rope %arg0, %arg1, %arg2 gptj offset(0) {schedule = #hkg.schedule<threads = 256, tokens_per_block = 1, vector_width = 8>} : tensor<2x16x4x64xf16>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<2x16x4x64xf16>
  return %0 : tensor<2x16x4x64xf16>
}

func.func @rope_s2(%arg0: tensor<2x16x4x64xf16>, %arg1: tensor<16x32xf32>, %arg2: tensor<16x32xf32>) -> tensor<2x16x4x64xf16> {
  %0 = hkg.rope %arg0, %arg1, %arg2 gptj offset(0) {schedule = #hkg.schedule<threads = 128, tokens_per_block = 2, vector_width = 4>} : tensor<2x16x4x64xf16>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<2x16x4x64xf16>
  return %0 : tensor<2x16x4x64xf16>
}

func.func @top_p_default(%arg0: tensor<64x1000xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %arg0 p(0.9) temperature(1.0) seed(3) : tensor<64x1000xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}

func.func @top_p_s0(%arg0: tensor<64x1000xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %arg0 p(0.9) temperature(1.0) seed(3) {schedule = #hkg.schedule<bins = 2048, threads = 1024, vector_width = 1>} : tensor<64x1000xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}

func.func @top_p_s1(%arg0: tensor<64x1000xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %arg0 p(0.9) temperature(1.0) seed(3) {schedule = #hkg.schedule<bins = 256, threads = 64, vector_width = 4>} : tensor<64x1000xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}

func.func @top_p_s2(%arg0: tensor<64x1000xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %arg0 p(0.9) temperature(1.0) seed(3) {schedule = #hkg.schedule<bins = 1024, threads = 64, vector_width = 1>} : tensor<64x1000xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
