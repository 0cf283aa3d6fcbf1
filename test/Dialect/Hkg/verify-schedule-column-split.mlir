// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=sm_90 --verify-diagnostics

// Down columns on sm_90: axis_split shares the reduced axis among a
// cluster's workgroups, at most one per row of the axis.

func.func @axis_split_beyond_rows(%x: tensor<5x3x64xf32>) -> tensor<5x64xf32> {
  // expected-error @below {{'hkg.reduce' op schedule knob 'axis_split' = 4 exceeds the 3 rows of the reduced axis; expected at most 3}}
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<axis_split = 4>} : tensor<5x3x64xf32> -> tensor<5x64xf32>
  return %0 : tensor<5x64xf32>
}

// -----

// 16 values of the cluster's splits only.
func.func @axis_split_not_listed(%x: tensor<5x300x64xf32>) -> tensor<5x300x64xf32> {
  // expected-error @below {{axis_split}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<axis_split = 16>} : tensor<5x300x64xf32> -> tensor<5x300x64xf32>
  return %0 : tensor<5x300x64xf32>
}

// -----

// A split that makes the cached share fit: 4096 rows over 4 workgroups of
// 64 thread rows, 16 rows of 8 bf16 each (64 registers).
func.func @axis_split_fits(%x: tensor<2x4096x64xbf16>) -> tensor<2x4096x64xbf16> {
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) {schedule = #hkg.schedule<column_cache = registers, axis_split = 4, rows_per_block = 64, threads = 256, vector_width = 8>} : tensor<2x4096x64xbf16> -> tensor<2x4096x64xbf16>
  return %0 : tensor<2x4096x64xbf16>
}
