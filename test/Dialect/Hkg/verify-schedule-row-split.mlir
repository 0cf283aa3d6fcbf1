// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule -verify-diagnostics

// row_split (a row shared by several workgroups): a cluster needs sm_90's
// thread-block clusters; elsewhere the workspace combine is the one there is.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
func.func @no_clusters(%x: tensor<16x131072xf32>) -> tensor<16x131072xf32> {
  // expected-error @below {{schedule knob 'row_split_reduce' = cluster is not legal for hkg.layernorm on gfx942; expected one of: workspace}}
  %0 = hkg.layernorm %x eps(1.0e-05) {schedule = #hkg.schedule<row_split = 8, row_split_reduce = cluster>} : tensor<16x131072xf32> -> tensor<16x131072xf32>
  return %0 : tensor<16x131072xf32>
}
}

// -----

// The workspace split on AMD verifies (64 workgroups a row: gfx942 has 304
// CUs).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
func.func @workspace_softmax(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_split = 64, row_split_reduce = workspace, row_cache = none>} : tensor<4x65536xf32> -> tensor<4x65536xf32>
  return %0 : tensor<4x65536xf32>
}
}

// -----

// The workgroups of a row wait for each other: a workspace split beyond the
// CUs a chip is sure to keep resident (gfx1151: 40, so at most 32) is
// refused.
module attributes {hkg.target = #hkg.target<chip = "gfx1151">} {
func.func @workspace_beyond_resident(%x: tensor<4x1048576xbf16>) -> tensor<4x1048576xbf16> {
  // expected-error @below {{schedule knob 'row_split' = 64 with row_split_reduce = workspace exceeds the 32 workgroups that gfx1151 is sure to keep resident at once (the workgroups of a row wait for each other); expected at most 32}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_split = 64, row_split_reduce = workspace, row_cache = none>} : tensor<4x1048576xbf16> -> tensor<4x1048576xbf16>
  return %0 : tensor<4x1048576xbf16>
}
}

// -----

// A chip whose CU count hkg does not know has no split.
module attributes {hkg.target = #hkg.target<chip = "gfx1250">} {
func.func @unknown_cus(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  // expected-error @below {{schedule knob 'row_split' is not available for hkg.softmax on gfx1250: splitting a row needs the chip's compute-unit count (its workgroups wait for each other)}}
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
  // expected-error @below {{schedule knob 'row_split' = 16 with row_split_reduce = cluster exceeds the 8 workgroups of a portable cluster; expected row_split_reduce = workspace}}
  %0 = hkg.layernorm %x eps(1.0e-05) {schedule = #hkg.schedule<row_split = 16, row_split_reduce = cluster>} : tensor<16x131072xf32> -> tensor<16x131072xf32>
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
