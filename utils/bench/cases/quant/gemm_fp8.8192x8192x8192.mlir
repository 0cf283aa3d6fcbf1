// FP8 GEMM 8192^3 (issue 30): e4m3 x e4m3 with B as [N, K] (transpose_b,
// torch._scaled_mm's layout), per-tensor scales of A and B applied in the
// epilogue, bf16 out: the default schedule (sm_90: wgmma_64x256x32, 128 x 256
// tiles, 4 stages, wgmma_pending = 1; docs/Matmul.md, "8-bit operands").
// bench.py's gemm_fp8: torch._scaled_mm(a, b.t(), scale_a, scale_b, out_dtype=bf16).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm_fp8(%a: tensor<8192x8192xf8E4M3FN>, %b: tensor<8192x8192xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<8192x8192xbf16> {
    %0 = hkg.matmul %a, %b epilogue(%sa, %sb : tensor<f32>, tensor<f32>) {transpose_b}
        : tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN> -> tensor<8192x8192xbf16> {
    ^bb0(%acc: f32, %x: f32, %w: f32):
      %s = arith.mulf %x, %w : f32
      %v = arith.mulf %acc, %s : f32
      %r = arith.truncf %v : f32 to bf16
      hkg.yield %r : bf16
    }
    return %0 : tensor<8192x8192xbf16>
  }
}
