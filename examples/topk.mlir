// Top-k of a batch of logits (top-k sampling's candidates, MoE gating):
// the 50 largest of each row of 128256 and their token ids.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @topk(%logits: tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi32>) {
    %v, %i = hkg.topk %logits k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi32>
    return %v, %i : tensor<64x50xf32>, tensor<64x50xi32>
  }
}
