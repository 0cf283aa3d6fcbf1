// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// row_steps = 4: each workgroup handles 4 rows (rows_per_block = 1) in turn,
// 64 / 4 = 16 workgroups. The first row's 4 vectors are loaded before the
// loop; each iteration loads the next row's (row + 1, clamped to the last:
// an L2 hit on the last iteration), computes and stores the current row
// from the carried values (kept packed as bf16), and yields the next row's.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-SAME:    known_grid_size = array<i32: 16, 1, 1>
// CHECK:         %[[BASE:.*]] = arith.muli %block_id_x, %c4 : index
// CHECK:         %[[V0:.*]] = vector.load %arg0[%{{.*}}, %{{.*}}] {{.*}} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         %[[V1:.*]] = vector.load %arg0
// CHECK:         %[[V2:.*]] = vector.load %arg0
// CHECK:         %[[V3:.*]] = vector.load %arg0
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C0:.*]] = %[[V0]], %{{.*}} = %[[V1]], %{{.*}} = %[[V2]], %{{.*}} = %[[V3]]) -> (vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>) {
// CHECK:           %[[ROW:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK:           %[[NEXT:.*]] = arith.addi %[[ROW]], %c1{{.*}} : index
// CHECK:           arith.minui %[[NEXT]], %c63 : index
// CHECK-COUNT-4:   vector.load %arg0[%{{.*}}, %{{.*}}] {{.*}} : memref<64x8192xbf16>, vector<8xbf16>
// the current row: from the carried values, no other load of the input
// CHECK-NOT:       vector.load %arg0
// CHECK:           gpu.shuffle
// CHECK-NOT:       vector.load %arg0
// CHECK:           vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}]
// CHECK-NOT:       vector.load %arg0
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>
func.func @steps(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, row_steps = 4>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// rmsnorm the same way.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    known_grid_size = array<i32: 32, 1, 1>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>) {
// CHECK:           scf.yield {{.*}} : vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>
func.func @rms_steps(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, row_steps = 2>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}
