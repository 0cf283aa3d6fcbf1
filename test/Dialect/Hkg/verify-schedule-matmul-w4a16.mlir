// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule --verify-diagnostics

// MatmulW4A16Op::verifyScheduleConstraints, and knob values outside the
// space: the streaming kernel (mma = none) and the matrix-core kernel.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @accumulators(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{'hkg.matmul_w4a16' op schedule knobs 'tile_m' x 'rows_per_wave' = 16 x 4 accumulators per lane, expected at most 32}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = none, tile_m = 16, rows_per_wave = 4>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tile_m(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{schedule knob 'tile_m' = 256 is not legal for hkg.matmul_w4a16 on gfx942}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<tile_m = 256>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @stream_tile_m(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{schedule knob 'tile_m' = 32 with mma = none, expected at most 16}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = none, tile_m = 32, rows_per_wave = 1>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @stream_split(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{schedule knob 'split_k' = 2 with mma = none, expected 1 (the streaming kernel does not split K)}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = none, tile_m = 16, rows_per_wave = 1, split_k = 2>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @mma_rows(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{schedule knob 'rows_per_wave' = 8 with mma = mma_16x8x16, expected a multiple of 16}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, rows_per_wave = 8>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @mma_tile_m(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{schedule knob 'tile_m' = 8 with mma = mfma_16x16x16, expected a multiple of 16}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mfma_16x16x16, tile_m = 8>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @mma_accumulators(%x: tensor<128x64xbf16>, %w: tensor<64x32xi8>, %s: tensor<64x2xbf16>, %z: tensor<64x2xi8>) -> tensor<128x64xbf16> {
    // expected-error @below {{schedule knobs 'rows_per_wave' x 'tile_m' = 64 x 128 need 256 f32 accumulators per lane, expected at most 128}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, rows_per_wave = 64, tile_m = 128>} : tensor<128x64xbf16>, tensor<64x32xi8>, tensor<64x2xbf16>, tensor<64x2xi8> -> tensor<128x64xbf16>
    return %y : tensor<128x64xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @mma_split(%x: tensor<16x256xbf16>, %w: tensor<64x128xi8>, %s: tensor<64x2xbf16>, %z: tensor<64x2xi8>) -> tensor<16x64xbf16> {
    // expected-error @below {{schedule knob 'split_k' = 4, expected at most 2 (the K spans of 128 values)}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) {schedule = #hkg.schedule<mma = mma_16x8x16, split_k = 4>} : tensor<16x256xbf16>, tensor<64x128xi8>, tensor<64x2xbf16>, tensor<64x2xi8> -> tensor<16x64xbf16>
    return %y : tensor<16x64xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx1100">} {
  func.func @mma_gfx11(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{schedule knob 'mma' = wmma_16x16x16 is not legal for hkg.matmul_w4a16 on gfx1100; expected one of: none}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = wmma_16x16x16>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  // Legal schedules verify: both kernels.
  func.func @legal(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = none, tile_m = 16, rows_per_wave = 2, unroll = 1, threads = 128>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    %y2 = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mfma_16x16x16, tile_m = 32, rows_per_wave = 16, unroll = 4, threads = 64>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y2 : tensor<16x8xbf16>
  }
}
