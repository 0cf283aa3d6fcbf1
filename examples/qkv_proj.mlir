// Fused QKV projection with bias: 8192 tokens x 4096 -> 12288, one kernel.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @qkv(%x: tensor<8192x4096xbf16>, %w: tensor<12288x4096xbf16>,
                 %bias: tensor<12288xbf16>) -> tensor<8192x12288xbf16> {
    %0 = hkg.matmul %x, %w epilogue(%bias : tensor<12288xbf16>) {transpose_b}
        : tensor<8192x4096xbf16>, tensor<12288x4096xbf16> -> tensor<8192x12288xbf16> {
    ^bb0(%acc: f32, %b: bf16):
      %bf = arith.extf %b : bf16 to f32
      %s = arith.addf %acc, %bf : f32
      %r = arith.truncf %s : f32 to bf16
      hkg.yield %r : bf16
    }
    return %0 : tensor<8192x12288xbf16>
  }
}
