// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule --verify-diagnostics

// MatmulW4A16Op::verifyScheduleConstraints, and knob values outside the
// space: the streaming kernel (mma = none), the matrix-core kernel and the
// LDS-pipelined kernel (stages > 0).

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
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, rows_per_wave = 64, tile_m = 128, stages = 0>} : tensor<128x64xbf16>, tensor<64x32xi8>, tensor<64x2xbf16>, tensor<64x2xi8> -> tensor<128x64xbf16>
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

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tiled_mfma(%x: tensor<128x256xbf16>, %w: tensor<256x128xi8>, %s: tensor<256x8xbf16>, %z: tensor<256x8xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knob 'stages' = 3 with mma = mfma_16x16x16, expected 0 or 2 (AMD stages through registers into a double buffer)}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mfma_16x16x16, stages = 3>} : tensor<128x256xbf16>, tensor<256x128xi8>, tensor<256x8xbf16>, tensor<256x8xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @tiled_waves_m(%x: tensor<128x256xbf16>, %w: tensor<256x128xi8>, %s: tensor<256x8xbf16>, %z: tensor<256x8xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knob 'waves_m' = 4 does not divide the 2 waves of 64 threads}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 3, threads = 64, waves_m = 4>} : tensor<128x256xbf16>, tensor<256x128xi8>, tensor<256x8xbf16>, tensor<256x8xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @tiled_tile_m(%x: tensor<128x256xbf16>, %w: tensor<256x128xi8>, %s: tensor<256x8xbf16>, %z: tensor<256x8xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knob 'tile_m' = 16 with stages > 0, expected a multiple of 16 x waves_m = 32}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 3, tile_m = 16, waves_m = 2>} : tensor<128x256xbf16>, tensor<256x128xi8>, tensor<256x8xbf16>, tensor<256x8xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @tiled_rows(%x: tensor<128x256xbf16>, %w: tensor<256x128xi8>, %s: tensor<256x8xbf16>, %z: tensor<256x8xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knob 'rows_per_wave' = 4 with stages > 0 and mma = mma_16x8x16, expected a multiple of 8}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 3, rows_per_wave = 4>} : tensor<128x256xbf16>, tensor<256x128xi8>, tensor<256x8xbf16>, tensor<256x8xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @tiled_accumulators(%x: tensor<128x256xbf16>, %w: tensor<256x128xi8>, %s: tensor<256x8xbf16>, %z: tensor<256x8xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knobs 'tile_m' / 'waves_m' x 'rows_per_wave' = 128 x 64 need 256 f32 accumulators per lane, expected at most 128}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 3, tile_m = 128, waves_m = 1, rows_per_wave = 64>} : tensor<128x256xbf16>, tensor<256x128xi8>, tensor<256x8xbf16>, tensor<256x8xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_80">} {
  func.func @tiled_lds(%x: tensor<128x256xbf16>, %w: tensor<256x128xi8>, %s: tensor<256x8xbf16>, %z: tensor<256x8xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knobs 'stages', 'tile_m' and 'rows_per_wave' need 204800 bytes of LDS, expected at most 166912}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 4, tile_m = 16, waves_m = 1, threads = 512, rows_per_wave = 64>} : tensor<128x256xbf16>, tensor<256x128xi8>, tensor<256x8xbf16>, tensor<256x8xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @tiled_split(%x: tensor<128x128xbf16>, %w: tensor<256x64xi8>, %s: tensor<256x4xbf16>, %z: tensor<256x4xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knob 'split_k' = 4, expected at most 2 (the K steps of 64 values)}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 3, split_k = 4>} : tensor<128x128xbf16>, tensor<256x64xi8>, tensor<256x4xbf16>, tensor<256x4xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @tiled_stages(%x: tensor<128x256xbf16>, %w: tensor<256x128xi8>, %s: tensor<256x8xbf16>, %z: tensor<256x8xi8>) -> tensor<128x256xbf16> {
    // expected-error @below {{schedule knob 'stages' = 1 is not legal for hkg.matmul_w4a16 on sm_90; expected one of: 0, 2, 3, 4}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 1>} : tensor<128x256xbf16>, tensor<256x128xi8>, tensor<256x8xbf16>, tensor<256x8xi8> -> tensor<128x256xbf16>
    return %y : tensor<128x256xbf16>
  }
}
