func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
