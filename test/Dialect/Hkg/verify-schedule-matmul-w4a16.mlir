// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule --verify-diagnostics

// MatmulW4A16Op::verifyScheduleConstraints, and a knob value outside the
// space.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @accumulators(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{'hkg.matmul_w4a16' op schedule knobs 'tile_m' x 'rows_per_wave' = 16 x 4 accumulators per lane, expected at most 32}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<tile_m = 16, rows_per_wave = 4>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tile_m(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    // expected-error @below {{tile_m}}
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<tile_m = 32>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  // A legal schedule verifies.
  func.func @legal(%x: tensor<16x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<16x8xbf16> {
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<tile_m = 16, rows_per_wave = 2, unroll = 1, threads = 128>} : tensor<16x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<16x8xbf16>
    return %y : tensor<16x8xbf16>
  }
}
