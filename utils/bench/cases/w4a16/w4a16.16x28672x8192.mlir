// W4A16 (issue 30): [16, 8192] bf16 activations times a [28672, 8192] weight of
// int4 packed two per byte along K (112 MiB), groups of 128 along K with bf16
// scales and i8 zero points (docs/ABI.md, "Packed int4 weights"); the
// default schedule (the mma.sync matrix-core kernel with split K,
// docs/Matmul.md "W4A16").
// bench.py's w4a16: beside the bf16 cuBLAS GEMM x @ W^T on the weights
// dequantized once.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @w4a16(%x: tensor<16x8192xbf16>, %w: tensor<28672x4096xi8>, %s: tensor<28672x64xbf16>, %z: tensor<28672x64xi8>) -> tensor<16x28672xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128)
        : tensor<16x8192xbf16>, tensor<28672x4096xi8>, tensor<28672x64xbf16>, tensor<28672x64xi8> -> tensor<16x28672xbf16>
    return %y : tensor<16x28672xbf16>
  }
}
