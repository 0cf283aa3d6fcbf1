// GEMM + bias + exact GELU at the fused QKV projection's shape (issue 29's fused-epilogue bar; bench.py case linear_gelu).
module {
  func.func @ref(%arg0: tensor<8192x4096xbf16>, %arg1: tensor<12288x4096xbf16>, %arg2: tensor<12288xbf16>) -> tensor<8192x12288xbf16> {
    %0 = hkg.matmul %arg0, %arg1 epilogue(%arg2 : tensor<12288xbf16>) {transpose_b} : tensor<8192x4096xbf16>, tensor<12288x4096xbf16> -> tensor<8192x12288xbf16> {
    ^bb0(%arg3: f32, %arg4: bf16):
      %cst = arith.constant 2.000000e+00 : bf16
      %cst_0 = arith.constant 1.000000e+00 : bf16
      %cst_1 = arith.constant 5.000000e-01 : bf16
      %1 = arith.extf %arg4 : bf16 to f32
      %2 = arith.addf %arg3, %1 : f32
      %3 = arith.truncf %2 : f32 to bf16
      %4 = math.sqrt %cst : bf16
      %5 = arith.divf %3, %4 : bf16
      %6 = math.erf %5 : bf16
      %7 = arith.addf %6, %cst_0 : bf16
      %8 = arith.mulf %7, %cst_1 : bf16
      %9 = arith.mulf %3, %8 : bf16
      hkg.yield %9 : bf16
    }
    return %0 : tensor<8192x12288xbf16>
  }
}
