// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// hkg.layernorm over one inner axis (the 96 channels of [4, 96, 1000]):
// down the columns, with the multi-pass schedule pinned (column_cache =
// none, the fallback where the strip does not fit). The mean, then the
// squared deviations, each folded down the column (a global read each) and
// combined over the thread rows (xor shuffles within a wave, then one row
// per wave in an LDS buffer of its own); then every row re-read and
// rewritten, the weight and bias one scalar per row (at the row's index
// along the axis), broadcast over the column vector.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0
// CHECK-SAME:    (%[[IN:.*]]: memref<4x96x1000xbf16>, %[[W:.*]]: memref<96xbf16>, %[[B:.*]]: memref<96xbf16>, %[[OUT:.*]]: memref<4x96x1000xbf16>) workgroup(%[[LDS:.*]] : memref<4x64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LDS2:.*]] : memref<4x64xf32, #gpu.address_space<workgroup>>
// CHECK-SAME:    hkg.schedule = #hkg.schedule<axis_split = 1, column_cache = none, occupancy = 0, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 8>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c96{{.*}} step %c128{{.*}} iter_args
// CHECK:           vector.load %[[IN]]
// CHECK:         gpu.shuffle  xor
// CHECK:         vector.store %{{.*}}, %[[LDS]]
// CHECK:         gpu.barrier
// CHECK:         %[[SUM:.*]] = scf.for %{{.*}} = %c1{{.*}} to %c4{{.*}}
// CHECK:         %[[MEAN:.*]] = arith.mulf %[[SUM]], %{{.*}} : vector<8xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c96{{.*}} step %c128{{.*}} iter_args
// CHECK:           vector.load %[[IN]]
// CHECK:           %[[D:.*]] = arith.subf %{{.*}}, %[[MEAN]] : vector<8xf32>
// CHECK:           arith.mulf %[[D]], %[[D]] : vector<8xf32>
// CHECK:         vector.store %{{.*}}, %[[LDS2]]
// CHECK:         gpu.barrier
// CHECK:         %[[SQ:.*]] = scf.for %{{.*}} = %c1{{.*}} to %c4{{.*}}
// CHECK:         %[[VAR:.*]] = arith.mulf %[[SQ]], %{{.*}} : vector<8xf32>
// CHECK:         %[[RSTD:.*]] = math.rsqrt %{{.*}} : vector<8xf32>
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %c96{{.*}} step %c32
// CHECK:           %[[X:.*]] = vector.load %[[IN]][%{{.*}}, %[[ROW]], %{{.*}}]
// CHECK:           %[[XC:.*]] = arith.subf %{{.*}}, %[[MEAN]] : vector<8xf32>
// CHECK:           %[[N:.*]] = arith.mulf %[[XC]], %[[RSTD]] : vector<8xf32>
// CHECK:           %[[WS:.*]] = memref.load %[[W]][%[[ROW]]] : memref<96xbf16>
// CHECK:           %[[WF:.*]] = arith.extf %[[WS]] : bf16 to f32
// CHECK:           %[[WV:.*]] = vector.broadcast %[[WF]] : f32 to vector<8xf32>
// CHECK:           %[[Y:.*]] = arith.mulf %[[N]], %[[WV]] : vector<8xf32>
// CHECK:           %[[BS:.*]] = memref.load %[[B]][%[[ROW]]] : memref<96xbf16>
// CHECK:           arith.addf %[[Y]], %{{.*}} : vector<8xf32>
// CHECK:           vector.store %{{.*}}, %[[OUT]][%{{.*}}, %[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<4x96x1000xbf16>, vector<8xbf16>
func.func @layernorm_channels(%x: tensor<4x96x1000xbf16>, %w: tensor<96xbf16>, %b: tensor<96xbf16>) -> tensor<4x96x1000xbf16> {
  %y = hkg.layernorm %x axes = [1] weight(%w : tensor<96xbf16>) bias(%b : tensor<96xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<axis_split = 1, column_cache = none, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 8>} : tensor<4x96x1000xbf16> -> tensor<4x96x1000xbf16>
  return %y : tensor<4x96x1000xbf16>
}
}

// -----

