// Top-p (nucleus) sampling, p = 0.9, over a Llama-3 vocabulary (128256).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @top_p(%logits: tensor<64x128256xf32>) -> tensor<64xi32> {
    %0 = hkg.top_p_sample %logits p(0.9) temperature(1.0) seed(1234)
        : tensor<64x128256xf32> -> tensor<64xi32>
    return %0 : tensor<64xi32>
  }
}
