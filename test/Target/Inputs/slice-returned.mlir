// A slice returned from the function: no view (the caller would get bytes
// that are not its tensor's), refused by hkg-compile
// (test/Target/hkg-compile-slice-views.mlir).
func.func @returned(%x: tensor<64x96xf32>) -> (tensor<64x96xf32>, tensor<64x32xf32>) {
  %s = hkg.softmax %x axis(1) : tensor<64x96xf32> -> tensor<64x96xf32>
  %h = tensor.extract_slice %s[0, 32] [64, 32] [1, 1] : tensor<64x96xf32> to tensor<64x32xf32>
  return %s, %h : tensor<64x96xf32>, tensor<64x32xf32>
}
