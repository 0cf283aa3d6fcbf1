// W4A16 kernels for the ptxas report (test/Target/NVVM/matmul-w4a16.test): the
// bench shapes at batch 1, 16 and 128 with default schedules (the matrix-core
// kernel), f16 with groups of 32, and the streaming kernel (mma = none).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @b1_28672x8192(%x: tensor<1x8192xbf16>, %w: tensor<28672x4096xi8>, %s: tensor<28672x64xbf16>, %z: tensor<28672x64xi8>) -> tensor<1x28672xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<1x8192xbf16>, tensor<28672x4096xi8>, tensor<28672x64xbf16>, tensor<28672x64xi8> -> tensor<1x28672xbf16>
    return %y : tensor<1x28672xbf16>
  }
  func.func @b16_28672x8192(%x: tensor<16x8192xbf16>, %w: tensor<28672x4096xi8>, %s: tensor<28672x64xbf16>, %z: tensor<28672x64xi8>) -> tensor<16x28672xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<16x8192xbf16>, tensor<28672x4096xi8>, tensor<28672x64xbf16>, tensor<28672x64xi8> -> tensor<16x28672xbf16>
    return %y : tensor<16x28672xbf16>
  }
  func.func @b128_28672x8192(%x: tensor<128x8192xbf16>, %w: tensor<28672x4096xi8>, %s: tensor<28672x64xbf16>, %z: tensor<28672x64xi8>) -> tensor<128x28672xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<128x8192xbf16>, tensor<28672x4096xi8>, tensor<28672x64xbf16>, tensor<28672x64xi8> -> tensor<128x28672xbf16>
    return %y : tensor<128x28672xbf16>
  }
  func.func @b1_8192x28672(%x: tensor<1x28672xbf16>, %w: tensor<8192x14336xi8>, %s: tensor<8192x224xbf16>, %z: tensor<8192x224xi8>) -> tensor<1x8192xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<1x28672xbf16>, tensor<8192x14336xi8>, tensor<8192x224xbf16>, tensor<8192x224xi8> -> tensor<1x8192xbf16>
    return %y : tensor<1x8192xbf16>
  }
  func.func @b16_8192x28672(%x: tensor<16x28672xbf16>, %w: tensor<8192x14336xi8>, %s: tensor<8192x224xbf16>, %z: tensor<8192x224xi8>) -> tensor<16x8192xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<16x28672xbf16>, tensor<8192x14336xi8>, tensor<8192x224xbf16>, tensor<8192x224xi8> -> tensor<16x8192xbf16>
    return %y : tensor<16x8192xbf16>
  }
  func.func @b128_8192x28672(%x: tensor<128x28672xbf16>, %w: tensor<8192x14336xi8>, %s: tensor<8192x224xbf16>, %z: tensor<8192x224xi8>) -> tensor<128x8192xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<128x28672xbf16>, tensor<8192x14336xi8>, tensor<8192x224xbf16>, tensor<8192x224xi8> -> tensor<128x8192xbf16>
    return %y : tensor<128x8192xbf16>
  }
  func.func @f16_g32(%x: tensor<16x4096xf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x128xf16>, %z: tensor<4096x128xi8>) -> tensor<16x4096xf32> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<16x4096xf16>, tensor<4096x2048xi8>, tensor<4096x128xf16>, tensor<4096x128xi8> -> tensor<16x4096xf32>
    return %y : tensor<16x4096xf32>
  }
  func.func @stream(%x: tensor<4x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x64xbf16>, %z: tensor<4096x64xi8>) -> tensor<4x4096xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(64) {schedule = #hkg.schedule<mma = none, tile_m = 4, rows_per_wave = 2, unroll = 2, threads = 256, split_k = 1>} : tensor<4x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x64xbf16>, tensor<4096x64xi8> -> tensor<4x4096xbf16>
    return %y : tensor<4x4096xbf16>
  }
}
