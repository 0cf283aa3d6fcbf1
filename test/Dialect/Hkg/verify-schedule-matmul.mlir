// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule --verify-diagnostics

// Every constraint of MatmulOp::verifyScheduleConstraints.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @mma_needs_half(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = mfma_16x16x16 needs f16 or bf16 operands, got 'f32'; expected mma = none}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mfma_16x16x16>} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @too_many_waves(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
    // expected-error @below {{schedule knobs 'waves_m' x 'waves_n' = 32 waves of 64 threads exceed the workgroup limit of 1024 on gfx942}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<waves_m = 8, waves_n = 4>} : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    return %0 : tensor<256x256xf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tile_m_vs_waves(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
    // expected-error @below {{schedule knob 'tile_m' = 16 must be a multiple of waves_m x the mma M (2 x 16)}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 16, waves_m = 2>} : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    return %0 : tensor<256x256xf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tile_n_vs_mma(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
    // expected-error @below {{schedule knob 'tile_n' = 32 must be a multiple of waves_n x the mma N (2 x 32)}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_n = 32, mma = mfma_32x32x8, tile_m = 128>} : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    return %0 : tensor<256x256xf16>
  }
}

// -----

// gfx950's mfma_16x16x32 steps K by 32.
module attributes {hkg.target = #hkg.target<chip = "gfx950">} {
  func.func @tile_k_vs_mma(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    // expected-error @below {{schedule knob 'tile_k' = 16 must be a multiple of the mma K (32)}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mfma_16x16x32, tile_k = 16>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
    return %0 : tensor<256x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @lds(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
    // expected-error @below {{schedule needs 147456 bytes of LDS (stages x (tile_m + tile_n) x (tile_k + lds_pad) x 2 bytes); gfx942 allows 65536 per workgroup}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<stages = 4, tile_k = 64, lds_pad = 8, lds_swizzle = 0>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
    return %0 : tensor<512x512xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @accumulators(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
    // expected-error @below {{schedule needs 256 f32 accumulators per thread (tile_m x tile_n / 256 threads); expected at most 128}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 256, tile_n = 256, tile_k = 16, stages = 1, lds_pad = 0>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
    return %0 : tensor<512x512xbf16>
  }
}

// -----

// No K step deeper than K (split_k is fixed to 1).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tile_k_vs_k(%a: tensor<128x32xbf16>, %b: tensor<32x128xbf16>) -> tensor<128x128xbf16> {
    // expected-error @below {{schedule knobs 'split_k' x 'tile_k' = 1 x 64 exceed K = 32}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_k = 64>} : tensor<128x32xbf16>, tensor<32x128xbf16> -> tensor<128x128xbf16>
    return %0 : tensor<128x128xbf16>
  }
}

// -----

// split_k through a cluster needs thread-block clusters: not on AMD.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @split_k(%a: tensor<128x1024xbf16>, %b: tensor<1024x128xbf16>) -> tensor<128x128xbf16> {
    // expected-error @below {{schedule knob 'split_k_reduce' = cluster is not legal for hkg.matmul on gfx942; expected one of: workspace}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<split_k = 4, split_k_reduce = cluster>} : tensor<128x1024xbf16>, tensor<1024x128xbf16> -> tensor<128x128xbf16>
    return %0 : tensor<128x128xbf16>
  }
}

// -----

// A cluster holds at most 8 workgroups.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @split_k_cluster_16(%a: tensor<16x65536xbf16>, %b: tensor<65536x4096xbf16>) -> tensor<16x4096xbf16> {
    // expected-error @below {{schedule knob 'split_k' = 16 with split_k_reduce = cluster exceeds the 8 workgroups of a portable cluster; expected split_k_reduce = workspace}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<split_k = 16, split_k_reduce = cluster>} : tensor<16x65536xbf16>, tensor<65536x4096xbf16> -> tensor<16x4096xbf16>
    return %0 : tensor<16x4096xbf16>
  }
}

// -----

// The workspace is bounded: 256 workgroups over each of 1024 128 x 128 tiles
// would need 272 partials of 64 KiB per tile.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @split_k_workspace_too_large(%a: tensor<4096x32768xbf16>, %b: tensor<32768x4096xbf16>) -> tensor<4096x4096xbf16> {
    // expected-error @below {{schedule knobs 'split_k' = 256 with split_k_reduce = workspace need 18253611008 bytes of workspace (tiles x partials x tile_m x tile_n x 4); expected at most 268435456}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<split_k = 256, split_k_reduce = workspace>} : tensor<4096x32768xbf16>, tensor<32768x4096xbf16> -> tensor<4096x4096xbf16>
    return %0 : tensor<4096x4096xbf16>
  }
}

// -----

// K = 100: rows of A are not a multiple of 8 elements, so 8-element global
// loads of A would straddle rows.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @vector_width_vs_contiguous_dims(%a: tensor<128x100xbf16>, %b: tensor<100x128xbf16>) -> tensor<128x128xbf16> {
    // expected-error @below {{schedule knob 'vector_width' = 8 must divide the contiguous dims of lhs and rhs (expected at most 4)}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<vector_width = 8>} : tensor<128x100xbf16>, tensor<100x128xbf16> -> tensor<128x128xbf16>
    return %0 : tensor<128x128xbf16>
  }
}

// -----

// 4 elements is the widest that divides K = 100.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @vector_width_fits(%a: tensor<128x100xbf16>, %b: tensor<100x128xbf16>) -> tensor<128x128xbf16> {
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<vector_width = 4>} : tensor<128x100xbf16>, tensor<100x128xbf16> -> tensor<128x128xbf16>
    return %0 : tensor<128x128xbf16>
  }
}

// -----

// lds_pad is 0, 16 or 32 bytes: 0, 8 or 16 bf16 elements.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @lds_pad_bytes(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    // expected-error @below {{schedule knob 'lds_pad' = 4 is not legal for hkg.matmul on gfx942; expected one of: 0, 8, 16}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<lds_pad = 4>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
    return %0 : tensor<256x256xbf16>
  }
}

// -----

// lds_swizzle is on or off.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @lds_swizzle(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    // expected-error @below {{schedule knob 'lds_swizzle' = 2 is not legal for hkg.matmul on gfx942; expected one of: 0, 1}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<lds_swizzle = 2>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
    return %0 : tensor<256x256xbf16>
  }
}

// -----

// The wave32 limit: 32 waves of 32 threads fit in 1024 on gfx1100.
module attributes {hkg.target = #hkg.target<chip = "gfx1100">} {
  func.func @waves_wave32(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
    // expected-error @below {{schedule knobs 'waves_m' x 'waves_n' = 64 waves of 32 threads exceed the workgroup limit of 1024 on gfx1100}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<waves_m = 8, waves_n = 8>} : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    return %0 : tensor<256x256xf16>
  }
}
