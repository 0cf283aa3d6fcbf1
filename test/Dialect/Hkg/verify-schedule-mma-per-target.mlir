// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule --verify-diagnostics

// Each target accepts only its own matrix-core instructions.

// gfx950 (CDNA4) adds the K = 32 MFMA forms.
module attributes {hkg.target = #hkg.target<chip = "gfx950">} {
  func.func @cdna4_mfma(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mfma_32x32x16, tile_k = 32>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
    return %0 : tensor<256x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @cdna4_mfma_on_cdna3(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    // expected-error @below {{schedule knob 'mma' = mfma_32x32x16 is not legal for hkg.matmul on gfx942; expected one of: none, mfma_16x16x16, mfma_32x32x8}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mfma_32x32x16, tile_k = 32>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
    return %0 : tensor<256x256xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx1250">} {
  func.func @rdna_wmma_on_gfx1250(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    // expected-error @below {{schedule knob 'mma' = wmma_16x16x16 is not legal for hkg.matmul on gfx1250; expected one of: none}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wmma_16x16x16>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
    return %0 : tensor<256x256xbf16>
  }
}

// -----

// gfx1250 has wmma_16x16x32, but the matmul kernel builder only emits the
// 16x16x16 WMMA layouts, so its matmuls use FMAs.
module attributes {hkg.target = #hkg.target<chip = "gfx1250">} {
  func.func @gfx1250_wmma_not_lowered_for_matmul(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    // expected-error @below {{schedule knob 'mma' = wmma_16x16x32 is not legal for hkg.matmul on gfx1250; expected one of: none}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wmma_16x16x32, tile_k = 32>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
    return %0 : tensor<256x256xbf16>
  }
}

// -----

// Attention's kernel has no AMD matrix-core form yet: only `none` there.
module attributes {hkg.target = #hkg.target<chip = "gfx1201">} {
  func.func @mfma_on_rdna4(%q: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
    // expected-error @below {{schedule knob 'mma' = mfma_16x16x16 is not legal for hkg.attention on gfx1201; expected one of: none}}
    %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = mfma_16x16x16>} : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
    return %0 : tensor<1x2x64x32xf16>
  }
}

// -----

// 3xTF32 (f32 on tf32 tensor cores) is NVIDIA's: AMD targets do not list it.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tf32x3_on_cdna3(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
    // expected-error @below {{schedule knob 'mma' = mma_16x8x8_tf32x3 is not legal for hkg.matmul on gfx942; expected one of: none, mfma_16x16x16, mfma_32x32x8}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3>} : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @tf32_split_on_cdna3(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
    // expected-error @below {{schedule knob 'tf32_split' is not available for hkg.matmul on gfx942: 3xTF32 takes f32 operands on NVIDIA sm_80+}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tf32_split = fast>} : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_80">} {
  func.func @wmma_on_ampere(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
    // expected-error @below {{schedule knob 'mma' = wmma_16x16x16 is not legal for hkg.matmul on sm_80; expected one of: none, mma_16x8x16, mma_16x8x8_tf32x3}}
    %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wmma_16x16x16>} : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    return %0 : tensor<256x256xf16>
  }
}

// -----

// Attention takes sm_90's warpgroup MMA (sm_90a) under one keyword,
// wgmma_64x128x16 (its instructions' N are tile_kv and Dv), and only with
// 16-bit operands.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @wgmma_attention(%q: tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16> {
    // expected-error @below {{schedule knob 'mma' = wgmma_64x256x16 is not legal for hkg.attention on sm_90; expected one of: none, mma_16x8x16, wgmma_64x128x16}}
    %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x256x16>} : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16> -> tensor<1x2x64x64xbf16>
    return %0 : tensor<1x2x64x64xbf16>
  }
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @mma_needs_half(%q: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
    // expected-error @below {{'hkg.attention' op schedule knob 'mma' = mma_16x8x16 needs f16 or bf16 operands, got 'f32'; expected mma = none}}
    %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = mma_16x8x16>} : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf32>
    return %0 : tensor<1x2x64x32xf32>
  }
}


// -----

// Attention's mma.sync kernel reads its fragments from LDS: no stages = 0.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @mma_needs_lds(%q: tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16> {
    // expected-error @below {{'hkg.attention' op schedule knob 'stages' = 0 needs mma = none (the mma_16x8x16 kernel reads its fragments from LDS), got mma = mma_16x8x16}}
    %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 0>} : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16> -> tensor<1x2x64x64xbf16>
    return %0 : tensor<1x2x64x64xbf16>
  }
}

// -----

// mma.sync steps through the head dims in 16-element fragments.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @mma_head_dims(%q: tensor<1x2x64x40xbf16>) -> tensor<1x2x64x40xbf16> {
    // expected-error @below {{'hkg.attention' op schedule knob 'mma' = mma_16x8x16 needs head dims that are multiples of 16, got D = 40 and Dv = 40; expected mma = none}}
    %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = mma_16x8x16>} : tensor<1x2x64x40xbf16>, tensor<1x2x64x40xbf16>, tensor<1x2x64x40xbf16> -> tensor<1x2x64x40xbf16>
    return %0 : tensor<1x2x64x40xbf16>
  }
}
