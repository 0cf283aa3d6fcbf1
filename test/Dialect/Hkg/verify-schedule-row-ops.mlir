// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=gfx1100 --verify-diagnostics

// Constraints shared by reduce, softmax, layernorm and rmsnorm
// (RowOpSchedules.cpp), on a wave32 chip.

func.func @rows_exceed_threads(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  // expected-error @below {{'hkg.reduce' op schedule knob 'rows_per_block' = 64 exceeds 'threads' = 32; expected rows_per_block <= threads}}
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<rows_per_block = 64, threads = 32>} : tensor<64x128xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

func.func @rows_exceed_threads_softmax(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @below {{'hkg.softmax' op schedule knob 'rows_per_block' = 64 exceeds 'threads' = 32; expected rows_per_block <= threads}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<rows_per_block = 64, threads = 32>} : tensor<64x128xf32> -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

func.func @registers(%x: tensor<8x131072xf32>, %w: tensor<131072xf32>) -> tensor<8x131072xf32> {
  // expected-error @below {{'hkg.rmsnorm' op schedule knob 'row_cache' = registers needs 4096 registers per thread for rows of 131072 elements (vector_width = 4, 32 threads per row); expected at most 64}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<131072xf32>) eps(1.0e-06) {schedule = #hkg.schedule<row_cache = registers, row_split = 1, threads = 32, rows_per_block = 1, vector_width = 4>} : tensor<8x131072xf32> -> tensor<8x131072xf32>
  return %0 : tensor<8x131072xf32>
}

// -----

func.func @lds(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  // expected-error @below {{'hkg.layernorm' op schedule knob 'row_cache' = lds needs 132096 bytes of LDS for 4 row(s) of 8192 elements and the reduction; gfx1100 allows 65536 per workgroup}}
  %0 = hkg.layernorm %x eps(1.0e-05) {schedule = #hkg.schedule<row_cache = lds, rows_per_block = 4, threads = 256>} : tensor<64x8192xf32> -> tensor<64x8192xf32>
  return %0 : tensor<64x8192xf32>
}

// -----

// A reduce down columns: vectors run along the columns, so vector_width must
// divide them.
func.func @column_vector_width(%x: tensor<4x16x6xf32>) -> tensor<4x6xf32> {
  // expected-error @below {{'hkg.reduce' op schedule knob 'vector_width' = 4 must divide the 6 columns the reduction runs down}}
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<vector_width = 4>} : tensor<4x16x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @column_rows_exceed_threads(%x: tensor<4x16x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{'hkg.reduce' op schedule knob 'rows_per_block' = 64 exceeds 'threads' = 32; expected rows_per_block <= threads}}
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<rows_per_block = 64, threads = 32>} : tensor<4x16x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
