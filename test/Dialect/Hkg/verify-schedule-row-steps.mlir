// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule -verify-diagnostics

// row_steps > 1 carries the next row in registers: only with the register
// row cache.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @no_cache(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error @below {{schedule knob 'row_steps' = 2 needs row_cache = registers (got 'none')}}
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = none, row_steps = 2>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// ... and a number of steps that divides the row groups (33 rows).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @not_dividing(%x: tensor<33x1000xf32>, %w: tensor<1000xf32>) -> tensor<33x1000xf32> {
  // expected-error @below {{schedule knob 'row_steps' = 2 does not divide the 33 groups of rows_per_block rows}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<1000xf32>) eps(1.0e-06) {schedule = #hkg.schedule<threads = 128, rows_per_block = 1, vector_width = 4, unroll = 2, row_cache = registers, row_steps = 2>} : tensor<33x1000xf32> -> tensor<33x1000xf32>
  return %0 : tensor<33x1000xf32>
}
}
