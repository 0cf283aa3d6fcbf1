// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule -verify-diagnostics

// row_split (a row shared by the workgroups of a cluster) needs clusters.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
func.func @no_clusters(%x: tensor<16x131072xf32>) -> tensor<16x131072xf32> {
  // expected-error @below {{schedule knob 'row_split' is not available for hkg.layernorm on gfx942: splitting a row needs thread-block clusters (sm_90)}}
  %0 = hkg.layernorm %x eps(1.0e-05) {schedule = #hkg.schedule<row_split = 8>} : tensor<16x131072xf32> -> tensor<16x131072xf32>
  return %0 : tensor<16x131072xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
func.func @no_clusters_softmax(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  // expected-error @below {{schedule knob 'row_split' is not available for hkg.softmax on gfx942: splitting a row needs thread-block clusters (sm_90)}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_split = 2>} : tensor<4x65536xf32> -> tensor<4x65536xf32>
  return %0 : tensor<4x65536xf32>
}
}

// -----

// Down columns the split is axis_split's; row_split belongs to rows.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @columns(%x: tensor<2x1024x64xbf16>) -> tensor<2x1024x64xbf16> {
  // expected-error @below {{unknown schedule knob 'row_split' for hkg.rmsnorm; expected one of: vector_width, threads, rows_per_block, unroll, column_cache, axis_split, occupancy}}
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) {schedule = #hkg.schedule<row_split = 2>} : tensor<2x1024x64xbf16> -> tensor<2x1024x64xbf16>
  return %0 : tensor<2x1024x64xbf16>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @not_a_cluster_size(%x: tensor<16x131072xf32>) -> tensor<16x131072xf32> {
  // expected-error @below {{schedule knob 'row_split' = 16 is not legal for hkg.layernorm on sm_90; expected one of: 1, 2, 4, 8}}
  %0 = hkg.layernorm %x eps(1.0e-05) {schedule = #hkg.schedule<row_split = 16>} : tensor<16x131072xf32> -> tensor<16x131072xf32>
  return %0 : tensor<16x131072xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @dynamic_rows(%x: tensor<?x131072xf32>) -> tensor<?x131072xf32> {
  // expected-error @below {{schedule knob 'row_split' = 4 needs a static row count; the input's row dims are dynamic (expected row_split = 1)}}
  %0 = hkg.rmsnorm %x eps(1.0e-06) {schedule = #hkg.schedule<row_split = 4>} : tensor<?x131072xf32> -> tensor<?x131072xf32>
  return %0 : tensor<?x131072xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @partial_vectors(%x: tensor<4x100003xf32>) -> tensor<4x100003xf32> {
  // expected-error @below {{schedule knob 'row_split' = 2 needs 'vector_width' = 4 to divide the row of 100003 elements}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_split = 2, vector_width = 4>} : tensor<4x100003xf32> -> tensor<4x100003xf32>
  return %0 : tensor<4x100003xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @too_few_vectors(%x: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @below {{schedule knob 'row_split' = 8 exceeds the 6 vectors of a row (vector_width = 4); expected at most 6}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_split = 8, vector_width = 4>} : tensor<4x24xf32> -> tensor<4x24xf32>
  return %0 : tensor<4x24xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @lds_cache(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  // expected-error @below {{schedule knob 'row_split' = 2 keeps each slice in registers or re-reads it; expected row_cache = registers or none (got 'lds')}}
  %0 = hkg.layernorm %x eps(1.0e-05) {schedule = #hkg.schedule<row_split = 2, row_cache = lds>} : tensor<4x8192xf32> -> tensor<4x8192xf32>
  return %0 : tensor<4x8192xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @bulk_store(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  // expected-error @below {{schedule knob 'row_split' = 2 needs bulk_store = 0 (a bulk store copies whole rows)}}
  %0 = hkg.rmsnorm %x eps(1.0e-06) {schedule = #hkg.schedule<row_split = 2, bulk_store = 1>} : tensor<4x8192xf32> -> tensor<4x8192xf32>
  return %0 : tensor<4x8192xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @row_steps(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  // expected-error @below {{schedule knob 'row_split' = 2 needs row_steps = 1 (got 2)}}
  %0 = hkg.rmsnorm %x eps(1.0e-06) {schedule = #hkg.schedule<row_split = 2, row_cache = registers, row_steps = 2>} : tensor<4x8192xf32> -> tensor<4x8192xf32>
  return %0 : tensor<4x8192xf32>
}
}
