// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// row_cache = registers with a bf16 row: the later passes convert the cached
// bf16 words again with integer instructions (shift / mask of the loaded
// i32 words), so no f32 copy of the row lives across the reduction, and the
// last pass issues the weight loads in groups of 2 vectors (half the row's
// 4), each group before its stores.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<64x8192xbf16>, %[[W:[a-z0-9]+]]: memref<8192xbf16>
// CHECK-COUNT-4: vector.load %{{.*}} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         gpu.barrier
// CHECK-NOT:     arith.extf
// CHECK-NOT:     vector.store
// CHECK-COUNT-2: vector.load %[[W]]
// CHECK-NOT:     arith.extf
// CHECK:         %[[WORDS:.*]] = vector.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK:         arith.shli %[[WORDS]]
// CHECK:         arith.andi %[[WORDS]]
// CHECK:         vector.interleave
// CHECK-NOT:     arith.extf
// CHECK-NOT:     vector.load %[[W]]
// CHECK:         vector.store
// CHECK-NOT:     vector.load %[[W]]
// CHECK:         vector.store
// CHECK-COUNT-2: vector.load %[[W]]
// CHECK-NOT:     arith.extf
// CHECK:         vector.store
// CHECK-NOT:     vector.load %[[W]]
// CHECK:         vector.store
// CHECK-NOT:     arith.extf
// CHECK-NOT:     vector.store
// CHECK:         gpu.return
func.func @rms(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// layernorm with `hkg.row_bf16_cache` (its default caches f32 values, next
// test): the variance pass converts the cached words in the word form, the
// output pass in the other integer form (i16 pairs (0, bf16): not merged
// with the variance pass's conversion); column loads in groups of 1 slot x
// 2 columns, each before its store.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<64x8192xbf16>, %[[W:[a-z0-9]+]]: memref<8192xbf16>, %[[B:[a-z0-9]+]]: memref<8192xbf16>
// CHECK:         %[[ROW0:.*]] = vector.load %[[X]]
// CHECK:         arith.extf %[[ROW0]] : vector<8xbf16> to vector<8xf32>
// CHECK:         gpu.barrier
// CHECK:         gpu.barrier
// CHECK:         vector.bitcast %[[ROW0]] : vector<8xbf16> to vector<4xi32>
// CHECK:         gpu.barrier
// CHECK:         gpu.barrier
// CHECK-NOT:     vector.store
// CHECK:         vector.load %[[W]]
// CHECK-NEXT:    vector.load %[[B]]
// CHECK-NOT:     vector.load
// CHECK:         vector.bitcast %[[ROW0]] : vector<8xbf16> to vector<8xi16>
// CHECK:         vector.interleave {{.*}} vector<8xi16>
// CHECK-NOT:     arith.extf
// CHECK-NOT:     vector.load
// CHECK:         vector.store
// CHECK-NEXT:    vector.load %[[W]]
// CHECK-NEXT:    vector.load %[[B]]
// CHECK-NOT:     vector.load
// CHECK:         vector.store
// CHECK-NEXT:    vector.load %[[W]]
// CHECK-NEXT:    vector.load %[[B]]
// CHECK-NOT:     vector.load
// CHECK:         vector.store
// CHECK-NEXT:    vector.load %[[W]]
// CHECK-NEXT:    vector.load %[[B]]
// CHECK-NOT:     vector.load
// CHECK:         vector.store
// CHECK-NOT:     vector.store
// CHECK:         gpu.return
func.func @ln(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {hkg.row_bf16_cache, schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// Softmax and layernorm cache a bf16 row as f32 values by default (measured
// faster on the H200, Reductions.cpp): one conversion per element, in the
// first pass, none later.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK:         %[[ROW0:.*]] = vector.load %{{.*}} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         arith.extf %[[ROW0]] : vector<8xbf16> to vector<8xf32>
// CHECK:         gpu.barrier
// CHECK-NOT:     vector.bitcast %[[ROW0]]
// CHECK:         vector.store
// CHECK:         gpu.return
func.func @ln_default(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK:         arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK:         gpu.barrier
// CHECK-NOT:     vector.bitcast %{{.*}} : vector<8xbf16>
// CHECK-NOT:     arith.shli
// CHECK:         math.exp
// CHECK:         vector.store
// CHECK:         gpu.return
func.func @softmax_bf16_default(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers, online = 0>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// The experimental `hkg.row_f32_cache` keeps the first pass's conversions:
// the last pass converts with arith.extf (merged with the first pass's by
// CSE later), as does an f16 row (no integer conversion for f16).

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK:         gpu.barrier
// CHECK-NOT:     arith.shli
// CHECK:         arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK:         vector.store
func.func @rms_f32_cache(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.row_f32_cache, schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK:         gpu.barrier
// CHECK-NOT:     arith.shli
// CHECK:         arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK:         math.exp
// CHECK:         vector.store
func.func @softmax_f16(%x: tensor<64x8192xf16>) -> tensor<64x8192xf16> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers, online = 1>} : tensor<64x8192xf16> -> tensor<64x8192xf16>
  return %0 : tensor<64x8192xf16>
}
}

// -----

// Rows too long for f32 words in a 1024-thread NVIDIA workgroup (64 elements
// a thread, 64 registers each) stay packed without the attribute
// (packsCachedRow): softmax's later passes convert the cached bf16 words
// with integer shifts, as rmsnorm's do. At 32 elements a thread
// (@softmax_bf16_default above) they hold f32 values.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK:         %[[ROW0:.*]] = vector.load %{{.*}} : memref<1024x65536xbf16>, vector<8xbf16>
// CHECK:         gpu.barrier
// CHECK:         vector.bitcast %[[ROW0]] : vector<8xbf16> to vector<4xi32>
// CHECK:         math.exp
// CHECK:         vector.store
// CHECK:         gpu.return
func.func @softmax_bf16_long(%x: tensor<1024x65536xbf16>) -> tensor<1024x65536xbf16> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<vector_width = 8, threads = 1024, rows_per_block = 1, unroll = 4, row_cache = registers, online = 0>} : tensor<1024x65536xbf16> -> tensor<1024x65536xbf16>
  return %0 : tensor<1024x65536xbf16>
}
}
