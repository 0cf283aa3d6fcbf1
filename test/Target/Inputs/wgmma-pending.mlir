// The GEMM of wgmma.mlir with wgmma_pending = 1 (each K step's warpgroup
// MMAs left in flight during the next step), for wgmma-pending.test.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @linear(%x: tensor<512x1024xbf16>, %w: tensor<768x1024xbf16>, %b: tensor<768xbf16>) -> tensor<512x768xbf16> {
    %0 = hkg.matmul %x, %w epilogue(%b : tensor<768xbf16>) {transpose_b, schedule = #hkg.schedule<wgmma_pending = 1>}
        : tensor<512x1024xbf16>, tensor<768x1024xbf16> -> tensor<512x768xbf16> {
    ^bb0(%acc: f32, %c: bf16):
      %cf = arith.extf %c : bf16 to f32
      %s = arith.addf %acc, %cf : f32
      %r = arith.truncf %s : f32 to bf16
      hkg.yield %r : bf16
    }
    return %0 : tensor<512x768xbf16>
  }
}
