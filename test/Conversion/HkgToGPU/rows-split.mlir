// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// A few long rows on sm_90 (torch's 3-D LayerNorm: 16 rows of 131072 f32)
// split over a cluster of 8 workgroups (row_split = 8: 16 x 8 = 128
// workgroups, within the 132 SMs; the default until the workspace split
// measured faster, which the default now takes: rows-split-workspace.mlir,
// Target/NVVM/row-split.test), workgroup rank = block id %
// 8 owning the slice of vectors [rank * 4096, ...) of row block id / 8.
// Each thread keeps its 4 vectors of the slice in registers (one read of
// the input); each row reduction (the mean, then the squared deviations)
// goes over the threads, then over the cluster: the threads park the
// workgroup's partial in LDS, a cluster barrier, every workgroup reads the
// 8 partials through mapa in rank order, a second barrier. Each workgroup
// then writes its own slice.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0
// CHECK-SAME:    (%[[IN:.*]]: memref<16x131072xf32>, %{{.*}}: memref<131072xf32>, %{{.*}}: memref<131072xf32>, %[[OUT:.*]]: memref<16x131072xf32>) workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[XSUM:.*]] : memref<1x1xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[XSQ:.*]] : memref<1x1xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME:    hkg.schedule = #hkg.schedule<bulk_store = 0, moments = separate, occupancy = 0, row_cache = registers, row_split = 8, row_split_reduce = cluster, row_steps = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 4>
// CHECK-SAME:    known_block_size = array<i32: 1024, 1, 1>
// CHECK-SAME:    known_cluster_size = array<i32: 8, 1, 1>
// CHECK-SAME:    known_grid_size = array<i32: 128, 1, 1>
// CHECK:         %[[BID:.*]] = gpu.block_id  x
// CHECK:         %[[RANK:.*]] = arith.remui %[[BID]], %c8 : index
// CHECK:         %[[GROUP:.*]] = arith.divui %[[BID]], %c8 : index
// CHECK:         %[[BASE:.*]] = arith.muli %[[RANK]], %c4096 : index
// CHECK:         %[[V0:.*]] = arith.addi %{{.*}}, %[[BASE]] : index
// CHECK:         %[[C0:.*]] = arith.muli %[[V0]], %c4 : index
// CHECK:         vector.load %[[IN]][%{{.*}}, %[[C0]]] {alignment = 16 : i64, nontemporal = true} : memref<16x131072xf32>, vector<4xf32>
// CHECK-COUNT-3: vector.load %[[IN]]
// CHECK-NOT:     vector.load %[[IN]]
// CHECK:         gpu.barrier
// CHECK:         memref.store %{{.*}}, %[[XSUM]][%{{.*}}, %{{.*}}]
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK:         memref.extract_aligned_pointer_as_index %[[XSUM]]
// CHECK:         nvvm.mapa %{{.*}}, %c0_i32
// CHECK:         nvvm.mapa %{{.*}}, %c7_i32
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK:         memref.store %{{.*}}, %[[XSQ]][%{{.*}}, %{{.*}}]
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK:         nvvm.mapa %{{.*}}, %c7_i32
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-NOT:     vector.load %[[IN]]
// CHECK-COUNT-4: vector.store %{{.*}}, %[[OUT]]
func.func @layernorm_few_long_rows(%x: tensor<16x131072xf32>, %w: tensor<131072xf32>, %b: tensor<131072xf32>) -> tensor<16x131072xf32> {
  %0 = hkg.layernorm %x weight(%w : tensor<131072xf32>) bias(%b : tensor<131072xf32>) eps(1.0e-05) {schedule = #hkg.schedule<bulk_store = 0, moments = separate, occupancy = 0, row_cache = registers, row_split = 8, row_split_reduce = cluster, row_steps = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 4>} : tensor<16x131072xf32> -> tensor<16x131072xf32>
  return %0 : tensor<16x131072xf32>
}
}

// -----

// Many rows keep one workgroup per row (128 x 8192 f32: 128 x 2 > 132 SMs).

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0
// CHECK-SAME:    row_split = 1
// CHECK-NOT:     known_cluster_size
// CHECK-SAME:    known_grid_size = array<i32: 128, 1, 1>
// CHECK-NOT:     nvvm.cluster
func.func @rmsnorm_many_rows(%x: tensor<128x8192xf32>) -> tensor<128x8192xf32> {
  %0 = hkg.rmsnorm %x eps(1.0e-06) : tensor<128x8192xf32> -> tensor<128x8192xf32>
  return %0 : tensor<128x8192xf32>
}
}

// -----

// log_softmax over 3 rows of 1001 (odd: vector_width = 1) split in 4
// slices of 251 elements: the last slice is short (248), so each slot is
// guarded both by the slice (thread 250 < 251) and by the row (< 1001),
// loads clamped to the row's last element. The statistics combine over the
// cluster: the max, then the sum of exp(x - max) (two passes over
// registers: online = 0 by default there).

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0
// CHECK-SAME:    known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME:    known_cluster_size = array<i32: 4, 1, 1>
// CHECK-SAME:    known_grid_size = array<i32: 12, 1, 1>
// CHECK:         %[[RANK:.*]] = arith.remui %{{.*}}, %c4 : index
// CHECK:         %[[BASE:.*]] = arith.muli %[[RANK]], %c251 : index
// CHECK:         %[[IN_SLICE:.*]] = arith.cmpi ult, %[[V:.*]], %c251{{.*}} : index
// CHECK-NEXT:    %[[G:.*]] = arith.addi %[[V]], %[[BASE]] : index
// CHECK:         %[[IN_ROW:.*]] = arith.cmpi ule, %[[G]], %c1000{{.*}} : index
// CHECK:         arith.andi %[[IN_SLICE]], %[[IN_ROW]] : i1
// CHECK:         arith.minui %[[G]], %c1000{{.*}} : index
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK:         nvvm.mapa %{{.*}}, %c3_i32
// CHECK:         math.exp
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK:         math.log
func.func @log_softmax_split_odd(%x: tensor<3x1001xf32>) -> tensor<3x1001xf32> {
  %0 = hkg.softmax log %x axis(1) {schedule = #hkg.schedule<row_split = 4, threads = 256, row_cache = registers>} : tensor<3x1001xf32> -> tensor<3x1001xf32>
  return %0 : tensor<3x1001xf32>
}
}