// rmsnorm over axis 0 of [7, 33] f32, no weight, an explicit schedule: one
// thread row (no LDS, no barrier), 33 columns in scalar vectors; the mean
// of squares without centering, then the rewrite.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0
// CHECK-SAME:    (%[[IN:.*]]: memref<7x33xf32>, %[[OUT:.*]]: memref<7x33xf32>)
// CHECK-NOT:     workgroup(
// CHECK-SAME:    known_grid_size = array<i32: 2, 1, 1>
// CHECK:         arith.cmpi ult, %{{.*}}, %c33 : index
// CHECK:         scf.for
// CHECK:           %[[X:.*]] = vector.load
// CHECK:           arith.mulf %[[X]], %[[X]] : vector<1xf32>
// CHECK-NOT:     gpu.barrier
// CHECK:         math.rsqrt %{{.*}} : vector<1xf32>
// CHECK-NOT:     memref.load
// CHECK:         scf.for
// CHECK:           vector.store
func.func @rmsnorm_axis0(%x: tensor<7x33xf32>) -> tensor<7x33xf32> {
  %y = hkg.rmsnorm %x axes = [0] eps(1.0e-06) {schedule = #hkg.schedule<threads = 32, rows_per_block = 1, vector_width = 1, unroll = 2, column_cache = none>} : tensor<7x33xf32> -> tensor<7x33xf32>
  return %y : tensor<7x33xf32>
}
}

// -----

// Over the last two dims of [4, 33, 64]: rows of 33 x 64 = 2112 elements,
// the [33, 64] weight and bias read at the row's flat column.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0
// CHECK-SAME:    (%[[IN:.*]]: memref<4x33x64xf16>, %[[W:.*]]: memref<33x64xf16>, %[[B:.*]]: memref<33x64xf16>, %[[OUT:.*]]: memref<4x33x64xf16>)
// CHECK-SAME:    known_grid_size = array<i32: 4, 1, 1>
// CHECK-DAG:     %[[WF:.*]] = memref.reinterpret_cast %[[W]] to offset: [0], sizes: [2112], strides: [1] : memref<33x64xf16> to memref<2112xf16>
// CHECK-DAG:     %[[BF:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [2112], strides: [1] : memref<33x64xf16> to memref<2112xf16>
// CHECK-DAG:     %[[ROWS:.*]] = memref.reinterpret_cast %[[IN]] to offset: [0], sizes: [4, 2112], strides: [2112, 1]
// CHECK:         math.rsqrt
// CHECK:         %[[O:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [4, 2112], strides: [2112, 1]
// CHECK:         %[[WV:.*]] = vector.load %[[WF]][%[[COL:.*]]] {alignment = 16 : i64} : memref<2112xf16>, vector<8xf16>
// CHECK:         vector.load %[[BF]][%[[COL]]] {alignment = 16 : i64} : memref<2112xf16>, vector<8xf16>
// CHECK:         vector.store %{{.*}}, %[[O]][%{{.*}}, %[[COL]]]
func.func @layernorm_last_two(%x: tensor<4x33x64xf16>, %w: tensor<33x64xf16>, %b: tensor<33x64xf16>) -> tensor<4x33x64xf16> {
  %y = hkg.layernorm %x axes = [1, 2] weight(%w : tensor<33x64xf16>) bias(%b : tensor<33x64xf16>) eps(1.0e-05) : tensor<4x33x64xf16> -> tensor<4x33x64xf16>
  return %y : tensor<4x33x64xf16>
}
}

// -----

// rmsnorm without a weight on rows: no weight argument, no column loads;
// the row scaled by its rsqrt only.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0
// CHECK-SAME:    (%[[IN:.*]]: memref<8x1000xbf16>, %[[OUT:.*]]: memref<8x1000xbf16>)
// CHECK:         %[[R:.*]] = math.rsqrt %{{.*}} : f32
// CHECK:         %[[RV:.*]] = vector.broadcast %[[R]]
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %{{.*}}, %[[RV]] : vector<8xf32>
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %[[Y]] : vector<8xf32> to vector<8xbf16>
// CHECK-NEXT:    vector.store %[[T]], %[[OUT]]
func.func @rmsnorm_no_weight(%x: tensor<8x1000xbf16>) -> tensor<8x1000xbf16> {
  %y = hkg.rmsnorm %x eps(1.0e-06) : tensor<8x1000xbf16> -> tensor<8x1000xbf16>
  return %y : tensor<8x1000xbf16>
}
}
