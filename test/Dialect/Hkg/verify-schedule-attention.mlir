// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=gfx942 --verify-diagnostics

// Constraints of AttentionOp::verifyScheduleConstraints. (`tile_q` must be a
// multiple of `waves`; with tile_q in {16..128} and waves in {1..8} every
// legal pair satisfies it, so that rule has no failing case.)

func.func @mma_needs_half(%q: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
  // expected-error @below {{'hkg.attention' op schedule knob 'mma' = mfma_32x32x8 needs f16 or bf16 operands, got 'f32'; expected mma = none}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = mfma_32x32x8>} : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf32>
  return %0 : tensor<1x2x64x32xf32>
}

// -----

func.func @lds(%q: tensor<1x8x512x128xbf16>) -> tensor<1x8x512x128xbf16> {
  // expected-error @below {{schedule needs 163840 bytes of LDS (tile_q x D + stages x tile_kv x (D + Dv) elements); gfx942 has 65536}}
  %0 = hkg.attention %q, %q, %q causal {schedule = #hkg.schedule<tile_q = 128, tile_kv = 128, stages = 2>} : tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16> -> tensor<1x8x512x128xbf16>
  return %0 : tensor<1x8x512x128xbf16>
}

// -----

func.func @unknown_knob(%q: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  // expected-error @below {{unknown schedule knob 'tile_m' for hkg.attention; expected one of: tile_q, tile_kv, waves, mma, stages}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<tile_m = 64>} : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %0 : tensor<1x2x64x32xf16>
}
