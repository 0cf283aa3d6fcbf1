// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=sm_90 --verify-diagnostics | FileCheck %s

// row_cache = registers budgets the row as the lowering keeps it: softmax
// and layernorm hold the f32 conversions (4 bytes an element), rmsnorm keeps
// a bf16 row packed (2 bytes). 8192 elements over 64 threads: 128 per thread,
// 128 registers as f32 (over the 64 allowed), 64 packed.

func.func @softmax_f32_copy(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error @below {{schedule knob 'row_cache' = registers needs 128 registers per thread for rows of 8192 elements (vector_width = 8, 64 threads per row); expected at most 64}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_cache = registers, rows_per_block = 1, threads = 64, unroll = 4, vector_width = 8>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}

// -----

// CHECK-LABEL: func.func @rmsnorm_packed
// CHECK: row_cache = registers, rows_per_block = 1, threads = 64
func.func @rmsnorm_packed(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<row_cache = registers, rows_per_block = 1, threads = 64, unroll = 4, vector_width = 8>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
