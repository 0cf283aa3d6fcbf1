// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule -verify-diagnostics

// bulk_store = 1 copies whole output rows in 16-byte units: a row of 1003
// bf16 (2006 bytes) is refused.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @ragged(%x: tensor<16x1003xbf16>, %w: tensor<1003xbf16>) -> tensor<16x1003xbf16> {
  // expected-error @below {{schedule knob 'bulk_store' = 1 needs output rows of a multiple of 16 bytes (bulk copies move 16-byte units from 16-byte aligned addresses); got 2006 bytes (1003 elements)}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<1003xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<threads = 128, rows_per_block = 1, vector_width = 1, unroll = 4, row_cache = none, bulk_store = 1>} : tensor<16x1003xbf16> -> tensor<16x1003xbf16>
  return %0 : tensor<16x1003xbf16>
}
}

// -----

// The staged rows must fit in static shared memory: 4 rows of 8192 bf16
// (65536 bytes) and the reduction scratch exceed 48 KiB.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @too_big(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error @below {{schedule knob 'bulk_store' = 1 needs 66560 bytes of LDS for 4 output row(s) of 8192 elements and the reduction; sm_90 allows 49152 per workgroup}}
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 1024, rows_per_block = 4, vector_width = 8, unroll = 4, row_cache = none, bulk_store = 1>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// With row_cache = lds both buffers count: 2 x 8192 bf16 in, 2 x 8192 bf16
// out.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @with_lds_cache(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error @below {{schedule knob 'bulk_store' = 1 needs 66560 bytes of LDS for 2 output row(s) of 8192 elements, the cached rows and the reduction; sm_90 allows 49152 per workgroup}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 512, rows_per_block = 2, vector_width = 8, unroll = 4, row_cache = lds, online = 0, bulk_store = 1>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// Only targets with bulk asynchronous copies (sm_90) have the knob.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
func.func @amd(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error @below {{unknown schedule knob 'bulk_store' for hkg.layernorm; expected one of: vector_width, threads, rows_per_block, unroll, row_cache, row_split, row_split_reduce, occupancy, moments, row_steps}}
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, bulk_store = 1>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// sm_80 has no bulk copies either.
module attributes {hkg.target = #hkg.target<chip = "sm_80">} {
func.func @ampere(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error @below {{unknown schedule knob 'bulk_store' for hkg.rmsnorm; expected one of: vector_width, threads, rows_per_block, unroll, row_cache, row_split, row_split_reduce, occupancy, row_steps}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, bulk_store = 1>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// hkg.reduce writes one value per row: no bulk_store knob.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @reduce(%x: tensor<64x8192xf32>) -> tensor<64xf32> {
  // expected-error @below {{unknown schedule knob 'bulk_store' for hkg.reduce; expected one of: vector_width, threads, rows_per_block, unroll, row_split, row_split_reduce, occupancy}}
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 4, unroll = 4, bulk_store = 1>} : tensor<64x8192xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
}
