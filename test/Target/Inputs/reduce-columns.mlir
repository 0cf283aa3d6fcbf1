// Column reductions (ReductionsColumns.cpp) whose loops LLVM used to unroll
// in full: a sum over the middle axis, and a variance (two kinds and a
// prologue) over the same axis.
func.func @columns(%y: tensor<8x512x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %s = hkg.reduce sum %y axes = [1] : tensor<8x512x64xf32> -> tensor<8x64xf32>
  %v = hkg.reduce sum, sum %y axes = [1] : tensor<8x512x64xf32> -> tensor<8x64xf32>
    prologue {
    ^bb0(%x: f32):
      %sq = arith.mulf %x, %x : f32
      hkg.yield %x, %sq : f32, f32
    } epilogue {
    ^bb0(%a: f32, %b: f32):
      %n = arith.constant 512.0 : f32
      %m = arith.divf %a, %n : f32
      %m2 = arith.divf %b, %n : f32
      %mm = arith.mulf %m, %m : f32
      %r = arith.subf %m2, %mm : f32
      hkg.yield %r : f32
    }
  return %s, %v : tensor<8x64xf32>, tensor<8x64xf32>
}
