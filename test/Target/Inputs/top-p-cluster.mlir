// top-p with ctas_per_row = 2: a cluster of two workgroups per row (sm_90).
module {
  func.func @top_p(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
    %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 2>} : tensor<64x128256xf32> -> tensor<64xi32>
    return %0 : tensor<64xi32>
  }
  func.func @top_p_one(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
    %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 1>} : tensor<64x128256xf32> -> tensor<64xi32>
    return %0 : tensor<64xi32>
  }
}
