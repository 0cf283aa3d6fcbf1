// The LDS-pipelined W4A16 kernel's defaults (batch >= 64) for the AMD ISA
// report (test/Target/ROCDL/matmul-w4a16-tiled.test): the bench's
// 4096 x 4096 weights at batch 128 (bf16, groups of 128), and a ragged f16
// case (100 x 1000 x 4128, groups of 32, an f32 result).
module {
  func.func @b128_4096x4096(%x: tensor<128x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x32xbf16>, %z: tensor<4096x32xi8>) -> tensor<128x4096xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<128x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x32xbf16>, tensor<4096x32xi8> -> tensor<128x4096xbf16>
    return %y : tensor<128x4096xbf16>
  }
  func.func @ragged_f16(%x: tensor<100x4128xf16>, %w: tensor<1000x2064xi8>, %s: tensor<1000x129xf16>, %z: tensor<1000x129xi8>) -> tensor<100x1000xf32> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<100x4128xf16>, tensor<1000x2064xi8>, tensor<1000x129xf16>, tensor<1000x129xi8> -> tensor<100x1000xf32>
    return %y : tensor<100x1000xf32>
  }
}
