// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// The experimental `hkg.prefetch_columns` (row_cache = registers): rmsnorm's
// weight vectors are loaded next to the row's loads, before the row
// reduction's barriers, and not again after them.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<64x2048xbf16>, %[[W:[a-z0-9]+]]: memref<2048xbf16>
// CHECK:         vector.load %[[X]]
// CHECK-NEXT:    vector.load %[[W]]
// CHECK:         vector.load %[[X]]
// CHECK-NEXT:    vector.load %[[W]]
// CHECK:         gpu.shuffle
// CHECK:         gpu.barrier
// CHECK-NOT:     vector.load %[[W]]
// CHECK:         vector.store
// CHECK-NOT:     vector.load %[[W]]
// CHECK:         vector.store
// CHECK-NOT:     vector.load %[[W]]
// CHECK:         gpu.return
func.func @rms(%x: tensor<64x2048xbf16>, %w: tensor<2048xbf16>) -> tensor<64x2048xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<2048xbf16>) eps(1.0e-06) {hkg.prefetch_columns, schedule = #hkg.schedule<vector_width = 8, threads = 128, rows_per_block = 1, unroll = 2, row_cache = registers>} : tensor<64x2048xbf16> -> tensor<64x2048xbf16>
  return %0 : tensor<64x2048xbf16>
}
}

// -----

// Without it, the weight is loaded after the reduction.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<64x2048xbf16>, %[[W:[a-z0-9]+]]: memref<2048xbf16>
// CHECK-NOT:     vector.load %[[W]]
// CHECK:         gpu.barrier
// CHECK:         vector.load %[[W]]
// CHECK:         vector.store
func.func @rms(%x: tensor<64x2048xbf16>, %w: tensor<2048xbf16>) -> tensor<64x2048xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<2048xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<vector_width = 8, threads = 128, rows_per_block = 1, unroll = 2, row_cache = registers>} : tensor<64x2048xbf16> -> tensor<64x2048xbf16>
  return %0 : tensor<64x2048xbf16>
}
}

// -----

// layernorm: weight and bias, both before the reductions.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<64x2048xbf16>, %[[W:[a-z0-9]+]]: memref<2048xbf16>, %[[B:[a-z0-9]+]]: memref<2048xbf16>
// CHECK:         vector.load %[[X]]
// CHECK-NEXT:    vector.load %[[W]]
// CHECK:         vector.load %[[B]]
// CHECK:         gpu.barrier
// CHECK-NOT:     vector.load %[[W]]
// CHECK-NOT:     vector.load %[[B]]
// CHECK:         gpu.return
func.func @ln(%x: tensor<64x2048xbf16>, %w: tensor<2048xbf16>, %b: tensor<2048xbf16>) -> tensor<64x2048xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<2048xbf16>) bias(%b : tensor<2048xbf16>) eps(1.0e-05) {hkg.prefetch_columns, schedule = #hkg.schedule<vector_width = 8, threads = 128, rows_per_block = 1, unroll = 2, row_cache = registers>} : tensor<64x2048xbf16> -> tensor<64x2048xbf16>
  return %0 : tensor<64x2048xbf16>
}
}
