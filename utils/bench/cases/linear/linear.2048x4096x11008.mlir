// A linear layer's GEMM of the decoder layer or the MLP, x @ W^T with W as [N, K] (bench.py case linear).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @lin(%x: tensor<2048x11008xbf16>, %w: tensor<4096x11008xbf16>) -> tensor<2048x4096xbf16> {
    %0 = hkg.matmul %x, %w {transpose_b} : tensor<2048x11008xbf16>, tensor<4096x11008xbf16> -> tensor<2048x4096xbf16>
    return %0 : tensor<2048x4096xbf16>
  }
}
