// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=gfx942 --verify-diagnostics

// Norms over one inner axis take column schedules: the vector divides the
// columns, and the row knobs are not theirs.

func.func @vector_width_must_divide_columns(%x: tensor<4x96x1004xbf16>) -> tensor<4x96x1004xbf16> {
  // expected-error @below {{'hkg.layernorm' op schedule knob 'vector_width' = 8 must divide the 1004 columns the reduction runs down}}
  %0 = hkg.layernorm %x axes = [1] eps(1.0e-05) {schedule = #hkg.schedule<vector_width = 8>} : tensor<4x96x1004xbf16> -> tensor<4x96x1004xbf16>
  return %0 : tensor<4x96x1004xbf16>
}

// -----

func.func @no_row_cache_down_columns(%x: tensor<4x96x1000xbf16>) -> tensor<4x96x1000xbf16> {
  // expected-error @below {{unknown schedule knob 'row_cache' for hkg.rmsnorm; expected one of: vector_width, threads, rows_per_block, unroll, column_cache, axis_split, occupancy}}
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) {schedule = #hkg.schedule<row_cache = registers>} : tensor<4x96x1000xbf16> -> tensor<4x96x1000xbf16>
  return %0 : tensor<4x96x1000xbf16>
}

// -----

// Over trailing axes the row space applies to the rows of their product
// (2 x 65536 elements here): a register cache of the whole row (no split)
// is refused.
func.func @row_cache_of_the_product(%x: tensor<8x2x65536xf32>) -> tensor<8x2x65536xf32> {
  // expected-error @below {{'hkg.rmsnorm' op schedule knob 'row_cache' = registers needs 2048 registers per thread for rows of 131072 elements (vector_width = 4, 64 threads per row); expected at most 64}}
  %0 = hkg.rmsnorm %x axes = [1, 2] eps(1.0e-06) {schedule = #hkg.schedule<row_cache = registers, row_split = 1, threads = 64, rows_per_block = 1, vector_width = 4>} : tensor<8x2x65536xf32> -> tensor<8x2x65536xf32>
  return %0 : tensor<8x2x65536xf32>
}

// -----

// Down columns, the strip cached in registers must fit 64 registers per
// thread: 4096 bf16 rows over 32 thread rows are 128 rows of 8 elements.
func.func @column_cache_too_long(%x: tensor<2x4096x64xbf16>) -> tensor<2x4096x64xbf16> {
  // expected-error @below {{'hkg.rmsnorm' op schedule knob 'column_cache' = registers needs 512 registers per thread for 4096 rows of 8 elements over 32 thread rows (axis_split = 1); expected at most 64: raise 'rows_per_block' or 'axis_split'}}
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) {schedule = #hkg.schedule<column_cache = registers, axis_split = 1, rows_per_block = 32, threads = 256, vector_width = 8>} : tensor<2x4096x64xbf16> -> tensor<2x4096x64xbf16>
  return %0 : tensor<2x4096x64xbf16>
}

// -----

// Splitting the axis over a cluster needs thread-block clusters: gfx942
// lists 1 only.
func.func @axis_split_without_clusters(%x: tensor<4x96x1000xbf16>) -> tensor<4x96x1000xbf16> {
  // expected-error @below {{'hkg.layernorm' op schedule knob 'axis_split' = 2 is not legal for hkg.layernorm on gfx942; expected one of: 1}}
  %0 = hkg.layernorm %x axes = [1] eps(1.0e-05) {schedule = #hkg.schedule<axis_split = 2>} : tensor<4x96x1000xbf16> -> tensor<4x96x1000xbf16>
  return %0 : tensor<4x96x1000xbf16>
}

// -----

// A value outside the knob's list is refused with the list.
func.func @column_cache_lds(%x: tensor<4x96x1000xbf16>) -> tensor<4x96x1000xbf16> {
  // expected-error @below {{column_cache}}
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) {schedule = #hkg.schedule<column_cache = lds>} : tensor<4x96x1000xbf16> -> tensor<4x96x1000xbf16>
  return %0 : tensor<4x96x1000xbf16>
}
