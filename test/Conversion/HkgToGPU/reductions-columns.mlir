// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// A sum over the middle axis of [8, 512, 64] bf16: down the columns. The
// default covers the 64 columns with 8 threads of 8-element vectors and
// sends 32 thread rows down the 512 rows (256 threads), 4 loads in flight
// each (rows past the end clamped and masked). The 8 thread rows of a wave
// (64 lanes) meet by xor shuffles at lane distances 8, 16 and 32, one row
// per wave in LDS [4, 64] f32, and the first thread row stores. One
// workgroup per outer index and column tile: 8 x 1 (no axis split on
// gfx942: no clusters).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_reduce_0
// CHECK-SAME:    (%[[IN:.*]]: memref<8x512x64xbf16>, %{{.*}}: memref<8x64xbf16>) workgroup(%[[LDS:.*]] : memref<4x64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME:    hkg.schedule = #hkg.schedule<axis_split = 1, occupancy = 0, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 8>
// CHECK-SAME:    known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME:    known_grid_size = array<i32: 8, 1, 1>
// CHECK:         scf.if %{{.*}} -> (vector<8xf32>)
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c512{{.*}} step %c128{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK:             %[[R0:.*]] = arith.minui %{{.*}}, %c511{{.*}} : index
// CHECK:             vector.load %[[IN]][%{{.*}}, %[[R0]], %{{.*}}] {alignment = 16 : i64} : memref<8x512x64xbf16>, vector<8xbf16>
// CHECK:             %[[R1:.*]] = arith.minui %{{.*}}, %c511{{.*}} : index
// CHECK:             vector.load %[[IN]][%{{.*}}, %[[R1]], %{{.*}}] {alignment = 16 : i64} : memref<8x512x64xbf16>, vector<8xbf16>
// CHECK:             %[[R2:.*]] = arith.minui %{{.*}}, %c511{{.*}} : index
// CHECK:             vector.load %[[IN]][%{{.*}}, %[[R2]], %{{.*}}] {alignment = 16 : i64} : memref<8x512x64xbf16>, vector<8xbf16>
// CHECK:             %[[R3:.*]] = arith.minui %{{.*}}, %c511{{.*}} : index
// CHECK:             vector.load %[[IN]][%{{.*}}, %[[R3]], %{{.*}}] {alignment = 16 : i64} : memref<8x512x64xbf16>, vector<8xbf16>
// CHECK:             arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:             arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:         gpu.shuffle  xor %{{.*}}, %c8_i32, %c64_i32 : f32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32, %c64_i32{{.*}} : f32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c32_i32, %c64_i32{{.*}} : f32
// CHECK:         vector.store %{{.*}}, %[[LDS]][%{{.*}}, %{{.*}}] : memref<4x64xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK:         gpu.barrier
// CHECK:         scf.for %{{.*}} = %c1{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args
// CHECK:           vector.load %[[LDS]]
// CHECK:         arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK:         vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c0{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<8x1x64xbf16>, vector<8xbf16>
func.func @sum_middle(%x: tensor<8x512x64xbf16>) -> tensor<8x64xbf16> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<8x512x64xbf16> -> tensor<8x64xbf16>
  return %0 : tensor<8x64xbf16>
}
}

// -----

// Max over the leading axis, keeping it, with an explicit schedule: one
// thread row (no LDS, no barrier), 64 threads of 4-element f32 vectors over
// a 1000-column row (4 column tiles; the last one partly guarded).

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_reduce_0
// CHECK-SAME:    known_grid_size = array<i32: 4, 1, 1>
// CHECK-NOT:     workgroup(
// CHECK:         arith.cmpi ult, %{{.*}}, %c1000 : index
// CHECK:         arith.maxnumf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT:     gpu.barrier
// CHECK:         vector.store %{{.*}} {alignment = 16 : i64} : memref<1x1x1000xf32>, vector<4xf32>
func.func @max_leading_keepdim(%x: tensor<77x1000xf32>) -> tensor<1x1000xf32> {
  %0 = hkg.reduce max %x axes = [0] {schedule = #hkg.schedule<threads = 64, rows_per_block = 1, vector_width = 4, unroll = 2>} : tensor<77x1000xf32> -> tensor<1x1000xf32>
  return %0 : tensor<1x1000xf32>
}
}

// -----

// Softmax over axis 0 of [64, 128] f32: down the columns, the column strip
// cached in registers (column_cache = registers): with one outer index the
// default narrows the tile to 8 threads (32 columns) so that 4 workgroups
// run, with 8 thread rows of 8 rows each. Every thread loads its 8 rows
// once, up front; the max and the sum of exp(x - max) are folded from the
// registers and combined over the thread rows by shuffles (all 8 in one
// wave: no LDS, no barrier); the rewrite stores from the registers: no
// global read after the first eight.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0
// CHECK-SAME:    (%[[IN:.*]]: memref<64x128xf32>, %{{.*}}: memref<64x128xf32>) kernel
// CHECK-SAME:    hkg.schedule = #hkg.schedule<axis_split = 1, column_cache = registers, occupancy = 0, rows_per_block = 8, threads = 64, unroll = 4, vector_width = 4>
// CHECK-SAME:    known_grid_size = array<i32: 4, 1, 1>
// CHECK-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<1x64x128xf32>, vector<4xf32>
// CHECK-NOT:     vector.load
// CHECK:         arith.maxnumf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:         gpu.shuffle  xor %{{.*}}, %c8_i32, %c64_i32 : f32
// CHECK-NOT:     gpu.barrier
// CHECK:         math.exp %{{.*}} : vector<4xf32>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:         arith.divf
// CHECK-NOT:     vector.load
// CHECK-COUNT-8: vector.store %{{.*}} {alignment = 16 : i64} : memref<1x64x128xf32>, vector<4xf32>
// CHECK-NOT:     vector.load
// CHECK:         gpu.return
func.func @softmax_axis0(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = hkg.softmax %x axis(0) : tensor<64x128xf32> -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
}
