// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=gfx942 --verify-diagnostics

// The generic checks every op gets from verifySchedule: unknown knobs,
// illegal values, values of the wrong kind.

func.func @unknown_knob(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{'hkg.softmax' op unknown schedule knob 'tile_m' for hkg.softmax; expected one of: vector_width, threads, rows_per_block, unroll, row_cache, row_split, row_split_reduce, occupancy, online}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<tile_m = 64>} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

func.func @illegal_int(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{schedule knob 'vector_width' = 3 is not legal for hkg.softmax on gfx942; expected one of: 1, 2, 4}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = 3>} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// 16 bytes at most per access: 8 bf16 elements are legal, 8 f32 are not.
func.func @vector_too_wide(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{schedule knob 'vector_width' = 8 is not legal for hkg.softmax on gfx942; expected one of: 1, 2, 4}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = 8>} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

func.func @illegal_keyword(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{schedule knob 'row_cache' = smem is not legal for hkg.softmax on gfx942; expected one of: none, registers, lds}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_cache = smem>} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// A keyword for an integer knob is a clean error, never an assertion in
// ResolvedSchedule::getInt.
func.func @keyword_for_int(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{schedule knob 'vector_width' of hkg.softmax takes an integer, got "foo"; expected one of: 1, 2, 4}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = foo>} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

func.func @quoted_int(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{schedule knob 'threads' of hkg.softmax takes an integer, got "256"; expected one of: 64, 128, 256, 512, 1024}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = "256">} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

func.func @int_for_keyword(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @below {{schedule knob 'mma' of hkg.matmul takes a keyword, got 16; expected one of: none, mfma_16x16x16, mfma_32x32x8}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = 16>} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}

// -----

// A matrix-core instruction of another vendor is not legal here.
func.func @foreign_mma(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @below {{schedule knob 'mma' = wmma_16x16x16 is not legal for hkg.matmul on gfx942; expected one of: none, mfma_16x16x16, mfma_32x32x8}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wmma_16x16x16>} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}

// -----

func.func @reduce_has_no_row_cache(%x: tensor<4x64xf32>) -> tensor<4xf32> {
  // expected-error @below {{unknown schedule knob 'row_cache' for hkg.reduce; expected one of: vector_width, threads, rows_per_block, unroll}}
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<row_cache = lds>} : tensor<4x64xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @top_p_knobs(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  // expected-error @below {{schedule knob 'bins' = 100 is not legal for hkg.top_p_sample on gfx942; expected one of: 256, 512, 1024, 2048}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<bins = 100>} : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// The per-thread mass and tie counters live in the histogram's LDS: at least
// two bins per thread.
func.func @top_p_bins_per_thread(%l: tensor<2x1000xf32>) -> tensor<2xi32> {
  // expected-error @below {{schedule knob 'bins' = 512 is not legal with threads = 512; expected bins >= 2 * threads}}
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<bins = 512, threads = 512>} : tensor<2x1000xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
