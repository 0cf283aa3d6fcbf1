// The decoder layer's gate projection with SiLU times the up projection (SwiGLU) in its epilogue, as raised from test/Inputs/torch/decoder_layer.mlir (bench.py case linear_silu_mul).
#map = affine_map<(d0, d1) -> (0, d0, d1)>
module {
  func.func @ref(%arg0: tensor<2048x4096xbf16>, %arg1: tensor<14336x4096xbf16>, %arg2: tensor<1x2048x14336xbf16>) -> tensor<2048x14336xbf16> {
    %0 = hkg.matmul %arg0, %arg1 epilogue(%arg2 : tensor<1x2048x14336xbf16>) {indexing_maps = [#map], transpose_b} : tensor<2048x4096xbf16>, tensor<14336x4096xbf16> -> tensor<2048x14336xbf16> {
    ^bb0(%arg3: f32, %arg4: bf16):
      %1 = arith.truncf %arg3 : f32 to bf16
      %cst = arith.constant 1.000000e+00 : f32
      %2 = arith.extf %1 : bf16 to f32
      %3 = arith.negf %2 : f32
      %4 = math.exp %3 : f32
      %5 = arith.addf %4, %cst : f32
      %6 = arith.divf %cst, %5 : f32
      %7 = arith.extf %1 : bf16 to f32
      %8 = arith.mulf %7, %6 : f32
      %9 = arith.truncf %8 : f32 to bf16
      %10 = arith.mulf %9, %arg4 : bf16
      hkg.yield %10 : bf16
    }
    return %0 : tensor<2048x14336xbf16>
  }
}
