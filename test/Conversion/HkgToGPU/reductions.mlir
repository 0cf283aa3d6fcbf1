// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// Softmax with its gfx942 default schedule: 128 threads per row, 16-byte
// vectors, the row read once into registers (4 vectors per thread, fully
// unrolled), separate max and sum reductions from registers; a row spans two
// waves, so the reductions go through two small LDS arrays.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @softmax_default
// CHECK:         gpu.launch_func @hkg_softmax_0::@hkg_softmax_0
// CHECK:       gpu.module @hkg_softmax_0
// CHECK:         gpu.func @hkg_softmax_0(%{{.*}}: memref<64x4096xbf16>, %{{.*}}: memref<64x4096xbf16>)
// CHECK-SAME:      workgroup(%{{.*}} : memref<2xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<2xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME:      hkg.schedule = #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 1, threads = 128, unroll = 4, vector_width = 8>
// CHECK-SAME:      known_block_size = array<i32: 128, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 64, 1, 1>
// CHECK-NOT:       scf.for
// CHECK-COUNT-4:   vector.load %{{.*}} {alignment = 16 : i64} : memref<64x4096xbf16>, vector<8xbf16>
// CHECK-NOT:       vector.load
// CHECK:           vector.reduction <maxnumf>
// CHECK:           gpu.shuffle  xor %{{.*}}, %c32_i32
// CHECK:           gpu.barrier
// CHECK:           math.exp %{{.*}} : vector<8xf32>
// CHECK:           vector.reduction <add>
// CHECK:           gpu.shuffle  xor
// CHECK:           gpu.barrier
// CHECK-NOT:       vector.load
// CHECK-COUNT-4:   vector.store %{{.*}} {alignment = 16 : i64} : memref<64x4096xbf16>, vector<8xbf16>
// CHECK-NOT:       vector.load
// CHECK:           gpu.return
func.func @softmax_default(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %y = hkg.softmax %x axis(1) {schedule = #hkg.schedule<online = 0, row_cache = registers, rows_per_block = 1, threads = 128, unroll = 4, vector_width = 8>} : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}
}

// -----

// row_cache = lds: the first pass parks the row in a [1, 4096] LDS buffer
// that the later passes read; unroll = 2 gives two loads per loop step.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @softmax_lds
// CHECK:         gpu.func @hkg_softmax_0
// CHECK-SAME:      workgroup(%[[ROW:.*]] : memref<1x4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-SAME:      known_block_size = array<i32: 256, 1, 1>
// CHECK:           scf.for
// CHECK:             %[[V0:.*]] = vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x4096xbf16>, vector<8xbf16>
// CHECK:             vector.store %[[V0]], %[[ROW]][{{.*}}] {alignment = 16 : i64}
// CHECK:             %[[V1:.*]] = vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x4096xbf16>, vector<8xbf16>
// CHECK:             vector.store %[[V1]], %[[ROW]][{{.*}}] {alignment = 16 : i64}
// CHECK:             scf.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK:           gpu.barrier
// CHECK:           scf.for
// CHECK-COUNT-2:     vector.load %[[ROW]][{{.*}}] {alignment = 16 : i64} : memref<1x4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:           gpu.barrier
// CHECK:           scf.for
// CHECK-COUNT-2:     vector.load %[[ROW]]
// CHECK-COUNT-2:     vector.store %{{.*}}, %arg1
func.func @softmax_lds(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %y = hkg.softmax %x axis(1) {schedule = #hkg.schedule<online = 0, row_cache = lds, rows_per_block = 1, threads = 256, unroll = 2, vector_width = 8>} : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}
}

// -----

// Online softmax re-reading global memory, 4 rows of 16 threads per
// workgroup: the reductions stay inside 16-lane clusters of a wave (no LDS at
// all), the 30 rows need 8 workgroups and the stores of the two missing rows
// of the last workgroup are skipped.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @softmax_online_rows
// CHECK:         gpu.func @hkg_softmax_0(%{{.*}}: memref<30x1024xf32>, %{{.*}}: memref<30x1024xf32>) kernel
// CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 8, 1, 1>
// CHECK:           %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %c30 : index
// CHECK:           scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-4:     vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<30x1024xf32>, vector<4xf32>
// CHECK-NOT:       gpu.shuffle  xor %{{.*}}, %c32_i32
// CHECK-NOT:       gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.for
// CHECK:             vector.load %arg0
// CHECK:             scf.if %[[VALID]] {
// CHECK-NEXT:          vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 16 : i64} : memref<30x1024xf32>, vector<4xf32>
func.func @softmax_online_rows(%x: tensor<30x1024xf32>) -> tensor<30x1024xf32> {
  %y = hkg.softmax %x axis(1) {schedule = #hkg.schedule<online = 1, row_cache = none, rows_per_block = 4, threads = 64, unroll = 4, vector_width = 4>} : tensor<30x1024xf32> -> tensor<30x1024xf32>
  return %y : tensor<30x1024xf32>
}
}

// -----

// Rows of 1001 elements: 250 vectors (element-aligned, rows are not 16-byte
// aligned) of which the thread's last may be out of range, then one scalar
// tail element; weight and bias vectors stay 16-byte aligned.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @layernorm_tail
// CHECK:         gpu.func @hkg_layernorm_0(%{{.*}}: memref<33x1001xf32>, %{{.*}}: memref<1001xf32>, %{{.*}}: memref<1001xf32>, %{{.*}}: memref<33x1001xf32>) kernel
// CHECK-SAME:      hkg.arg_roles = ["input", "input", "input", "output"]
// CHECK-SAME:      known_grid_size = array<i32: 17, 1, 1>
// CHECK-COUNT-4:   vector.load %arg0[{{.*}}] {alignment = 4 : i64} : memref<33x1001xf32>, vector<4xf32>
// CHECK:           vector.load %arg0[{{.*}}] {alignment = 4 : i64} : memref<33x1001xf32>, vector<1xf32>
// CHECK:           math.rsqrt
// CHECK:           vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<1001xf32>, vector<4xf32>
// CHECK:           vector.load %arg2[{{.*}}] {alignment = 16 : i64} : memref<1001xf32>, vector<4xf32>
// CHECK:           scf.if
// CHECK-NEXT:        vector.store %{{.*}}, %arg3[{{.*}}] {alignment = 4 : i64} : memref<33x1001xf32>, vector<4xf32>
// CHECK:           vector.store %{{.*}}, %arg3[{{.*}}] {alignment = 4 : i64} : memref<33x1001xf32>, vector<1xf32>
func.func @layernorm_tail(%x: tensor<33x1001xf32>, %w: tensor<1001xf32>, %b: tensor<1001xf32>) -> tensor<33x1001xf32> {
  %y = hkg.layernorm %x weight(%w : tensor<1001xf32>) bias(%b : tensor<1001xf32>) eps(1.0e-05) {schedule = #hkg.schedule<row_cache = registers, rows_per_block = 2, threads = 128, unroll = 1, vector_width = 4>} : tensor<33x1001xf32> -> tensor<33x1001xf32>
  return %y : tensor<33x1001xf32>
}
}

// -----

// RMSNorm, f32 statistics of a bf16 row: x^2 summed in f32, rsqrt, then
// x * rstd * w converted back to bf16.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @rmsnorm
// CHECK:         gpu.func @hkg_rmsnorm_0(%{{.*}}: memref<64x8192xbf16>, %{{.*}}: memref<8192xbf16>, %{{.*}}: memref<64x8192xbf16>)
// CHECK:           %[[X:.*]] = vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:           %[[XF:.*]] = arith.extf %[[X]] : vector<8xbf16> to vector<8xf32>
// CHECK:           arith.mulf %[[XF]], %[[XF]] : vector<8xf32>
// CHECK:           math.rsqrt %{{.*}} : f32
// CHECK:           vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<8192xbf16>, vector<8xbf16>
// CHECK:           arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
func.func @rmsnorm(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %y = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %y : tensor<64x8192xbf16>
}
}

// -----

// A full reduction of a 128256-element vector in one workgroup of 1024
// threads: an scf.for of 8 steps with 4 loads each (unroll = 4), then the
// butterfly and the 16 wave partials through LDS; a rank-0 result.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @reduce_all
// CHECK:         gpu.func @hkg_reduce_0(%{{.*}}: memref<128256xf32>, %{{.*}}: memref<f32>) workgroup(%[[LDS:.*]] : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK-SAME:      known_block_size = array<i32: 1024, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 1, 1, 1>
// CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1{{.*}} -> (f32, f32, f32, f32) {
// CHECK-COUNT-4:     vector.load {{.*}} : memref<1x128256xf32>, vector<4xf32>
// CHECK:             scf.yield
// CHECK:           gpu.shuffle  xor %{{.*}}, %c32_i32
// CHECK:           memref.store %{{.*}}, %[[LDS]]
// CHECK:           gpu.barrier
// CHECK-COUNT-16:  memref.load %[[LDS]]
// CHECK:           memref.store %{{.*}} : memref<1xf32>
func.func @reduce_all(%x: tensor<128256xf32>) -> tensor<f32> {
  %y = hkg.reduce max %x axes = [0] {schedule = #hkg.schedule<row_split = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 4>} : tensor<128256xf32> -> tensor<f32>
  return %y : tensor<f32>
}
}
