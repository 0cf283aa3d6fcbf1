// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// The experimental hkg.streaming_access: the row's global loads and the
// output's stores are nontemporal (used once); the weight's are not.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<64x8192xbf16>, %[[W:[a-z0-9]+]]: memref<8192xbf16>
// CHECK-COUNT-4: vector.load %[[X]]{{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         vector.load %[[W]][{{.*}}] {alignment = 16 : i64} : memref<8192xbf16>, vector<8xbf16>
// CHECK:         vector.store {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK-NOT:     vector.load %[[X]]
func.func @rms(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.streaming_access, schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// Elementwise: the full-size input and the output stream; the broadcast
// bias (reused by every row) does not.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<256x8192xbf16>, %[[B:[a-z0-9]+]]: memref<8192xbf16>
// CHECK:         vector.load %{{.*}}[{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<2097152xbf16>
// CHECK:         vector.load %{{.*}}[{{.*}}] {alignment = 16 : i64} : memref<8192xbf16>
// CHECK:         vector.store {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<2097152xbf16>
func.func @bias_exp(%x: tensor<256x8192xbf16>, %b: tensor<8192xbf16>) -> tensor<256x8192xbf16> {
  %0 = hkg.elementwise %x, %b {hkg.streaming_access, schedule = #hkg.schedule<threads = 256, unroll = 1, vector_width = 8>} : tensor<256x8192xbf16>, tensor<8192xbf16> -> tensor<256x8192xbf16> {
  ^bb0(%a: bf16, %c: bf16):
    %af = arith.extf %a : bf16 to f32
    %cf = arith.extf %c : bf16 to f32
    %s = arith.addf %af, %cf : f32
    %o = arith.truncf %s : f32 to bf16
    hkg.yield %o : bf16
  }
  return %0 : tensor<256x8192xbf16>
}
}
