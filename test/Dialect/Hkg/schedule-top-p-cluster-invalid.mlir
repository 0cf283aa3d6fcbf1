// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule -verify-diagnostics

// ctas_per_row = 2 needs thread-block clusters (sm_90).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
func.func @amd(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  // expected-error @below {{schedule knob 'ctas_per_row' = 2 is not legal for hkg.top_p_sample on gfx942; expected one of: 1}}
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 2>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// ... and a row of whole vectors in each half.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @odd(%x: tensor<4x1004xf32>) -> tensor<4xi32> {
  // expected-error @below {{schedule knob 'ctas_per_row' = 2 needs the vocabulary (1004) to be a multiple of ctas_per_row * vector_width = 8}}
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 128, unroll = 2, bins = 256, ctas_per_row = 2>} : tensor<4x1004xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
}

// -----

// ctas_per_row = 4: quarters of whole vectors (1000 = 4 x 250, not a
// multiple of 4 x 4).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @quarters(%x: tensor<4x1000xf32>) -> tensor<4xi32> {
  // expected-error @below {{schedule knob 'ctas_per_row' = 4 needs the vocabulary (1000) to be a multiple of ctas_per_row * vector_width = 16}}
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 128, unroll = 2, bins = 256, ctas_per_row = 4>} : tensor<4x1000xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
}

// -----

// occupancy x waves per workgroup must fit the SM: 3 x 32 > 64.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @occupancy(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  // expected-error @below {{schedule knob 'occupancy' = 3 asks for 3 x 32 waves per compute unit; sm_90 holds at most 64}}
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 2, occupancy = 3>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// bin_cache = 1 keeps 2 bytes per token of the workgroup's share in LDS:
// a whole 128256-token row (one workgroup) needs more than sm_90's 227 KiB.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @bin_cache_lds(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  // expected-error @below {{schedule knob 'bin_cache' = 1 needs 329728 bytes of LDS (the bins of 128256 tokens, the histogram and the cut's list); sm_90 allows 232448 per workgroup}}
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 1, bin_cache = 1>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// ... and no tail: the vocabulary in whole vectors.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @bin_cache_tail(%x: tensor<4x1002xf32>) -> tensor<4xi32> {
  // expected-error @below {{schedule knob 'bin_cache' = 1 needs the vocabulary (1002) to be a multiple of ctas_per_row * vector_width = 4}}
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 128, unroll = 2, bins = 256, ctas_per_row = 1, bin_cache = 1>} : tensor<4x1002xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
}
