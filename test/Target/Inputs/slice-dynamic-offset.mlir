// A slice at a dynamic offset (test/Target/hkg-compile-slice-views-dynamic.mlir).
func.func @dyn(%x: tensor<64x64xf32>, %i: index) -> tensor<8x64xf32> {
  %h = tensor.extract_slice %x[%i, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
  %o = hkg.elementwise %h : tensor<8x64xf32> -> tensor<8x64xf32> {
  ^bb0(%a: f32):
    %y = arith.mulf %a, %a : f32
    hkg.yield %y : f32
  }
  return %o : tensor<8x64xf32>
}
