func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = hkg.softmax %x axis(1) : tensor<4x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
