// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// rmsnorm over axis 1 of [2, 1024, 64] bf16 on sm_90: the default caches
// the column strip in registers (column_cache = registers) and splits the
// 1024 rows over a cluster of two workgroups (axis_split = 2), each with 512
// rows: 64 thread rows of 8 rows each, 4 threads of 8 columns across. Every
// thread loads its 8 rows once, up front; the sum of squares is folded from
// registers, combined over the thread rows (shuffles, then LDS), then over
// the cluster (each workgroup's total in LDS, a cluster barrier, every
// workgroup reading both through mapa in rank order, a second barrier);
// the rewrite stores from registers: one global read per element.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0
// CHECK-SAME:    (%[[IN:.*]]: memref<2x1024x64xbf16>, %[[W:.*]]: memref<1024xbf16>, %[[OUT:.*]]: memref<2x1024x64xbf16>) workgroup(%[[LDS:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[XCH:.*]] : memref<1x32xf32, #gpu.address_space<workgroup>>
// CHECK-SAME:    hkg.schedule = #hkg.schedule<axis_split = 2, column_cache = registers, occupancy = 0, rows_per_block = 64, threads = 256, unroll = 4, vector_width = 8>
// CHECK-SAME:    known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME:    known_cluster_size = array<i32: 2, 1, 1>
// CHECK-SAME:    known_grid_size = array<i32: 8, 1, 1>
// CHECK:         %[[RANK:.*]] = arith.remui %{{.*}}, %c2 : index
// CHECK:         %[[BEGIN:.*]] = arith.muli %[[RANK]], %c512 : index
// CHECK-COUNT-8: vector.load %[[IN]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<2x1024x64xbf16>, vector<8xbf16>
// CHECK-NOT:     vector.load %[[IN]]
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:         gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK:         vector.store %{{.*}}, %[[LDS]]
// CHECK:         gpu.barrier
// CHECK:         vector.store %{{.*}}, %[[XCH]]
// CHECK:         nvvm.cluster.arrive
// CHECK-NEXT:    nvvm.cluster.wait
// CHECK:         nvvm.mapa
// CHECK:         nvvm.mapa
// CHECK:         nvvm.cluster.arrive
// CHECK-NEXT:    nvvm.cluster.wait
// CHECK:         math.rsqrt %{{.*}} : vector<8xf32>
// CHECK-NOT:     vector.load %[[IN]]
// CHECK-COUNT-8: vector.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : memref<2x1024x64xbf16>, vector<8xbf16>
// CHECK-NOT:     vector.load %[[IN]]
// CHECK:         gpu.return
func.func @rmsnorm_cluster(%x: tensor<2x1024x64xbf16>, %w: tensor<1024xbf16>) -> tensor<2x1024x64xbf16> {
  %y = hkg.rmsnorm %x axes = [1] weight(%w : tensor<1024xbf16>) eps(1.0e-06) : tensor<2x1024x64xbf16> -> tensor<2x1024x64xbf16>
  return %y : tensor<2x1024x64xbf16>
}
}

// -----

// layernorm over the 96 channels of [4, 96, 1000] bf16 on gfx942 (no
// clusters): the strip fits one workgroup (axis_split = 1): 16 thread rows
// of 6 rows each, 4 threads of 8 columns across (one wave of 64: the thread
// rows meet by shuffles alone, no LDS). The mean and the squared deviations
// are both folded from the cached rows (a bf16 row widened again at each
// pass: extf, then the bits), and the rewrite reads them too.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0
// CHECK-SAME:    hkg.schedule = #hkg.schedule<axis_split = 1, column_cache = registers, occupancy = 0, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 8>
// CHECK-NOT:     workgroup(
// CHECK-COUNT-6: vector.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x96x1000xbf16>, vector<8xbf16>
// CHECK-NOT:     vector.load %arg0
// CHECK:         arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK:         gpu.shuffle  xor %{{.*}}, %c4_i32, %c64_i32 : f32
// CHECK-NOT:     gpu.barrier
// CHECK-NOT:     vector.load %arg0
// CHECK:         vector.interleave
// CHECK:         math.rsqrt
// CHECK-NOT:     vector.load %arg0
// CHECK:         vector.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : memref<4x96x1000xbf16>, vector<8xbf16>
// CHECK-NOT:     vector.load %arg0
// CHECK:         gpu.return
func.func @layernorm_cached(%x: tensor<4x96x1000xbf16>, %w: tensor<96xbf16>, %b: tensor<96xbf16>) -> tensor<4x96x1000xbf16> {
  %y = hkg.layernorm %x axes = [1] weight(%w : tensor<96xbf16>) bias(%b : tensor<96xbf16>) eps(1.0e-05) : tensor<4x96x1000xbf16> -> tensor<4x96x1000xbf16>
  return %y : tensor<4x96x1000xbf16>
}
}

// -----

// argmax over axis 0 of [8192, 16384] bf16 on sm_90 (one pass, no cache),
// the axis split over a cluster of 4 by an explicit schedule (not the
// default: measured slower), workgroup `rank` folding rows [2048 rank, 2048
// (rank + 1)); the (value, index) states meet over the cluster and rank 0
// stores the i64 indices.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_reduce_0
// CHECK-SAME:    hkg.schedule = #hkg.schedule<axis_split = 4, occupancy = 0, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 8>
// CHECK-SAME:    known_cluster_size = array<i32: 4, 1, 1>
// CHECK-SAME:    known_grid_size = array<i32: 1024, 1, 1>
// CHECK:         %[[RANK:.*]] = arith.remui %{{.*}}, %c4 : index
// CHECK:         %[[BEGIN:.*]] = arith.muli %[[RANK]], %c2048 : index
// CHECK:         %[[END:.*]] = arith.minui %{{.*}}, %c8192{{.*}} : index
// CHECK:         scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %c128
// CHECK:         nvvm.cluster.arrive
// CHECK-COUNT-8: nvvm.mapa
// CHECK:         nvvm.cluster.arrive
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]], %c0{{.*}} : index
// CHECK:         %[[STORE:.*]] = arith.andi %{{.*}}, %[[FIRST]] : i1
// CHECK:         scf.if %[[STORE]]
// CHECK:           vector.store %{{.*}} : memref<1x1x16384xi64>, vector<8xi64>
func.func @argmax_cluster(%x: tensor<8192x16384xbf16>) -> tensor<16384xi64> {
  %y = hkg.reduce argmax %x axes = [0] {schedule = #hkg.schedule<axis_split = 4, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 8>} : tensor<8192x16384xbf16> -> tensor<16384xi64>
  return %y : tensor<16384xi64>
}
}
