// A small softmax for the device-measurer tests (fake-tune-compile.sh).
module {
  func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = hkg.softmax %x axis(1) : tensor<4x16xf32> -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}
