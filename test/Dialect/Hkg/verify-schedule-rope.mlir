// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=sm_90 --verify-diagnostics

// RopeOp: a vector must stay within one rotated half (neox) or cover whole
// pairs (gptj).

func.func @neox_half(%x: tensor<1x8x2x12xf16>, %c: tensor<8x6xf16>) -> tensor<1x8x2x12xf16> {
  // expected-error @below {{'hkg.rope' op schedule knob 'vector_width' = 4 must divide D/2 = 6 for the neox layout}}
  %0 = hkg.rope %x, %c, %c neox offset(0) {schedule = #hkg.schedule<vector_width = 4>} : tensor<1x8x2x12xf16>, tensor<8x6xf16>, tensor<8x6xf16> -> tensor<1x8x2x12xf16>
  return %0 : tensor<1x8x2x12xf16>
}

// -----

func.func @gptj_single_element(%x: tensor<1x8x2x12xf16>, %c: tensor<8x6xf16>) -> tensor<1x8x2x12xf16> {
  // expected-error @below {{'hkg.rope' op schedule knob 'vector_width' = 1 must be >= 2 and divide D = 12 for the gptj layout}}
  %0 = hkg.rope %x, %c, %c gptj offset(0) {schedule = #hkg.schedule<vector_width = 1>} : tensor<1x8x2x12xf16>, tensor<8x6xf16>, tensor<8x6xf16> -> tensor<1x8x2x12xf16>
  return %0 : tensor<1x8x2x12xf16>
}

// -----

func.func @gptj_not_divisible(%x: tensor<1x8x2x12xf16>, %c: tensor<8x6xf16>) -> tensor<1x8x2x12xf16> {
  // expected-error @below {{'hkg.rope' op schedule knob 'vector_width' = 8 must be >= 2 and divide D = 12 for the gptj layout}}
  %0 = hkg.rope %x, %c, %c gptj offset(0) {schedule = #hkg.schedule<vector_width = 8>} : tensor<1x8x2x12xf16>, tensor<8x6xf16>, tensor<8x6xf16> -> tensor<1x8x2x12xf16>
  return %0 : tensor<1x8x2x12xf16>
}
