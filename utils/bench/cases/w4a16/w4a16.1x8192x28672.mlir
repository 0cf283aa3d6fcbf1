// W4A16 (issue 30): [1, 28672] bf16 activations times a [8192, 28672] weight of
// int4 packed two per byte along K (112 MiB), groups of 128 along K with bf16
// scales and i8 zero points (docs/ABI.md, "Packed int4 weights"); the
// default schedule (the mma.sync matrix-core kernel with split K,
// docs/Matmul.md "W4A16").
// bench.py's w4a16: beside the bf16 cuBLAS GEMM x @ W^T on the weights
// dequantized once.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @w4a16(%x: tensor<1x28672xbf16>, %w: tensor<8192x14336xi8>, %s: tensor<8192x224xbf16>, %z: tensor<8192x224xi8>) -> tensor<1x8192xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128)
        : tensor<1x28672xbf16>, tensor<8192x14336xi8>, tensor<8192x224xbf16>, tensor<8192x224xi8> -> tensor<1x8192xbf16>
    return %y : tensor<1x8192xbf16>
  }
}
